import { Module } from '@nestjs/common';
import { CreateChatCompletionController } from './create-chat-completion/create-chat-completion.controller';
import { CreateChatCompletionHandler } from './create-chat-completion/create-chat-completion.handler';

@Module({ controllers: [CreateChatCompletionController], providers: [CreateChatCompletionHandler] })
export class ChatModule {}
