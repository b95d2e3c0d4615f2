import { Body, Controller, Post, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { KeyGuard } from '../../access/key.guard';
import { Ctx, type RequestContext } from '../../common/request-context';
import { CreateSpeechCommand } from './create-speech.command';
import { CreateSpeechRequestDto } from './create-speech.request.dto';
import type { SpeechResponse } from './speech-response';

@Controller('v1/audio/speech')
@UseGuards(KeyGuard)
export class CreateSpeechController {
  constructor(private readonly commandBus: CommandBus) {}

  /** The body is audio (or an SSE stream), not JSON, so the reply is written here. */
  @Post()
  async create(@Body() body: CreateSpeechRequestDto, @Ctx() ctx: RequestContext, @Res() reply: FastifyReply): Promise<void> {
    const speech = await this.commandBus.execute<CreateSpeechCommand, SpeechResponse>(new CreateSpeechCommand(ctx, body));
    if (!Buffer.isBuffer(speech.body)) void reply.header('cache-control', 'no-cache');
    await reply.code(200).header('content-type', speech.contentType).send(speech.body);
  }
}
