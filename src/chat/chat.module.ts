import { Module } from '@nestjs/common';
import { CatalogService } from '../catalog/catalog.service';
import { ModerationClient } from '../moderation/moderation.client';
import { CreateChatCompletionController } from './create-chat-completion/create-chat-completion.controller';
import { CreateChatCompletionHandler } from './create-chat-completion/create-chat-completion.handler';

@Module({
  controllers: [CreateChatCompletionController],
  providers: [
    CreateChatCompletionHandler,
    { provide: ModerationClient, useFactory: (catalog: CatalogService) => new ModerationClient(catalog.services.moderation ?? null), inject: [CatalogService] },
  ],
})
export class ChatModule {}
