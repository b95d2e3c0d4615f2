// Languages the chorus models speak. Clients send ISO-639-1 codes (as transcription does); the
// upstream (vLLM-Omni / Qwen3-TTS) expects the language's English name, so the gateway maps them.
import { ApiError } from '../../common/api-error';

/**
 * A Map, not an object literal: a lookup keyed by what a client sent must not find the members
 * every object inherits (`constructor`, `__proto__`), which took a request for language
 * "constructor" to the upstream and billed it.
 */
export const SPEECH_LANGUAGES: ReadonlyMap<string, string> = new Map([
  ['zh', 'Chinese'],
  ['en', 'English'],
  ['ja', 'Japanese'],
  ['ko', 'Korean'],
  ['de', 'German'],
  ['fr', 'French'],
  ['ru', 'Russian'],
  ['pt', 'Portuguese'],
  ['es', 'Spanish'],
  ['it', 'Italian'],
]);

/** The upstream's name for a client's language code; unknown codes (and language names) are 400. */
export function upstreamLanguage(code: string): string {
  const name = SPEECH_LANGUAGES.get(code.trim().toLowerCase());
  if (!name) {
    const codes = [...SPEECH_LANGUAGES.keys()].join(', ');
    throw ApiError.badRequest('unsupported_language', `Unknown language code '${code}'. Use one of: ${codes}.`, 'language');
  }
  return name;
}
