import type { RequestContext } from '../../common/request-context';
import type { ImageOperation } from '../domain/image-operations';
import type { UploadPart } from './image-upload';

/** `generations` arrive as JSON, `edits` and `variations` as multipart parts still being received. */
export type ImagePayload = { kind: 'json'; body: unknown } | { kind: 'multipart'; parts: AsyncIterable<UploadPart> };

export class RelayImageCommand {
  constructor(
    readonly ctx: RequestContext,
    readonly operation: ImageOperation,
    readonly payload: ImagePayload,
  ) {}
}

/** The upstream's JSON as it sent it (cut to `n` images when it sent more). */
export interface RelayedImages {
  body: Buffer;
}
