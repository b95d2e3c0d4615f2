// Simulated image upstream speaking OpenAI's Images API: `generations` (JSON), `edits` and
// `variations` (multipart). It records a digest of every file it receives so tests can prove the
// gateway forwarded them byte for byte, and answers pretty-printed JSON so a relay that re-encodes
// instead of passing the body through is caught. JSON shapes: docs/simulator.md.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readImageHeader } from '../media';
import { applyMode } from './simulator-route';
import type { SimulatorControl } from './simulator-control';
import type { SimulatorRoutes } from './simulator-route';
import { simulatedPng } from './simulated-png';

/** A fixed timestamp keeps replies deterministic (the example catalog's `created`). */
export const SIMULATED_IMAGES_CREATED = 1767225600;
const MAX_IMAGES = 10;

export interface ReceivedFile {
  field: string;
  filename: string;
  type: string;
  size: number;
  sha256: string;
  /** Whether the bytes start like an image the simulated model reads. */
  isImage: boolean;
}

export interface ImageRequest {
  fields: Record<string, string>;
  files: ReceivedFile[];
}

const errorBody = (message: string) => ({ error: { message, type: 'invalid_request_error', param: null, code: null } });
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export const imagesRoutes: SimulatorRoutes = (app, control) => {
  app.post('/v1/images/generations', async (req: FastifyRequest<{ Body: Record<string, unknown> }>, reply) => {
    const fields = Object.fromEntries(Object.entries(req.body ?? {}).map(([key, value]) => [key, String(value)]));
    return answer(control, reply, 'generations', { fields, files: [] });
  });
  for (const operation of ['edits', 'variations'] as const) {
    app.post(`/v1/images/${operation}`, async (req, reply) => answer(control, reply, operation, await readForm(req)));
  }
};

async function readForm(req: FastifyRequest): Promise<ImageRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req.body as AsyncIterable<Buffer>) chunks.push(chunk);
  const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
  const request: ImageRequest = { fields: {}, files: [] };
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') request.fields[field] = value;
    else {
      const bytes = Buffer.from(await value.arrayBuffer());
      const isImage = readImageHeader(bytes) !== null;
      request.files.push({ field, filename: value.name, type: value.type, size: bytes.length, sha256: sha256(bytes), isImage });
    }
  }
  return request;
}

async function answer(control: SimulatorControl, reply: FastifyReply, operation: string, request: ImageRequest) {
  const model = request.fields.model ?? 'unknown';
  control.record(model, `/v1/images/${operation}`, request);
  if (await applyMode(control, model, reply)) return;
  const problem = problemWith(operation, request);
  if (problem) return reply.code(400).send(errorBody(problem));
  const quirk = control.modeOf(model);
  if (quirk.kind === 'quirk' && quirk.name === 'not_images') return reply.send({ object: 'list', items: [] });
  // An upstream that returns one image more than `n` (billing bounds it: docs/metering.md).
  const extra = quirk.kind === 'quirk' && quirk.name === 'extra_image' ? 1 : 0;
  return reply.header('content-type', 'application/json').send(await imagesResponseText(operation, request, extra));
}

function problemWith(operation: string, request: ImageRequest): string | null {
  if (operation !== 'variations' && !request.fields.prompt) return "'prompt' is required";
  const images = request.files.filter((file) => file.field === 'image' || file.field === 'image[]');
  if (operation !== 'generations' && images.length === 0) return "'image' is required";
  const invalid = request.files.find((file) => !file.isImage);
  return invalid ? `'${invalid.filename}' is not an image` : null;
}

/** The reply body for a request, exactly as sent: pretty-printed, with a final newline. */
export async function imagesResponseText(operation: string, request: ImageRequest, extra = 0): Promise<string> {
  return `${JSON.stringify(await imagesResponse(operation, request, extra), null, 2)}\n`;
}

async function imagesResponse(operation: string, request: ImageRequest, extra: number) {
  const count = Math.min(MAX_IMAGES, Math.max(1, Number(request.fields.n ?? 1) || 1)) + extra;
  const seed = sha256(Buffer.from(JSON.stringify([operation, request.fields, request.files.map((file) => file.sha256)]))).slice(0, 12);
  const b64 = request.fields.response_format === 'b64_json' ? (await simulatedPng()).toString('base64') : null;
  const data = Array.from({ length: count }, (_, index) => ({
    ...(b64 ? { b64_json: b64 } : { url: `https://images.simulator.invalid/${operation}/${seed}-${index}.png` }),
    ...(request.fields.prompt ? { revised_prompt: `${request.fields.prompt} (simulated)` } : {}),
  }));
  return { created: SIMULATED_IMAGES_CREATED, data };
}
