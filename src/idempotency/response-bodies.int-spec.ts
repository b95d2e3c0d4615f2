// Kept bodies on a real data directory: the SQLite database (owner-only, shared by replicas on one
// directory), the sweep at the retention's edge, and the files earlier versions kept (read and swept).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RESPONSE_BODIES_FILE_NAME, ResponseBodies } from './response-bodies';
import { LEGACY_BODIES_DIR } from './legacy-body-files';

const STREAM = 'idempotency-org-1-0f0e';
const RETENTION_MS = 60_000;

/** A body as earlier versions wrote it: JSON of base64 chunks, named by the stream's hash and the request. */
function writeLegacyFile(dataDir: string, streamId: string, requestId: string, chunks: Buffer[], writtenAt: Date): string {
  const dir = join(dataDir, LEGACY_BODIES_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${createHash('sha256').update(streamId).digest('hex')}-${requestId}.json`);
  writeFileSync(file, JSON.stringify(chunks.map((chunk) => chunk.toString('base64'))), { mode: 0o600 });
  utimesSync(file, writtenAt, writtenAt);
  return file;
}

describe('ResponseBodies', () => {
  let dataDir: string;
  const opened: ResponseBodies[] = [];
  const open = () => {
    const bodies = new ResponseBodies(dataDir);
    opened.push(bodies);
    return bodies;
  };
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'gw-bodies-'))));
  afterEach(() => {
    for (const bodies of opened.splice(0)) bodies.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('replays the chunks kept, in order, and null for an answer it does not hold', async () => {
    const bodies = open();
    const chunks = [Buffer.from('data: {"id":"c1"}\n\n'), Buffer.from('data: [DONE]\n\n')];
    await bodies.keep(STREAM, 'req_1', chunks);
    expect(await bodies.read(STREAM, 'req_1')).toEqual(chunks);
    expect(await bodies.read(STREAM, 'req_2')).toBeNull();
    expect(await bodies.read('idempotency-org-2-0f0e', 'req_1')).toBeNull();
  });

  it('keeps the database and its -wal and -shm files readable by the owner only', async () => {
    const previous = process.umask(0o022);
    try {
      const bodies = open();
      await bodies.keep(STREAM, 'req_secret', [Buffer.from('{"key":"sk-gw-secret"}')]);
      const file = join(dataDir, RESPONSE_BODIES_FILE_NAME);
      for (const path of [file, `${file}-wal`, `${file}-shm`]) {
        expect(existsSync(path)).toBe(true);
        expect({ path, mode: statSync(path).mode & 0o777 }).toEqual({ path, mode: 0o600 });
      }
    } finally {
      process.umask(previous);
    }
  });

  it('is shared by replicas on one data directory: one keeps, the other replays', async () => {
    const first = open();
    const second = open();
    await first.keep(STREAM, 'req_shared', [Buffer.from('answer')]);
    expect(await second.read(STREAM, 'req_shared')).toEqual([Buffer.from('answer')]);
  });

  it('sweeps a body kept exactly the retention ago, not one kept a millisecond later', async () => {
    const bodies = open();
    const now = new Date('2026-11-28T12:00:00.000Z');
    await bodies.keep(STREAM, 'req_old', [Buffer.from('old')], new Date(now.getTime() - RETENTION_MS));
    await bodies.keep(STREAM, 'req_young', [Buffer.from('young')], new Date(now.getTime() - RETENTION_MS + 1));
    expect(await bodies.sweep(RETENTION_MS, now)).toBe(1);
    expect(await bodies.read(STREAM, 'req_old')).toBeNull();
    expect(await bodies.read(STREAM, 'req_young')).toEqual([Buffer.from('young')]);
  });

  it('reads a body an earlier version kept as a file when it has no row', async () => {
    const chunks = [Buffer.from('event: one\n\n'), Buffer.from([0, 1, 2])];
    writeLegacyFile(dataDir, STREAM, 'req_legacy', chunks, new Date());
    const bodies = open();
    expect(await bodies.read(STREAM, 'req_legacy')).toEqual(chunks);
  });

  it('sweeps earlier versions\' files past the retention with the rows, and keeps the younger ones', async () => {
    const now = new Date();
    const old = writeLegacyFile(dataDir, STREAM, 'req_file_old', [Buffer.from('a')], new Date(now.getTime() - RETENTION_MS - 1_000));
    const young = writeLegacyFile(dataDir, STREAM, 'req_file_young', [Buffer.from('b')], new Date(now.getTime() - RETENTION_MS + 10_000));
    const bodies = open();
    await bodies.keep(STREAM, 'req_row_old', [Buffer.from('c')], new Date(now.getTime() - RETENTION_MS - 1_000));
    expect(await bodies.sweep(RETENTION_MS, now)).toBe(2);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(young)).toBe(true);
    expect(await bodies.read(STREAM, 'req_file_young')).toEqual([Buffer.from('b')]);
    expect(await bodies.read(STREAM, 'req_row_old')).toBeNull();
  });

  it('sweeps nothing and fails nothing on a data directory that never had body files', async () => {
    expect(await open().sweep(RETENTION_MS)).toBe(0);
  });
});
