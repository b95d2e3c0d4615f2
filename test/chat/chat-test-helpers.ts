// Small helpers the chat e2e tests share: raw POSTs (for error cases the SDK would throw on) and
// what the simulator received.
import type { TestGateway } from '../support/test-gateway';

export async function postChat(gw: TestGateway, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${gw.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: any = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export function forwardedChatBodies(gw: TestGateway): Record<string, any>[] {
  return gw.simulator.control.received((r) => r.path === '/v1/chat/completions').map((r) => r.body as Record<string, any>);
}

/** Polls until `check` passes: billing of an interrupted stream finishes after the client left. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
