import { Inject, Module, OnModuleDestroy } from '@nestjs/common';
import { CatalogService } from '../catalog/catalog.service';
import { CreateTranscriptionController } from './create-transcription/create-transcription.controller';
import { CreateTranscriptionHandler } from './create-transcription/create-transcription.handler';
import { DiarizationClient } from './diarization/diarization.client';

@Module({
  controllers: [CreateTranscriptionController],
  providers: [
    CreateTranscriptionHandler,
    {
      provide: DiarizationClient,
      useFactory: (catalog: CatalogService) => new DiarizationClient(catalog.services.diarization ?? null),
      inject: [CatalogService],
    },
  ],
})
export class TranscriptionModule implements OnModuleDestroy {
  constructor(@Inject(DiarizationClient) private readonly diarizer: DiarizationClient) {}

  /** Closes the diarizer's keep-alive connections so shutdown does not wait on them. */
  onModuleDestroy(): Promise<void> {
    return this.diarizer.close();
  }
}
