import { classifyImageUrl } from './image-url';
import { ApiError } from '../../common/api-error';

const refusal = (url: string) => {
  try {
    classifyImageUrl(url, 'p');
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code, param: error.param };
    throw error;
  }
  throw new Error(`accepted ${url}`);
};

describe('classifyImageUrl', () => {
  it.each([
    ['https://images.example.com/cat.jpg', 'https://images.example.com/cat.jpg'],
    ['https://93.184.216.34/cat.jpg', 'https://93.184.216.34/cat.jpg'],
    ['https://[2606:4700::1111]/cat.jpg', 'https://[2606:4700::1111]/cat.jpg'],
    ['https://[64:ff9b::5db8:d822]/cat.jpg', 'https://[64:ff9b::5db8:d822]/cat.jpg'], // NAT64 of 93.184.216.34
    ['https://[2002:5db8:d822::1]/cat.jpg', 'https://[2002:5db8:d822::1]/cat.jpg'], // 6to4 of 93.184.216.34
    ['https://[::ffff:93.184.216.34]/cat.jpg', 'https://[::ffff:5db8:d822]/cat.jpg'],
    ['https://cdn-1-2-3-4.example.com/a.png', 'https://cdn-1-2-3-4.example.com/a.png'],
    ['https://v1.2.3.example.com/a.png', 'https://v1.2.3.example.com/a.png'],
    ['https://example.com./cat.jpg', 'https://example.com./cat.jpg'],
    ['HTTPS://Images.Example.COM:443/a%20b.png?x=1#f', 'https://images.example.com/a%20b.png?x=1#f'],
    ['https://bücher.example/a.png', 'https://xn--bcher-kva.example/a.png'],
    ['https://example.com/a.png?next=@evil', 'https://example.com/a.png?next=@evil'],
  ])('accepts %s and forwards it as %s', (url, normalized) => {
    expect(classifyImageUrl(url, 'p')).toEqual({ kind: 'https', url: normalized });
  });

  it('keeps a data: URL as sent', () => {
    expect(classifyImageUrl('DATA:image/png;base64,AAAA', 'p')).toEqual({ kind: 'data', url: 'DATA:image/png;base64,AAAA' });
  });

  it.each([
    // schemes, user info and text another parser reads differently
    'http://images.example.com/cat.jpg',
    'ftp://example.com/cat.jpg',
    'https://user:secret@example.com/cat.jpg',
    'https://@example.com/cat.jpg',
    'https://example.com\\@127.0.0.1/x',
    'https://example.com\\x',
    'https://example.com/a b.png',
    'https://example.com/a\tb.png',
    ' https://example.com/a.png',
    'https://example.com/a.png\n',
    'https://example.com/\u0000.png',
    'https://example.com/\u007f.png',
    'https://example.com/\u0085.png',
    'https://example.com/\u00a0.png',
    'https://example.com/\u3000.png',
    'not a url',
    // local and metadata names, trailing dots
    'https://localhost/cat.jpg',
    'https://localhost./x',
    'https://LOCALHOST/x',
    'https://localhost\u3002/x',
    'https://metadata.google.internal\u3002/x',
    'https://%6c%6fcalhost/x',
    'https://127\u30020.0.1/x',
    'https://a.localhost/x',
    'https://printer.local/cat.jpg',
    'https://intranet/cat.jpg',
    'https://metadata/x',
    'https://metadata.google.internal./x',
    'https://metadata.google.internal/x',
    'https://db.internal/x',
    'https://kubernetes.default.svc/x',
    'https://kubernetes.default.svc.cluster.local/x',
    'https://router.lan/x',
    'https://1.0.0.127.in-addr.arpa/x',
    'https://host.home.arpa/x',
    // wildcard DNS that spells an address
    'https://169.254.169.254.nip.io/x',
    'https://93.184.216.34.nip.io/x',
    'https://app-10-0-0-1.sslip.io/x',
    'https://7f000001.nip.io/x',
    'https://127.0.0.1.xip.io/x',
    'https://x.localtest.me/x',
    'https://127.0.0.1.attacker.example/x',
    'https://app-192-168-1-1.attacker.example/x',
    'https://1.2.10.0.0.1.attacker.example/x',
    // IPv4 literals, every spelling WHATWG normalizes
    'https://127.0.0.1/cat.jpg',
    'https://2130706433/x',
    'https://0x7f.1/x',
    'https://0177.0.0.1/x',
    'https://０x7f.0.0.1/x',
    'https://0.0.0.0/x',
    'https://10.1.2.3/cat.jpg',
    'https://100.64.0.1/x',
    'https://172.20.0.1/cat.jpg',
    'https://192.168.1.1/cat.jpg',
    'https://169.254.169.254/latest/meta-data',
    'https://198.18.0.1/x',
    'https://198.19.255.255/x',
    'https://224.0.0.1/x',
    'https://239.255.255.250/x',
    'https://240.0.0.1/x',
    'https://255.255.255.255/x',
    'https://192.0.2.1/x',
    // IPv6 literals
    'https://[::]/x',
    'https://[::1]/cat.jpg',
    'https://[::127.0.0.1]/x',
    'https://[::ffff:127.0.0.1]/cat.jpg',
    'https://[::ffff:0:127.0.0.1]/x',
    'https://[::ffff:169.254.169.254]/x',
    'https://[64:ff9b::127.0.0.1]/x',
    'https://[64:ff9b::a9fe:a9fe]/x',
    'https://[64:ff9b:1::5db8:d822]/x',
    'https://[2002:7f00:1::]/x',
    'https://[2002:a9fe:a9fe::1]/x',
    'https://[2002:c0a8:101::1]/x',
    'https://[2001::1]/x',
    'https://[2001:db8::1]/x',
    'https://[fec0::1]/x',
    'https://[feff::1]/x',
    'https://[fe80::1]/x',
    'https://[fd00::1]/cat.jpg',
    'https://[fc00::1]/x',
    'https://[ff02::1]/x',
    'https://[100::1]/x',
  ])('refuses %s with a 400', (url) => {
    expect(refusal(url)).toEqual({ status: 400, code: 'invalid_image_url', param: 'p' });
  });
});
