// Downscaling to a bounding box keeps the aspect ratio and never upscales. Video encoders with
// 4:2:0 chroma need even dimensions, so video sizes round down to even.

export interface Size {
  width: number;
  height: number;
}

export function fitWithin(source: Size, maxWidth: number | null | undefined, maxHeight: number | null | undefined, even = false): Size {
  const widthLimit = maxWidth ?? Infinity;
  const heightLimit = maxHeight ?? Infinity;
  let fitted = source;
  if (source.width > widthLimit || source.height > heightLimit) {
    // Compare ratios by cross-multiplying so the binding side is chosen exactly.
    const widthBinds = widthLimit * source.height <= heightLimit * source.width;
    fitted = widthBinds
      ? { width: widthLimit, height: Math.max(1, Math.round((source.height * widthLimit) / source.width)) }
      : { width: Math.max(1, Math.round((source.width * heightLimit) / source.height)), height: heightLimit };
  }
  return even ? { width: roundDownToEven(fitted.width), height: roundDownToEven(fitted.height) } : fitted;
}

const roundDownToEven = (value: number): number => Math.max(2, value - (value % 2));
