import { upstreamLanguage } from './speech-languages';

describe('speech language codes', () => {
  it('maps each documented code (any case, padded) to the name the upstream expects', () => {
    expect(upstreamLanguage('de')).toBe('German');
    expect(upstreamLanguage(' ZH ')).toBe('Chinese');
  });

  // Names every JavaScript object inherits: a plain-object lookup found them and sent them upstream.
  it.each(['constructor', '__proto__', 'toString', 'tostring', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'])(
    'refuses %s as an unknown language (400 unsupported_language)',
    (code) => {
      expect(() => upstreamLanguage(code)).toThrow(expect.objectContaining({ status: 400, code: 'unsupported_language', param: 'language' }));
    },
  );
});
