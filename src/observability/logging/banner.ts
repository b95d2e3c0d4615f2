// The start-up line: where the gateway listens and, for the embedded demo, its simulator, limit and
// demo key. Written whatever LOG_LEVEL says, since people and scripts wait for it. At a terminal it is
// the readable banner the README shows, the demo key included (a person is reading). Anywhere else (a
// pipe, a supervisor, a log collector) it is one JSON line like every other, its `msg` keeping the words
// scripts match ("listening on http://…"); that line ships to log aggregators, so it names the FILE the
// demo key is kept in (`demoKeyFile`), never the key.
import pino from 'pino';

export interface DemoBanner {
  simulatorUrl: string;
  organization: string;
  /** e.g. `600 requests per 60 s`; null when the organization sets no limit of its own. */
  rateLimit: string | null;
  /** Shown at a terminal only: the embedded demo is useless without it. No log line may carry a key. */
  apiKey: string;
  /** The file the key is kept in, or the variable it came from. */
  keptIn: string;
}

const KEY_VARIABLE = 'GATEWAY_DEMO_KEY';

export function writeBanner(url: string, demo: DemoBanner | null, atTerminal = process.stdout.isTTY === true): void {
  if (atTerminal) {
    process.stdout.write(readableBanner(url, demo));
    return;
  }
  pino({ level: 'info' }, pino.destination({ fd: 1, sync: true })).info(structuredBannerFields(url, demo), `inference gateway listening on ${url}`);
}

/** The JSON start-up line's fields: where the demo key is kept, never the key itself. */
export function structuredBannerFields(url: string, demo: DemoBanner | null): Record<string, unknown> {
  const fields = { url, baseUrl: `${url}/v1` };
  if (!demo) return fields;
  const keptIn = demo.keptIn === KEY_VARIABLE ? { demoKeyVariable: KEY_VARIABLE } : { demoKeyFile: demo.keptIn };
  return { ...fields, simulatorUrl: demo.simulatorUrl, simulated: true, demoOrganization: demo.organization, demoRateLimit: demo.rateLimit, ...keptIn };
}

export function readableBanner(url: string, demo: DemoBanner | null): string {
  const lines = [`inference gateway listening on ${url}`, `  base URL:           ${url}/v1`];
  if (demo) {
    lines.push(
      `  upstream simulator: ${demo.simulatorUrl} (simulated models, not real ones)`,
      `  demo organization:  ${demo.organization}${demo.rateLimit ? ` (${demo.rateLimit})` : ''}`,
      `  demo API key:       ${demo.apiKey} (${demo.keptIn === KEY_VARIABLE ? demo.keptIn : `kept in ${demo.keptIn}`})`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Written when the server listens but the projections are still catching up with the store: /healthz
 * answers from here (probes, the start-up bench), /readyz once the banner above follows.
 */
export function writeCatchingUp(url: string, atTerminal = process.stdout.isTTY === true): void {
  const msg = `catching up with the event store; health probes at ${url}/healthz`;
  if (atTerminal) {
    process.stdout.write(`${msg}\n`);
    return;
  }
  pino({ level: 'info' }, pino.destination({ fd: 1, sync: true })).info({ url, context: 'startup' }, msg);
}
