// Audio reaches a model as placeholder tokens whose count follows from the clip's duration; the
// gateway derives the same count so audio is priced without trusting the upstream's report.
import type { AudioPlaceholder } from '../../catalog/catalog.types';
import { BigDecimal } from '../../common/big-decimal';

/**
 * Tokens one clip occupies: `per_clip + ceil(tokens_per_second x seconds x channels)`.
 * `channels` is 1 except for output audio of a model whose `output_defaults.channels` says more.
 * The product is exact (decimal), so 0.04 s at 25 tokens/s is exactly 1 token, not 2.
 */
export function audioClipTokens(placeholder: AudioPlaceholder, durationSeconds: string, channels = 1): number {
  const streamTokens = BigDecimal.ofNumber(placeholder.tokens_per_second)
    .times(BigDecimal.parseScientific(durationSeconds))
    .times(BigDecimal.ofNumber(channels))
    .ceil();
  return placeholder.per_clip + Number(streamTokens);
}
