// The knobs of `npm run bench:soak`, each overridable by the environment variable named next to it.
import { numberFrom } from '../settings';

export const SOAK_SETTINGS = {
  /** Offered rate, requests per second, all kinds together (BENCH_SOAK_RATE). */
  rate: numberFrom('BENCH_SOAK_RATE', 300),
  /** Length of the soak (BENCH_SOAK_S). */
  durationS: numberFrom('BENCH_SOAK_S', 180),
  /** Length of each measured window (BENCH_SOAK_WINDOW_S). */
  windowS: numberFrom('BENCH_SOAK_WINDOW_S', 5),
  /** Keep-alive connections of the sender; enough that the open loop never waits for one (BENCH_SOAK_CONNECTIONS). */
  connections: numberFrom('BENCH_SOAK_CONNECTIONS', 256),
  /** Share of speech requests (BENCH_SOAK_SPEECH). */
  speechShare: numberFrom('BENCH_SOAK_SPEECH', 0.16),
  /** Share of transcription uploads (BENCH_SOAK_TRANSCRIPTION). */
  transcriptionShare: numberFrom('BENCH_SOAK_TRANSCRIPTION', 0.01),
};
