// The cost console's server side: its built files, loaded once at start-up (GATEWAY_CONSOLE_DIR
// overrides where from; default dist/console of this checkout).
import { Module } from '@nestjs/common';
import { ConsoleAssets, defaultConsoleDir } from './console-assets';
import { CONSOLE_ASSETS, ServeConsoleController } from './serve-console/serve-console.controller';

@Module({
  controllers: [ServeConsoleController],
  providers: [{ provide: CONSOLE_ASSETS, useFactory: () => ConsoleAssets.load(process.env.GATEWAY_CONSOLE_DIR || defaultConsoleDir()) }],
})
export class ConsoleModule {}
