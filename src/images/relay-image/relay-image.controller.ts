import { Controller, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KeyGuard } from '../../access/key.guard';
import { ApiError } from '../../common/api-error';
import { Ctx, RequestContext } from '../../common/request-context';
import { IMAGE_OPERATIONS, imageOperation } from '../domain/image-operations';
import type { UploadPart } from './image-upload';
import { ImagePayload, RelayedImages, RelayImageCommand } from './relay-image.command';

@Controller('v1/images')
@UseGuards(KeyGuard)
export class RelayImageController {
  constructor(private readonly commandBus: CommandBus) {}

  /** Answers the upstream's JSON byte for byte. */
  // Named as the spec names it (`/v1/images/{path}`), which the OpenAPI document follows.
  @Post(':path')
  @HttpCode(200)
  async relay(
    @Param('path') path: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Ctx() ctx: RequestContext,
  ): Promise<Buffer> {
    const operation = imageOperation(path);
    const result: RelayedImages = await this.commandBus.execute(new RelayImageCommand(ctx, operation, payloadOf(req, IMAGE_OPERATIONS[operation].body)));
    void reply.header('content-type', 'application/json');
    return result.body;
  }
}

function payloadOf(req: FastifyRequest, expected: 'json' | 'multipart'): ImagePayload {
  if (expected === 'multipart' && req.isMultipart()) return { kind: 'multipart', parts: uploadParts(req) };
  if (expected === 'json' && !req.isMultipart()) return { kind: 'json', body: req.body };
  const wanted = expected === 'json' ? 'application/json' : 'multipart/form-data';
  throw new ApiError(415, 'unsupported_media_type', `Send this image request as ${wanted}.`, 'invalid_request_error');
}

async function* uploadParts(req: FastifyRequest): AsyncIterable<UploadPart> {
  for await (const part of req.parts()) {
    if (part.type === 'file') yield { kind: 'file', name: part.fieldname, filename: part.filename, mimetype: part.mimetype, stream: part.file };
    else yield { kind: 'field', name: part.fieldname, value: String(part.value), truncated: part.valueTruncated };
  }
}
