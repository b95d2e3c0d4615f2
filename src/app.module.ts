// The application: the core (shared parts) plus one module per capability.
import { DynamicModule, Module } from '@nestjs/common';
import { ChatModule } from './chat/chat.module';
import { CoreModule } from './core/core.module';
import { DecisionsModule } from './decisions/decisions.module';
import type { GatewayRuntime } from './core/gateway-runtime';
import { HealthModule } from './health/health.module';
import { CostsModule } from './costs/costs.module';
import { ConsoleModule } from './console/console.module';
import { ImagesModule } from './images/images.module';
import { KeysModule } from './keys/keys.module';
import { ModelsModule } from './models/models.module';
import { OpenApiModule } from './openapi/openapi.module';
import { RetiredModule } from './retired/retired.module';
import { SpeechModule } from './speech/speech.module';
import { TranscriptionModule } from './transcription/transcription.module';
import { MarginsModule } from './routing/margins/margins.module';

@Module({})
export class AppModule {
  static forRoot(runtime: GatewayRuntime): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule.forRoot(runtime), HealthModule, CostsModule, ModelsModule, RetiredModule, DecisionsModule, ImagesModule, SpeechModule, TranscriptionModule, ChatModule, ConsoleModule, KeysModule, MarginsModule, OpenApiModule],
    };
  }
}
