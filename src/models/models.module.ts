import { Module } from '@nestjs/common';
import { ListModelsController } from './list-models/list-models.controller';
import { ListModelsHandler } from './list-models/list-models.handler';

@Module({ controllers: [ListModelsController], providers: [ListModelsHandler] })
export class ModelsModule {}
