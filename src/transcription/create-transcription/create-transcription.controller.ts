import { Controller, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KeyGuard } from '../../access/key.guard';
import { Ctx, RequestContext } from '../../common/request-context';
import { ApiMultipartBody } from '../../openapi/api-multipart-body.decorator';
import { CreateTranscriptionCommand } from './create-transcription.command';
import { CreateTranscriptionRequestDto } from './create-transcription.request.dto';
import { readTranscriptionRequest } from './transcription-form';
import { VALIDATION_SPANS } from '../../common/runtime-tokens';
import type { ValidationSpans } from '../../observability/tracing/step-span';

@Controller('v1/audio/transcriptions')
@UseGuards(KeyGuard)
export class CreateTranscriptionController {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(VALIDATION_SPANS) private readonly validationSpans: ValidationSpans | null,
  ) {}

  /** JSON formats answer an object, text/srt/vtt a text/plain file. */
  @Post()
  @HttpCode(200)
  @ApiMultipartBody({
    dto: CreateTranscriptionRequestDto,
    files: { file: 'one' },
    wireNames: { timestamp_granularities: 'timestamp_granularities[]' },
  })
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Ctx() ctx: RequestContext,
  ): Promise<string | Record<string, unknown>> {
    const request = await readTranscriptionRequest(req, this.validationSpans);
    const result = await this.commandBus.execute(new CreateTranscriptionCommand(ctx, request));
    void reply.header('content-type', result.contentType);
    return result.body;
  }
}
