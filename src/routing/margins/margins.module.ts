// GET /v1/margins (docs/routing.md "Margins"), behind the management API's guard.
import { Module } from '@nestjs/common';
import { KeysModule } from '../../keys/keys.module';
import { MarginsController } from './margins.controller';

@Module({ imports: [KeysModule], controllers: [MarginsController] })
export class MarginsModule {}
