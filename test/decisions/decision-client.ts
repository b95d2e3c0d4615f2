// Posts to /v1/decisions over real HTTP (the openai SDK has no decisions resource) and reads the
// billing events a request left behind.
import type { TestGateway } from '../support/test-gateway';

export interface DecisionReply {
  status: number;
  headers: Headers;
  body: any;
  requestId: string;
}

export async function postDecision(gw: TestGateway, body: unknown, headers: Record<string, string> = {}): Promise<DecisionReply> {
  const response = await fetch(`${gw.baseUrl}/v1/decisions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null, requestId: response.headers.get('x-request-id') ?? '' };
}

const BILLING_EVENTS = new Set(['UsageMeasured', 'CostPriced']);

/** The billing events (UsageMeasured, CostPriced) recorded for one request. */
export async function billingEventsOf(gw: TestGateway, requestId: string) {
  const events = await gw.events();
  return events.filter((event) => BILLING_EVENTS.has(event.type) && (event.data as { requestId?: string }).requestId === requestId);
}

export const predicate = (instructions: string, name?: string) => ({ type: 'predicate', instructions, ...(name === undefined ? {} : { name }) });

export const choice = (instructions: string, values: (string | boolean)[], name?: string) => ({
  type: 'choice',
  instructions,
  choices: values.map((value) => ({ value })),
  ...(name === undefined ? {} : { name }),
});

export const score = (instructions: string, labels: string[], name?: string) => ({
  type: 'score',
  instructions,
  levels: labels.map((label) => ({ label })),
  ...(name === undefined ? {} : { name }),
});

/** A question whose simulated distribution is fixed (see docs/simulator.md, decisions). */
export const withDistribution = (text: string, probabilities: number[]) => `${text} [sim:probabilities=${probabilities.join(',')}]`;
