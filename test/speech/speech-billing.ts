// Reads what the gateway recorded for one speech request, by the request id it answered with.
import type { CostPricedV1, UsageMeasuredV1 } from '../../src/billing/billing.events';
import type { TestGateway } from '../support/test-gateway';

export interface SpeechBill {
  usage: UsageMeasuredV1;
  cost: CostPricedV1;
}

export async function billOf(gw: TestGateway, requestId: string | null): Promise<SpeechBill | null> {
  const usage = (await gw.events('UsageMeasured')).find((e) => (e.data as UsageMeasuredV1).requestId === requestId);
  const cost = (await gw.events('CostPriced')).find((e) => (e.data as CostPricedV1).requestId === requestId);
  if (!usage || !cost) return null;
  return { usage: usage.data as UsageMeasuredV1, cost: cost.data as CostPricedV1 };
}

/** Polls until the request's events exist (a stream the client left is billed after it goes). */
export async function awaitBill(gw: TestGateway, requestId: string | null, timeoutMs = 5000): Promise<SpeechBill> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const bill = await billOf(gw, requestId);
    if (bill) return bill;
    if (Date.now() > deadline) throw new Error(`no billing events for request ${requestId}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Preset speech on the example catalog: 0.000015 USD per character, 0.000001 USD per audio token at 25 tokens/s. */
export function presetSpeechCostMicros(characters: number, outputSeconds: string): number {
  return characters * 15 + Math.ceil(25 * Number(outputSeconds));
}
