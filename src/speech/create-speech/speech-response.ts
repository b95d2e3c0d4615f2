import type { Readable } from 'node:stream';

/** What the controller sends: the whole audio file, or a stream that bills itself as it ends. */
export interface SpeechResponse {
  contentType: string;
  body: Buffer | Readable;
}
