// How many request-body bytes the gateway holds at once. A chat JSON body costs up to ~7 times its size
// in RSS while it is read, parsed and forwarded upstream (measured: docs/errors.md, "server_busy"),
// so without a bound a few concurrent large bodies exceed the pod's 512 MiB. Pure accounting: the
// Fastify hook in body-budget.hook.ts asks before a body is read and gives the bytes back at the end.

/**
 * 48 MiB: (512 MiB limit - 160 MiB idle RSS - margin) / 6.9, the RSS cost per body byte of a chat
 * completion forwarded upstream, the worst of the measured paths (multipart uploads cost ~2).
 */
export const DEFAULT_BODY_BUDGET_BYTES = 48 * 1024 * 1024;

export class BodyBudget {
  private inFlight = 0;

  constructor(readonly limitBytes: number) {
    if (!Number.isSafeInteger(limitBytes) || limitBytes <= 0) throw new Error(`body budget must be a positive integer of bytes, got ${limitBytes}`);
  }

  get bytesInFlight(): number {
    return this.inFlight;
  }

  /**
   * Takes `bytes` if they fit. A request alone (nothing in flight but the `alreadyHeld` bytes it took
   * itself) is always admitted, so a body the size limit allows is never refused on an idle gateway,
   * even with a budget set below that limit.
   */
  tryTake(bytes: number, alreadyHeld = 0): boolean {
    if (this.inFlight > alreadyHeld && this.inFlight + bytes > this.limitBytes) return false;
    this.inFlight += bytes;
    return true;
  }

  give(bytes: number): void {
    this.inFlight = Math.max(0, this.inFlight - bytes);
  }
}

/** `GATEWAY_BODY_BUDGET_BYTES`: unset -> the default; anything but a positive integer stops the start. */
export function bodyBudgetFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.GATEWAY_BODY_BUDGET_BYTES;
  if (raw === undefined || raw === '') return DEFAULT_BODY_BUDGET_BYTES;
  if (!/^[1-9]\d*$/.test(raw.trim()) || !Number.isSafeInteger(Number(raw))) {
    throw new Error(`GATEWAY_BODY_BUDGET_BYTES must be a positive integer of bytes, got '${raw}'`);
  }
  return Number(raw);
}
