// A reference for what the customer's fixed stack costs before any of the gateway's own work: no key,
// rate limit, metering, pricing, durable write or projection. NestJS on Fastify takes the JSON chat
// request, the controller sends it on with undici, parses the upstream's JSON and returns it for Nest
// to serialise. NEST_RELAY_MODE picks how much of the gateway's request path runs in front of that:
// - `plain`: nothing (Nest, Fastify and the JSON round trip alone);
// - `stack` (default): the gateway's own validation pipe on its chat request DTO, with class-validator's
//   rules memoized as the gateway does, and the command through the CQRS CommandBus;
// - `stock`: the same DTO and CommandBus with Nest's stock ValidationPipe instead.
// A streamed request (`stream: true`) gets the upstream's event stream piped back as it comes.
import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Post, Res, ValidationPipe, type PipeTransform } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CommandHandler, CqrsModule, type ICommandHandler } from '@nestjs/cqrs';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { Agent } from 'undici';
import { CreateChatCompletionRequestDto } from '../../src/chat/create-chat-completion/create-chat-completion.request.dto';
import { ApiExceptionFilter } from '../../src/common/exception.filter';
import { createGatewayLogger } from '../../src/observability/logging/gateway-logger';
import pino from 'pino';
import { ApiValidationPipe } from '../../src/common/validation.pipe';
import { memoizeValidationMetadata } from '../../src/common/validation-metadata-cache';

const mode = process.env.NEST_RELAY_MODE ?? 'stack';
const upstreamUrl = new URL(process.env.UPSTREAM_URL!);
const agent = new Agent({ keepAliveTimeout: 30_000, connections: 256, pipelining: 1 });

async function relay(body: CreateChatCompletionRequestDto): Promise<unknown> {
  const response = await agent.request({
    origin: upstreamUrl.origin,
    path: '/v1/chat/completions',
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
    body: JSON.stringify(body),
  });
  return body.stream ? response.body : JSON.parse(await response.body.text());
}

class RelayChatCommand {
  constructor(readonly body: CreateChatCompletionRequestDto) {}
}

@CommandHandler(RelayChatCommand)
class RelayChatHandler implements ICommandHandler<RelayChatCommand> {
  execute({ body }: RelayChatCommand): Promise<unknown> {
    return relay(body);
  }
}

@Controller('v1/chat/completions')
class RelayController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post()
  @HttpCode(200)
  create(@Body() body: CreateChatCompletionRequestDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    if (body.stream) void reply.header('content-type', 'text/event-stream');
    return mode === 'plain' ? relay(body) : this.commandBus.execute(new RelayChatCommand(body));
  }
}

@Module({ imports: [CqrsModule], controllers: [RelayController], providers: [RelayChatHandler] })
class RelayModule {}

function pipeFor(relayMode: string): PipeTransform | null {
  if (relayMode === 'plain') return null;
  if (relayMode === 'stock') return new ValidationPipe({ transform: true });
  if (relayMode !== 'stack') throw new Error(`NEST_RELAY_MODE must be plain, stack or stock, not ${relayMode}`);
  memoizeValidationMetadata();
  return new ApiValidationPipe();
}

async function main(): Promise<void> {
  const pipe = pipeFor(mode);
  const app = await NestFactory.create<NestFastifyApplication>(RelayModule, new FastifyAdapter({ logger: false }), { logger: ['error', 'warn'] });
  // The gateway's filter writes its pipe's refusals in the spec's envelope; it runs only on errors.
  app.useGlobalFilters(new ApiExceptionFilter(createGatewayLogger('warn', pino.destination({ fd: 2, sync: true })).child({ context: 'errors' })));
  if (pipe) app.useGlobalPipes(pipe);
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  process.stdout.write(`nest relay (${mode}) listening on ${await app.getUrl()}\n`);
}

void main();
process.once('SIGTERM', () => process.exit(0));
