import { Module } from '@nestjs/common';
import { CreateSpeechController } from './create-speech/create-speech.controller';
import { CreateSpeechHandler } from './create-speech/create-speech.handler';
import { ListVoicesController } from './list-voices/list-voices.controller';
import { ListVoicesHandler } from './list-voices/list-voices.handler';

@Module({
  controllers: [CreateSpeechController, ListVoicesController],
  providers: [CreateSpeechHandler, ListVoicesHandler],
})
export class SpeechModule {}
