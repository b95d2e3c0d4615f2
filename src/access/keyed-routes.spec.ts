import { Controller, Get, Post, UseGuards } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ModulesContainer } from '@nestjs/core';
import { KeyGuard } from './key.guard';
import { keyedRoutes, routePath } from './keyed-routes';

@Controller('v1/things')
@UseGuards(KeyGuard)
class KeyedController {
  @Post(':path')
  create(): void {}

  @Get()
  list(): void {}
}

@Controller()
class OpenController {
  @Get('healthz')
  health(): void {}

  @Post('v1/open')
  @UseGuards(KeyGuard)
  keyedHandler(): void {}
}

describe('keyed routes', () => {
  it('joins controller and handler paths as Fastify names them', () => {
    expect([routePath('v1/images', ':path'), routePath('v1/chat/completions', ''), routePath('', 'healthz'), routePath('/', '/')]).toEqual([
      '/v1/images/:path',
      '/v1/chat/completions',
      '/healthz',
      '/',
    ]);
  });

  it('lists every route guarded by the key guard, on its controller or its handler, and no other', async () => {
    const module = await Test.createTestingModule({ controllers: [KeyedController, OpenController] })
      .overrideGuard(KeyGuard)
      .useValue({ canActivate: () => true })
      .compile();
    expect([...keyedRoutes(module.get(ModulesContainer))].sort()).toEqual(['GET /v1/things', 'POST /v1/open', 'POST /v1/things/:path']);
  });
});
