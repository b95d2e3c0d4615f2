// What the image promises before anything runs: a data directory for the runtime user, a context that
// cannot overwrite the installed node_modules, a health check on an endpoint the gateway serves, labels.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { healthcheckCommand, healthcheckOptions, imageEnv, imageLabels, imageUser, ROOT, runtimeStageLines } from './support/dockerfile';

const dockerignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));
const ignores = (entry: string) => dockerignore.some((pattern) => pattern.replace(/\/$/, '') === entry);

describe('.dockerignore (build context: the repository root)', () => {
  it.each(['node_modules', '.git', 'data', '.cache', 'dist', 'coverage', '*.log'])('leaves out %s', (entry) => {
    expect(ignores(entry)).toBe(true);
  });

  it('never re-includes anything (no ! patterns)', () => {
    expect(dockerignore.filter((pattern) => pattern.startsWith('!'))).toEqual([]);
  });
});

describe('runtime stage of deploy/Dockerfile', () => {
  const lines = runtimeStageLines();

  it('runs as the unprivileged node user, with a data directory that user owns, declared as a volume', () => {
    expect(imageUser()).toBe('node');
    const dataDir = imageEnv().GATEWAY_DATA_DIR;
    expect(dataDir).toBe('/data');
    const run = lines.find((line) => line.startsWith('RUN ') && line.includes(`mkdir -p ${dataDir}`));
    expect(run).toContain(`chown node:node ${dataDir}`);
    expect(lines).toContain(`VOLUME ["${dataDir}"]`);
    expect(lines.indexOf(run!)).toBeLessThan(lines.indexOf('USER node'));
  });

  it("runs Debian's maintained ffmpeg and ffprobe, not the bundled 2018 build", () => {
    expect(lines.some((line) => line.startsWith('RUN ') && /apt-get install .*\bffmpeg\b/.test(line))).toBe(true);
    expect(imageEnv()).toMatchObject({ GATEWAY_FFMPEG_PATH: '/usr/bin/ffmpeg', GATEWAY_FFPROBE_PATH: '/usr/bin/ffprobe' });
  });

  it('checks health with node (no curl in slim) against /healthz on the configured port, with a timeout', () => {
    const command = healthcheckCommand();
    expect(command.slice(0, 2)).toEqual(['node', '-e']);
    expect(command[2]).toContain("'/healthz'");
    expect(command[2]).toContain('process.env.PORT');
    expect(command[2]).toContain('AbortSignal.timeout(');
    const options = healthcheckOptions();
    expect(Object.keys(options).sort()).toEqual(['interval', 'retries', 'start-period', 'timeout']);
    expect(parseInt(options['start-period'], 10)).toBeGreaterThanOrEqual(120);
  });

  it('serves the health endpoint the check asks for', () => {
    const controller = readFileSync(join(ROOT, 'src', 'health', 'health.controller.ts'), 'utf8');
    expect(controller).toContain("@Get('healthz')");
  });

  it('carries OCI labels with the package version', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(lines).toContain(`ARG VERSION=${version}`);
    expect(imageLabels()).toMatchObject({ 'org.opencontainers.image.title': 'inference-gateway', 'org.opencontainers.image.version': '${VERSION}' });
    expect(imageLabels()['org.opencontainers.image.description']).toMatch(/gateway/);
  });

  it('exposes the port the image listens on', () => {
    expect(lines).toContain(`EXPOSE ${imageEnv().PORT}`);
  });
});
