// Key names are shown in terminals (`npm run keys -- list`) and consoles: a name must not carry a
// character that moves the cursor, ends a line or reorders what follows (U+202E shows `exe.txt` as
// `txt.exe`). New names are refused with them; names stored before are escaped when printed.

/** C0 controls, DEL, C1 controls, line/paragraph separators and the bidirectional controls. */
export const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNPRINTABLE_ALL = new RegExp(UNPRINTABLE.source, 'g');

export const PRINTABLE_NAME_RULE =
  'must be printable: no control characters (U+0000-U+001F, U+007F-U+009F), line separators (U+2028, U+2029) or bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069)';

export function isPrintableName(value: unknown): boolean {
  return typeof value === 'string' && !UNPRINTABLE.test(value);
}

/** The text with every such character written as `\uXXXX`: valid inside a JSON string, inert on a terminal. */
export function escapeUnprintable(text: string): string {
  return text.replace(UNPRINTABLE_ALL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
