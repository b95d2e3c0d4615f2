import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRelayCheckpointStore } from './relay-checkpoint';

describe('FileRelayCheckpointStore', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'relay-checkpoint-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('has no checkpoint before the first save', async () => {
    expect(await new FileRelayCheckpointStore(join(dir, 'cp.json')).load()).toBeNull();
  });

  it('reads back what it saved, from a new instance, creating missing folders and leaving no temp file', async () => {
    const path = join(dir, 'nested', 'cp.json');
    const checkpoint = { position: '42', firstEventId: 'evt-1', savedAt: '2026-11-21T10:00:00.000Z' };
    await new FileRelayCheckpointStore(path).save({ ...checkpoint, position: '41' });
    await new FileRelayCheckpointStore(path).save(checkpoint);
    expect(await new FileRelayCheckpointStore(path).load()).toEqual(checkpoint);
    expect(readdirSync(join(dir, 'nested'))).toEqual(['cp.json']);
  });

  it('fails loudly on a corrupt file instead of relaying from a guessed position', async () => {
    const path = join(dir, 'cp.json');
    writeFileSync(path, '{"position": "4');
    await expect(new FileRelayCheckpointStore(path).load()).rejects.toThrow(SyntaxError);
  });
});
