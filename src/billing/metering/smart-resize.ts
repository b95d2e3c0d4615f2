// Qwen2-VL "smart resize": how a vision model rescales an image before cutting it into patches.
// It mirrors qwen-vl-utils' smart_resize step for step, including its floating-point square
// roots, so the gateway's token count matches the model's for the same picture.
import type { VisualPlaceholder } from '../../catalog/catalog.types';

/** qwen-vl-utils caps an image at 16384 patches when no maximum is configured. */
export const DEFAULT_MAX_PATCHES = 16384;

export interface ResizedImage {
  height: number;
  width: number;
}

export function smartResize(height: number, width: number, placeholder: VisualPlaceholder): ResizedImage {
  const { factor, image_min_pixels: minPixels } = placeholder;
  const maxPixels = placeholder.image_max_pixels ?? DEFAULT_MAX_PATCHES * factor * factor;
  const rounded = {
    height: Math.max(factor, roundHalfEvenToMultiple(height, factor)),
    width: Math.max(factor, roundHalfEvenToMultiple(width, factor)),
  };
  const pixels = rounded.height * rounded.width;
  if (pixels > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    return {
      height: Math.max(factor, Math.floor(height / beta / factor) * factor),
      width: Math.max(factor, Math.floor(width / beta / factor) * factor),
    };
  }
  if (pixels < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width));
    return {
      height: Math.ceil((height * beta) / factor) * factor,
      width: Math.ceil((width * beta) / factor) * factor,
    };
  }
  return rounded;
}

/** One token per factor x factor patch of the resized image (the 2x2 merge is inside `factor`). */
export function visualTokens(height: number, width: number, placeholder: VisualPlaceholder): number {
  const resized = smartResize(height, width, placeholder);
  return (resized.height / placeholder.factor) * (resized.width / placeholder.factor);
}

/** Python's round(): halves go to the even neighbour (round(2.5) == 2), computed on integers. */
function roundHalfEvenToMultiple(value: number, factor: number): number {
  const quotient = Math.floor(value / factor);
  const twiceRemainder = 2 * (value - quotient * factor);
  const roundsUp = twiceRemainder > factor || (twiceRemainder === factor && quotient % 2 === 1);
  return (roundsUp ? quotient + 1 : quotient) * factor;
}
