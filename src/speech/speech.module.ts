import { Module } from '@nestjs/common';
import { ListVoicesController } from './list-voices/list-voices.controller';
import { ListVoicesHandler } from './list-voices/list-voices.handler';

@Module({ controllers: [ListVoicesController], providers: [ListVoicesHandler] })
export class SpeechModule {}
