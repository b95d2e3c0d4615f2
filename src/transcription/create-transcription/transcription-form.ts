// Reads the multipart upload from Fastify (@fastify/multipart; Nest's multer interceptors do not
// run on Fastify) and validates it like a JSON body: type errors 422, the spec's conditions 400.
import { plainToInstance } from 'class-transformer';
import type { FastifyRequest } from 'fastify';
import { ApiError, RequestValidationError } from '../../common/api-error';
import { assertValid } from '../../common/validation.pipe';
import { readUpload, uploadCapacity } from '../../common/read-upload';
import { CreateTranscriptionRequestDto, UploadedAudio } from './create-transcription.request.dto';

/** The SDKs send `timestamp_granularities[]`; plain form posts often use the bare name. */
const GRANULARITY_FIELDS = new Set(['timestamp_granularities[]', 'timestamp_granularities']);
const SCALAR_FIELDS = new Set(['model', 'language', 'prompt', 'response_format', 'temperature', 'speaker_labels', 'num_speakers', 'stream']);

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
  const capacity = uploadCapacity(request.headers);
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = capacity ? await readUpload(part.file, capacity) : await part.toBuffer();
        form.files.push({ field: part.fieldname, filename: part.filename, mimetype: part.mimetype, bytes });
      } else {
        form.fields.push({ name: part.fieldname, value: String(part.value) });
      }
    }
  } catch (error) {
    throw uploadError(error);
  }
  return form;
}

/** Only the spec's fields are read; others are ignored, and never forwarded upstream. */
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

function uploadedFile(form: ReceivedForm): UploadedAudio | undefined {
  const files = form.files.filter((file) => file.field === 'file');
  if (files.length > 1) {
    throw new RequestValidationError([{ loc: ['body', 'file'], msg: 'send exactly one file', type: 'too_many_files' }]);
  }
  return files[0] && { filename: files[0].filename, mimetype: files[0].mimetype, bytes: files[0].bytes };
}

export async function readTranscriptionRequest(request: FastifyRequest): Promise<CreateTranscriptionRequestDto> {
  const form = await receiveForm(request);
  const dto = plainToInstance(CreateTranscriptionRequestDto, plainFields(form));
  // Attached after the transform, which would otherwise copy the (up to 100 MiB) buffer.
  dto.file = uploadedFile(form)!;
  await assertValid(dto, 'body');
  return dto;
}
