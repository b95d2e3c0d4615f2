import { Body, Controller, HttpCode, Post, Res, StreamableFile, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { KeyGuard } from '../../access/key.guard';
import { pullReadable } from '../../common/pull-readable';
import { Ctx, type RequestContext } from '../../common/request-context';
import type { ClientCompletion } from '../chat.types';
import { CreateChatCompletionCommand } from './create-chat-completion.command';
import { CreateChatCompletionRequestDto } from './create-chat-completion.request.dto';

@Controller('v1/chat/completions')
@UseGuards(KeyGuard)
export class CreateChatCompletionController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post()
  @HttpCode(200)
  async create(
    @Body() body: CreateChatCompletionRequestDto,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ClientCompletion | StreamableFile> {
    const result = await this.commandBus.execute(new CreateChatCompletionCommand(body, ctx));
    if (result.kind === 'completion') return result.body;
    // Frames are handed over as the upstream produces them (those of one event-loop turn in one write); a closed connection
    // destroys the stream, which ends the relay (and bills what was relayed). A StreamableFile goes
    // to Fastify as it is, where any other stream would be wrapped in Nest's `Readable.from`.
    void reply.header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-cache');
    return new StreamableFile(pullReadable(result.events, { highWaterMark: 1, coalesce: true }));
  }
}
