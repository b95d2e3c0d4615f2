// One measurement shape for streamed and non-streamed answers, so both take the same metering and
// pricing path: the upstream's token report (when it sent one), the media the gateway measured on
// the way in, the audio it measured on the way out and the tool work it counted.
import type { MeasuredAudio, Measurement, UpstreamReport } from '../../billing/metering/measurement';
import type { InputMediaMeasures } from '../chat.types';
import type { ToolTally } from './tool-usage';

export interface ChatObservation {
  report: UpstreamReport | undefined;
  media: InputMediaMeasures;
  outputAudio: MeasuredAudio[];
  tools: ToolTally;
  /** The gateway's own counts, used only when the upstream reported nothing (see docs/chat.md). */
  fallback?: { promptTokens: number; completionTokens: number };
}

export function chatMeasurement(observation: ChatObservation): Measurement {
  const { report, media, outputAudio, tools, fallback } = observation;
  return {
    upstream: report,
    input: {
      textTokens: report ? undefined : fallback?.promptTokens,
      audio: media.audio,
      images: media.images,
      videos: media.videos,
    },
    output: {
      textTokens: report ? undefined : fallback?.completionTokens,
      audio: outputAudio,
      toolCalls: tools.toolCalls,
      webSearchCalls: tools.webSearchCalls,
    },
  };
}

export const noInputMedia = (): InputMediaMeasures => ({ audio: [], images: [], videos: [] });
