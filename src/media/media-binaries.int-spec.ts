// The bundled binaries must run, and a process that overruns its time limit is killed.
import { accessSync, constants, statSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { audioFixture } from '../../test/fixtures/media/generate';
import { identifyAudio } from './audio-probe';
import { ensureExecutable, ffmpegPath, ffprobePath } from './media-binaries';
import { MediaTimeoutError, runProcess } from './run-process';

describe('bundled binaries', () => {
  it('are executable', () => {
    expect(() => accessSync(ffmpegPath(), constants.X_OK)).not.toThrow();
    expect(() => accessSync(ffprobePath(), constants.X_OK)).not.toThrow();
  });

  it('restores a missing exec bit, as after an install that skipped the chmod script', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'media-bin-'));
    try {
      const script = join(dir, 'tool');
      await writeFile(script, '#!/bin/sh\nexit 0\n');
      await chmod(script, 0o644);
      ensureExecutable(script);
      expect(statSync(script).mode & 0o111).toBe(0o111);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('runProcess', () => {
  it('kills a process that overruns its time limit', async () => {
    const started = Date.now();
    const run = runProcess(ffmpegPath(), ['-hide_banner', '-v', 'error', '-re', '-f', 'lavfi', '-i', 'sine=duration=30', '-f', 'null', '-'], { timeoutMs: 300 });
    await expect(run).rejects.toBeInstanceOf(MediaTimeoutError);
    await expect(run).rejects.toMatchObject({ status: 500, code: 'media_processing_timeout' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('passes the time limit through the public probes', async () => {
    const probe = identifyAudio(await audioFixture({ kind: 'wav' }), { timeoutMs: 1 });
    await expect(probe).rejects.toBeInstanceOf(MediaTimeoutError);
  });
});
