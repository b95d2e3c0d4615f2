// An environment switch that is on unless set to an off word. Anything but a known on/off word stops the
// start-up: a typo must not silently turn a feature on or off.
const OFF = new Set(['off', 'false', '0', 'no']);
const ON = new Set(['on', 'true', '1', 'yes', '']);

/** The switch `name` in `env`: true when unset or on, false when off; throws on anything else. */
export function onOffSwitch(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = (env[name] ?? '').trim().toLowerCase();
  if (!OFF.has(value) && !ON.has(value)) throw new Error(`${name} must be 'on' or 'off'; got '${env[name]}'`);
  return !OFF.has(value);
}
