// One measurement shape for streamed and non-streamed answers, so both take the same metering and
// pricing path: the upstream's token report (when it sent one), the media the gateway measured on
// the way in, the audio it measured on the way out and the tool work it counted.
import type { MeasuredAudio, Measurement, ReportedUsage } from '../../billing/metering/measurement';
import type { InputMediaMeasures } from '../chat.types';
import type { ChatReportLimits } from './report-limits';
import type { ToolTally } from './tool-usage';
import { copyWith } from '../../common/copy-with';

export interface ChatObservation {
  report: ReportedUsage | undefined;
  media: InputMediaMeasures;
  outputAudio: MeasuredAudio[];
  tools: ToolTally;
  /**
   * The gateway's own counts: billed when the upstream reported nothing (see docs/chat.md), and the
   * inputs of the plausibility bounds otherwise.
   */
  fallback?: { promptTokens: number; completionTokens: number };
  limits?: ChatReportLimits;
  /** The gateway's own count of the completion for the bounds, when it differs from the fallback. */
  relayedTokens?: number;
}

export function chatMeasurement(observation: ChatObservation): Measurement {
  const { report, media, outputAudio, tools, fallback, limits, relayedTokens } = observation;
  return {
    reported: report,
    limits: limits && copyWith(limits, { completionCounted: relayedTokens ?? fallback?.completionTokens }),
    input: {
      // Metering reads these only for a field the upstream did not report.
      textTokens: fallback?.promptTokens,
      audio: media.audio,
      images: media.images,
      videos: media.videos,
    },
    output: {
      textTokens: fallback?.completionTokens,
      audio: outputAudio,
      toolCalls: tools.toolCalls,
      webSearchCalls: tools.webSearchCalls,
    },
  };
}

export const noInputMedia = (): InputMediaMeasures => ({ audio: [], images: [], videos: [] });
