import { Module } from '@nestjs/common';
import { RelayImageController } from './relay-image/relay-image.controller';
import { RelayImageHandler } from './relay-image/relay-image.handler';

@Module({ controllers: [RelayImageController], providers: [RelayImageHandler] })
export class ImagesModule {}
