// deploy/kurrentdb-certs.sh (openssl) makes the CA and node certificate that compose and the k8s Secret use:
// a client that trusts only ca.crt completes a TLS handshake with a server holding the node certificate
// under the names the gateways dial (kurrentdb, localhost, 127.0.0.1 and the extra names given).
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer } from 'node:tls';

const SCRIPT = join(__dirname, '..', '..', 'deploy', 'kurrentdb-certs.sh');
const hasOpenssl = spawnSync('sh', ['-c', 'command -v openssl']).status === 0;
if (!hasOpenssl) console.warn('kurrentdb-certs test skipped: openssl is not installed');

(hasOpenssl ? describe : describe.skip)('deploy/kurrentdb-certs.sh', () => {
  let dir: string;
  let files: Record<'ca' | 'caKey' | 'cert' | 'key', string>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kurrentdb-certs-'));
    const run = spawnSync('bash', [SCRIPT, dir, 'kurrentdb.gateway.svc'], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`kurrentdb-certs.sh failed: ${run.stderr}`);
    files = { ca: join(dir, 'ca', 'ca.crt'), caKey: join(dir, 'ca', 'ca.key'), cert: join(dir, 'node', 'node.crt'), key: join(dir, 'node', 'node.key') };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('signs the node certificate with the CA, for server and client use, under every name the gateways use', () => {
    const ca = new X509Certificate(readFileSync(files.ca));
    const node = new X509Certificate(readFileSync(files.cert));
    expect(ca.ca).toBe(true);
    expect(node.verify(ca.publicKey)).toBe(true);
    for (const host of ['kurrentdb', 'localhost', 'kurrentdb.gateway.svc']) expect(node.checkHost(host)).toBe(host);
    expect(node.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(node.checkHost('kurrentdb.elsewhere')).toBeUndefined();
    expect(node.keyUsage).toEqual(expect.arrayContaining(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']));
  });

  it('keeps the CA key private and leaves what the containers read readable', () => {
    expect(statSync(files.caKey).mode & 0o777).toBe(0o600);
    for (const file of [files.ca, files.cert, files.key]) expect(statSync(file).mode & 0o444).toBe(0o444);
  });

  it('completes a TLS handshake for a client that trusts only ca.crt and dials kurrentdb', async () => {
    const server = createServer({ cert: readFileSync(files.cert), key: readFileSync(files.key) }, (socket) => socket.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = connect({ host: '127.0.0.1', port, servername: 'kurrentdb', ca: readFileSync(files.ca) }, () => {
          if (!socket.authorized) reject(socket.authorizationError);
        });
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(reply).toBe('ok');
    } finally {
      server.close();
    }
  });

  it('keeps existing certificates on a second run', () => {
    const before = readFileSync(files.cert, 'utf8');
    const run = spawnSync('bash', [SCRIPT, dir], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('exists, keeping it');
    expect(readFileSync(files.cert, 'utf8')).toBe(before);
  });
});
