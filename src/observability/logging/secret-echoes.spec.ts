import { MIN_FRAGMENT, secretForms, withoutSecrets } from './secret-echoes';

const SECRET = 'upstream-key-7f3a9c21e0b84d6fa5c3e1d2'; // 36 characters, like the issue's
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('withoutSecrets', () => {
  it('cuts a known secret out, and ignores an absent or trivially short one', () => {
    expect(withoutSecrets('bad key upstream-secret-9!', ['upstream-secret-9'])).toBe('bad key [redacted]!');
    expect(withoutSecrets('abc', [null, undefined, ''])).toBe('abc');
    expect(withoutSecrets('a b c', ['b'])).toBe('a b c');
    expect(withoutSecrets('key=abcd12 end', ['abcd12'])).toBe('key=[redacted] end');
  });

  it(`cuts any piece of at least ${MIN_FRAGMENT} characters, and leaves a shorter one`, () => {
    expect(withoutSecrets(`tail ${SECRET.slice(-MIN_FRAGMENT)} end`, [SECRET])).toBe('tail [redacted] end');
    expect(withoutSecrets(`head ${SECRET.slice(0, MIN_FRAGMENT)}`, [SECRET])).toBe('head [redacted]');
    expect(withoutSecrets(`mid ${SECRET.slice(5, 30)}.`, [SECRET])).toBe('mid [redacted].');
    const short = SECRET.slice(3, 3 + MIN_FRAGMENT - 1);
    expect(withoutSecrets(`x ${short} y`, [SECRET])).toBe(`x ${short} y`);
  });

  it('cuts every echo, whole or not, and keeps the text between them', () => {
    expect(withoutSecrets(`a ${SECRET} b ${SECRET.slice(10)} c`, [SECRET])).toBe('a [redacted] b [redacted] c');
  });

  it('cuts hex echoes in either case', () => {
    const hex = Buffer.from(SECRET).toString('hex');
    expect(withoutSecrets(`h=${hex};`, [SECRET])).toBe('h=[redacted];');
    expect(withoutSecrets(`H=${hex.toUpperCase().slice(6, 40)};`, [SECRET])).toBe('H=[redacted];');
  });

  it.each([0, 1, 2])('cuts base64 and base64url echoes with %i bytes before the secret', (pad) => {
    const prefix = 'Bearer '.slice(0, 4 + pad); // 4, 5 or 6 bytes: every alignment
    const encoded = b64(`${prefix}${SECRET}`);
    const cut = withoutSecrets(`echo ${encoded} end`, [SECRET]);
    expect(cut).toMatch(/^echo .{0,12}\[redacted\].{0,4} end$/);
    const url = encoded.replace(/\+/g, '-').replace(/\//g, '_');
    expect(withoutSecrets(url, [SECRET])).toContain('[redacted]');
  });

  it('recognizes a secret with characters that base64 encodes to + and /', () => {
    const secret = '\u00fb\u00ff\u00be-upstream~~~?>>>key';
    const encoded = b64(secret);
    expect(encoded).toMatch(/[+/]/);
    expect(withoutSecrets(encoded, [secret])).toMatch(/^.{0,4}\[redacted\].{0,4}$/);
  });

  it('leaves a text without the secret untouched', () => {
    const text = 'The model failed: internal server error while loading weights (see logs).';
    expect(withoutSecrets(text, [SECRET])).toBe(text);
  });
});

describe('secretForms', () => {
  it('lists the secret, its hex and its base64/base64url stable cores at the three alignments', () => {
    const forms = secretForms('abcdefghijkl');
    expect(forms.slice(0, 3)).toEqual(['abcdefghijkl', '6162636465666768696a6b6c', '6162636465666768696A6B6C']);
    expect(forms).toContain(b64('abcdefghijkl'));
    for (const pad of ['x', 'xy']) {
      const whole = b64(`${pad}abcdefghijkl`);
      expect(forms.some((form) => form.length >= 12 && whole.includes(form))).toBe(true);
    }
  });
});
