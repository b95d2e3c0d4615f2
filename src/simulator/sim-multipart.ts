// The simulator takes multipart bodies as raw streams (simulator.ts); this reads one with the
// WHATWG FormData parser that Node's fetch implementation ships.
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';

export interface SimulatorUpload {
  fields: Map<string, string[]>;
  file?: { name: string; type: string; bytes: Buffer };
}

export async function readSimulatorUpload(req: FastifyRequest): Promise<SimulatorUpload> {
  const stream = Readable.toWeb(req.body as Readable) as ReadableStream<Uint8Array>;
  const form = await new Response(stream, { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
  const upload: SimulatorUpload = { fields: new Map() };
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') upload.fields.set(name, [...(upload.fields.get(name) ?? []), value]);
    else if (name === 'file') upload.file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
  }
  return upload;
}

export const lastField = (upload: SimulatorUpload, name: string): string | undefined => upload.fields.get(name)?.at(-1);

/** What the gateway forwarded, without the audio bytes, for tests to assert on. */
export function uploadSummary(upload: SimulatorUpload): Record<string, unknown> {
  const fields = Object.fromEntries([...upload.fields].map(([name, values]) => [name, values.length > 1 ? values : values[0]]));
  return { ...fields, file: upload.file && { name: upload.file.name, type: upload.file.type, size: upload.file.bytes.length } };
}
