import { Module } from '@nestjs/common';
import { SystemOneController } from './systemone.controller';

@Module({ controllers: [SystemOneController] })
export class RetiredModule {}
