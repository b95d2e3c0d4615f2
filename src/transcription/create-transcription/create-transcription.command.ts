import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../common/request-context';
import type { TranscriptionReply } from '../transcription-reply';
import type { CreateTranscriptionRequestDto } from './create-transcription.request.dto';

export class CreateTranscriptionCommand extends Command<TranscriptionReply> {
  constructor(
    readonly ctx: RequestContext,
    readonly request: CreateTranscriptionRequestDto,
  ) {
    super();
  }
}
