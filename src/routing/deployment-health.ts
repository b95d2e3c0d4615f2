// One deployment's health, as a pure state machine fed with observations and the time (docs/routing.md
// "Health"). Two signals, kept apart so that neither flaps the other:
// - active probes: `cold` after `probeFailuresToCold` consecutive failed probes, `warm` again after
//   `probeSuccessesToWarm` consecutive good ones. The first probe of a deployment with no history
//   decides at once (nothing to flap from). An upstream's own 503 + Retry-After is its answer that it
//   is cold, not a guess, and counts at once too.
// - passive ejection: `ejectAfterFailures` consecutive connect errors, timeouts or 5xx of real requests
//   eject it for `baseEjectionMs * 2^(ejections-1)` (at most `maxEjectionMs`); a served request resets
//   the count and, once back, the back-off. Whether an ejection is allowed (never more than half of a
//   model's deployments at once) is the fleet's call: see DeploymentFleet.

export interface HealthParameters {
  probeFailuresToCold: number;
  probeSuccessesToWarm: number;
  ejectAfterFailures: number;
  baseEjectionMs: number;
  maxEjectionMs: number;
}

export const DEFAULT_HEALTH: HealthParameters = {
  probeFailuresToCold: 3,
  probeSuccessesToWarm: 2,
  ejectAfterFailures: 3,
  baseEjectionMs: 5_000,
  maxEjectionMs: 300_000,
};

export type ProbeStatus = 'warm' | 'cold' | 'unknown';

export class DeploymentHealth {
  private probeStatus: ProbeStatus = 'unknown';
  private failedProbes = 0;
  private goodProbes = 0;
  private failedRequests = 0;
  private ejections = 0;
  private ejectedUntil = 0;

  constructor(private readonly params: HealthParameters = DEFAULT_HEALTH) {}

  get status(): ProbeStatus {
    return this.probeStatus;
  }

  /** A probe's answer; returns the probe status after it. */
  probed(ok: boolean): ProbeStatus {
    if (ok) {
      this.failedProbes = 0;
      this.goodProbes += 1;
      if (this.probeStatus !== 'warm' && (this.probeStatus === 'unknown' || this.goodProbes >= this.params.probeSuccessesToWarm)) this.probeStatus = 'warm';
    } else {
      this.goodProbes = 0;
      this.failedProbes += 1;
      if (this.probeStatus !== 'cold' && (this.probeStatus === 'unknown' || this.failedProbes >= this.params.probeFailuresToCold)) this.probeStatus = 'cold';
    }
    return this.probeStatus;
  }

  /** The upstream said it is starting (503 + Retry-After): cold now, warm again after good probes. */
  saidCold(): void {
    this.probeStatus = 'cold';
    this.goodProbes = 0;
  }

  /** A request was served: the upstream is answering, whatever the probes said. */
  served(): void {
    this.failedRequests = 0;
    this.probeStatus = 'warm';
    this.goodProbes = 0;
    this.failedProbes = 0;
  }

  /** A request failed before its first byte (connect error, timeout, 5xx); true when this calls for ejection. */
  failed(): boolean {
    this.failedRequests += 1;
    return this.failedRequests >= this.params.ejectAfterFailures;
  }

  /** Ejects until `now + back-off`; the back-off doubles with each ejection in a row. Returns its length. */
  eject(now: number): number {
    this.ejections += 1;
    const ms = Math.min(this.params.baseEjectionMs * 2 ** (this.ejections - 1), this.params.maxEjectionMs);
    this.ejectedUntil = now + ms;
    this.failedRequests = 0;
    return ms;
  }

  isEjected(now: number): boolean {
    return now < this.ejectedUntil;
  }

  /** A served request after the ejection ended: the back-off starts over. */
  recovered(now: number): void {
    if (!this.isEjected(now)) this.ejections = 0;
  }

  /** Usable for requests: not cold by its probes (unknown counts as usable) and not ejected. */
  usable(now: number): boolean {
    return this.probeStatus !== 'cold' && !this.isEjected(now);
  }
}
