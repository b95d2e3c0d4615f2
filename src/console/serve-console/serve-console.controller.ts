// GET /console and its assets: the built single-page app (docs/console.md). No key here: the page asks
// for one and keeps it in the tab's sessionStorage; every figure it shows comes from the keyed API.
import { Controller, Get, Headers, Inject, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../common/api-error';
import { CONSOLE_INDEX, CONSOLE_SECURITY_HEADERS, ConsoleAssets } from '../console-assets';

export const CONSOLE_ASSETS = Symbol('CONSOLE_ASSETS');

@Controller('console')
export class ServeConsoleController {
  constructor(@Inject(CONSOLE_ASSETS) private readonly assets: ConsoleAssets) {}

  @Get()
  index(@Headers('if-none-match') ifNoneMatch: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Buffer | string {
    if (!this.assets.built) {
      reply.headers(CONSOLE_SECURITY_HEADERS);
      throw ApiError.notFound('console_not_built', 'The console is not built: run `npm run build` (it writes dist/console).');
    }
    return this.send(CONSOLE_INDEX, ifNoneMatch, reply);
  }

  @Get(':asset')
  asset(@Param('asset') name: string, @Headers('if-none-match') ifNoneMatch: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Buffer | string {
    return this.send(name, ifNoneMatch, reply);
  }

  private send(name: string, ifNoneMatch: string | undefined, reply: FastifyReply): Buffer | string {
    reply.headers(CONSOLE_SECURITY_HEADERS);
    const asset = this.assets.get(name);
    if (!asset) throw ApiError.notFound('console_asset_not_found', `The console has no file named ${JSON.stringify(name)}.`);
    reply.header('cache-control', asset.cacheControl).header('etag', asset.etag).header('content-type', asset.contentType);
    if (ifNoneMatch === asset.etag) {
      reply.code(304);
      return '';
    }
    return asset.body;
  }
}
