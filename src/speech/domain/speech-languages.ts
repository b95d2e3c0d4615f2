// Languages the chorus models speak. Clients send ISO-639-1 codes (as transcription does); the
// upstream (vLLM-Omni / Qwen3-TTS) expects the language's English name, so the gateway maps them.
import { ApiError } from '../../common/api-error';

export const SPEECH_LANGUAGES: Readonly<Record<string, string>> = {
  zh: 'Chinese',
  en: 'English',
  ja: 'Japanese',
  ko: 'Korean',
  de: 'German',
  fr: 'French',
  ru: 'Russian',
  pt: 'Portuguese',
  es: 'Spanish',
  it: 'Italian',
};

/** The upstream's name for a client's language code; unknown codes (and language names) are 400. */
export function upstreamLanguage(code: string): string {
  const name = SPEECH_LANGUAGES[code.trim().toLowerCase()];
  if (!name) {
    const codes = Object.keys(SPEECH_LANGUAGES).join(', ');
    throw ApiError.badRequest('unsupported_language', `Unknown language code '${code}'. Use one of: ${codes}.`, 'language');
  }
  return name;
}
