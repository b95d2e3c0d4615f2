// Speech input has no length cap, but a speech upstream takes a bounded text per request
// (`upstream.max_input_characters`). Longer input is cut into segments at sentence ends where
// possible, else at a space, else at the limit; the segments joined give back the input exactly.
const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });

/** Every segment has at most `maxCharacters` code points; no limit (or a short input) is one segment. */
export function inputSegments(input: string, maxCharacters: number | null | undefined): string[] {
  const points = [...input];
  if (!maxCharacters || points.length <= maxCharacters) return [input];
  const segments: string[] = [];
  let start = 0;
  while (points.length - start > maxCharacters) {
    // One character past the limit shows whether a sentence ends exactly at the limit.
    const window = points.slice(start, start + maxCharacters + 1).join('');
    const length = cutLength(window, maxCharacters);
    segments.push(points.slice(start, start + length).join(''));
    start += length;
  }
  segments.push(points.slice(start).join(''));
  return segments;
}

/**
 * Code points of `window` to take (at most `maxCharacters`): up to its last complete sentence,
 * else through its last whitespace, else all. The segmenter only ever sees one window, because it
 * copies its whole input for every segment it yields.
 */
function cutLength(window: string, maxCharacters: number): number {
  let sentenceEnd = 0;
  for (const { index } of sentences.segment(window)) {
    const position = [...window.slice(0, index)].length;
    if (position <= maxCharacters) sentenceEnd = position;
  }
  if (sentenceEnd > 0) return sentenceEnd;
  const head = [...window].slice(0, maxCharacters).join('');
  const lastSpace = head.search(/\s\S*$/u);
  return lastSpace > 0 ? [...head.slice(0, lastSpace + 1)].length : maxCharacters;
}
