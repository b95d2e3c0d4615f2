// Helpers for the image relay tests: raw multipart posts (for what the SDK would never send) and
// what the simulated image model received.
import { createHash } from 'node:crypto';
import type { TestGateway } from '../support/test-gateway';
import type { ImageRequest } from '../../src/simulator/images.routes';

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface Upload {
  field: string;
  bytes: Buffer;
  filename: string;
  type: string;
}

export async function postImageForm(gw: TestGateway, operation: string, fields: Record<string, string>, files: Upload[] = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(file.field, new Blob([file.bytes], { type: file.type }), file.filename);
  return fetch(`${gw.baseUrl}/v1/images/${operation}`, { method: 'POST', headers: { authorization: `Bearer ${gw.apiKey}` }, body: form });
}

export function postImageJson(gw: TestGateway, operation: string, body: unknown) {
  return fetch(`${gw.baseUrl}/v1/images/${operation}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** What the simulated image model received for the most recent request to an operation. */
export function lastImageRequest(gw: TestGateway, operation: string): ImageRequest {
  const received = gw.simulator.control.received((r) => r.path === `/v1/images/${operation}`);
  return received[received.length - 1].body as ImageRequest;
}

const BILLING_EVENTS = new Set(['UsageMeasured', 'CostPriced']);

export async function billingEventsOf(gw: TestGateway, requestId: string | null) {
  const events = await gw.events();
  return events.filter((event) => BILLING_EVENTS.has(event.type) && (event.data as { requestId?: string }).requestId === requestId);
}
