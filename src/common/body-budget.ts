// How many request-body bytes the gateway holds at once. A chat JSON body forwarded upstream costs
// about 4 times its size in RSS (the body, its string, the parsed value, the upstream JSON and its
// buffer), so without a bound a few concurrent large bodies exceed the pod's 512 MiB (32 took it to
// 3.9 GiB). Pure accounting: the Fastify hook in body-budget.hook.ts asks before a body is read and
// gives the bytes back when the request ends.

/**
 * 48 MiB: 160 MiB idle + 4 x 48 MiB leaves ~160 MiB for garbage V8 has not collected yet (RSS does
 * not drop between requests). Measured in test/platform/memory-bounds.e2e-spec.ts; docs/operations.md, memory.
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
