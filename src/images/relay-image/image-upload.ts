// Multipart image uploads: each file is streamed to a temp file as it arrives (the model field may
// come after the files, so nothing can be forwarded before the whole form is read), read once to
// be measured, and sent upstream from disk as a file-backed Blob, never buffered for the relay.
// Each part is checked against the operation's allow-list (image-fields.ts) before it is spooled, and
// the upstream form is rebuilt from the validated fields only.
import { createWriteStream, openAsBlob } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FormData } from 'undici';
import type { MeasuredImage } from '../../billing/metering/measurement';
import type { CatalogModel } from '../../catalog/catalog.types';
import { ApiError } from '../../common/api-error';
import { type MediaWork, prepareImageInput, withMediaParam } from '../../media';
import { FormAllowList, type FormRules } from '../../common/form-allow-list';
import { INPUT_IMAGE_FIELDS } from '../domain/image-operations';

export type UploadPart =
  | { kind: 'field'; name: string; value: string; truncated?: boolean }
  | { kind: 'file'; name: string; filename: string; mimetype: string; stream: Readable };

export type SpooledEntry =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; filename: string; mimetype: string; path: string };

export interface InspectedImages {
  measured: MeasuredImage[];
  /** Converted bytes that replace an upload (by entry index) when the profile converts it. */
  replacements: Map<number, Buffer>;
}

export async function spoolUpload(parts: AsyncIterable<UploadPart>, dir: string, rules: FormRules): Promise<SpooledEntry[]> {
  const entries: SpooledEntry[] = [];
  const allowed = new FormAllowList(rules);
  try {
    for await (const part of parts) {
      allowed.admit(part);
      if (part.kind === 'field') {
        entries.push({ kind: 'field', name: part.name, value: part.value });
        continue;
      }
      const path = join(dir, `upload-${entries.length}`);
      await pipeline(part.stream, createWriteStream(path));
      entries.push({ kind: 'file', name: part.name, filename: part.filename, mimetype: part.mimetype, path });
    }
  } catch (error) {
    throw uploadError(error);
  }
  return entries;
}

function uploadError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if ((error as { statusCode?: number }).statusCode === 413) {
    return ApiError.tooLarge('request_too_large', 'The upload exceeds the 100 MiB limit.');
  }
  return ApiError.badRequest('invalid_multipart', `The multipart body could not be read: ${(error as Error).message}`);
}

/** The form's scalar fields (the allow-list let each through once). */
export function formFields(entries: readonly SpooledEntry[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const entry of entries) if (entry.kind === 'field') fields[entry.name] = entry.value;
  return fields;
}

export const isInputImage = (entry: SpooledEntry): boolean => entry.kind === 'file' && INPUT_IMAGE_FIELDS.has(entry.name);

/** Probes every input image against the model's image profile: accepted, converted, or 400. */
export async function inspectInputImages(model: CatalogModel, entries: readonly SpooledEntry[], work?: MediaWork): Promise<InspectedImages> {
  const inspected: InspectedImages = { measured: [], replacements: new Map() };
  for (const [index, entry] of entries.entries()) {
    if (entry.kind !== 'file' || !isInputImage(entry)) continue;
    await withMediaParam(entry.name, inspectImage(model, entry.path, index, inspected, work));
  }
  return inspected;
}

/** Header and pixel cap first (no process), then the profile, the decode check and any conversion (src/media/image-input.ts). */
async function inspectImage(model: CatalogModel, path: string, index: number, inspected: InspectedImages, work?: MediaWork): Promise<void> {
  const image = await prepareImageInput(await readFile(path), model.media_profiles?.image, { work });
  inspected.measured.push({ width: image.width, height: image.height });
  if (image.converted) inspected.replacements.set(index, image.bytes);
}

/** The validated fields (the upstream's model name in `model`), then the files in the order received, any converted. */
export async function upstreamForm(
  fields: readonly [string, string][],
  entries: readonly SpooledEntry[],
  upstreamModel: string,
  replacements: Map<number, Buffer>,
): Promise<FormData> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, name === 'model' ? upstreamModel : value);
  for (const [index, entry] of entries.entries()) {
    if (entry.kind === 'field') continue;
    const replacement = replacements.get(index);
    const blob = replacement ? new Blob([replacement], { type: entry.mimetype }) : await openAsBlob(entry.path, { type: entry.mimetype });
    form.append(entry.name, blob, entry.filename);
  }
  return form;
}
