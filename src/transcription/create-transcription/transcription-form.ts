// Reads the multipart upload from Fastify (@fastify/multipart; Nest's multer interceptors do not
// run on Fastify) and validates it like a JSON body: type errors 422, the spec's conditions 400.
// The form is checked part by part against its allow-list (form-allow-list.ts) before a file is read:
// an undocumented field, a repeat or a text field over 64 KiB is 400 with the field named.
import { plainToInstance } from 'class-transformer';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../common/api-error';
import { assertValid } from '../../common/validation.pipe';
import type { ValidationSpans } from '../../observability/tracing/step-span';
import { readUpload, uploadCapacity } from '../../common/read-upload';
import { BODY_LIMIT_BYTES } from '../../common/body-limits';
import { FormAllowList, type FormRules } from '../../common/form-allow-list';
import { CreateTranscriptionRequestDto, UploadedAudio } from './create-transcription.request.dto';

/** The SDKs send `timestamp_granularities[]`; plain form posts often use the bare name. */
const GRANULARITY_FIELDS = new Set(['timestamp_granularities[]', 'timestamp_granularities']);
const SCALAR_FIELDS = new Set(['model', 'language', 'prompt', 'response_format', 'temperature', 'speaker_labels', 'num_speakers', 'stream']);

/** Every scalar once, the granularity lists repeated, one `file`. */
export const TRANSCRIPTION_FORM: FormRules = {
  fields: Object.fromEntries([...[...SCALAR_FIELDS].map((name) => [name, false]), ...[...GRANULARITY_FIELDS].map((name) => [name, true])]),
  files: { file: false },
};

interface ReceivedForm {
  fields: { name: string; value: string }[];
  files: (UploadedAudio & { field: string })[];
}

function uploadError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if ((error as { statusCode?: number }).statusCode === 413) {
    return ApiError.tooLarge('request_too_large', 'The uploaded file exceeds the 100 MiB limit.', 'file');
  }
  return ApiError.badRequest('invalid_multipart', `The multipart body could not be read: ${(error as Error).message}`);
}

async function receiveForm(request: FastifyRequest): Promise<ReceivedForm> {
  if (!request.isMultipart()) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the request as multipart/form-data.', 'invalid_request_error');
  }
  const form: ReceivedForm = { fields: [], files: [] };
  const capacity = uploadCapacity(request.headers, BODY_LIMIT_BYTES);
  const allowed = new FormAllowList(TRANSCRIPTION_FORM);
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        allowed.admit({ kind: 'file', name: part.fieldname });
        const bytes = await readUpload(part.file, capacity);
        form.files.push({ field: part.fieldname, filename: part.filename, mimetype: part.mimetype, bytes });
      } else {
        allowed.admit({ kind: 'field', name: part.fieldname, truncated: part.valueTruncated });
        form.fields.push({ name: part.fieldname, value: String(part.value) });
      }
    }
  } catch (error) {
    throw uploadError(error);
  }
  return form;
}

/** The validated fields, by their DTO names (the allow-list already refused any other). */
function plainFields(form: ReceivedForm): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  const granularities: string[] = [];
  for (const { name, value } of form.fields) {
    if (GRANULARITY_FIELDS.has(name)) granularities.push(value);
    else if (SCALAR_FIELDS.has(name)) plain[name] = value;
  }
  if (granularities.length > 0) plain.timestamp_granularities = granularities;
  return plain;
}

/** The allow-list admits at most one `file`. */
function uploadedFile(form: ReceivedForm): UploadedAudio | undefined {
  const file = form.files.find((entry) => entry.field === 'file');
  return file && { filename: file.filename, mimetype: file.mimetype, bytes: file.bytes };
}

export async function readTranscriptionRequest(request: FastifyRequest, spans: ValidationSpans | null = null): Promise<CreateTranscriptionRequestDto> {
  const form = await receiveForm(request);
  const dto = plainToInstance(CreateTranscriptionRequestDto, plainFields(form));
  // Attached after the transform, which would otherwise copy the (up to 100 MiB) buffer.
  dto.file = uploadedFile(form)!;
  await assertValid(dto, 'body', spans);
  return dto;
}
