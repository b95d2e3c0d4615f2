// Controllers that read a multipart upload themselves (Fastify has no @Body for it) declare its
// fields with this decorator; the document derives the form schema from the DTO they validate it with.
import { SetMetadata, Type } from '@nestjs/common';

export const MULTIPART_BODY = 'openapi:multipart-body';

export interface MultipartBody {
  /** The class-validator DTO the form fields are validated with. */
  dto: Type;
  /** Parts carrying file bytes: `one` file, or `many` when the field may repeat. */
  files: Record<string, 'one' | 'many'>;
  /** Wire names that differ from the DTO property, e.g. `timestamp_granularities[]`. */
  wireNames?: Record<string, string>;
}

export const ApiMultipartBody = (body: MultipartBody): MethodDecorator => SetMetadata(MULTIPART_BODY, body);
