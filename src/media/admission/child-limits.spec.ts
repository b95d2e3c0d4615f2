import { findPrlimit, limitedCommand } from './child-limits';

const limits = { memoryBytes: 1024 * 1024 * 1024, cpuSeconds: 30 };

describe('child limits', () => {
  it('wraps the tool in prlimit when the system has it, the tool and its arguments unchanged', () => {
    expect(limitedCommand('/opt/ffprobe', ['-i', '-'], limits, '/usr/bin/prlimit')).toEqual({
      command: '/usr/bin/prlimit',
      args: ['--as=1073741824', '--cpu=30', '--', '/opt/ffprobe', '-i', '-'],
    });
  });

  it('falls back to a shell ulimit that execs the tool, its arguments never parsed by the shell', () => {
    const { command, args } = limitedCommand('/opt/ffmpeg', ['-i', '$(reboot)'], { memoryBytes: 2048 * 1024 + 5, cpuSeconds: 0.2 }, null);
    expect(command).toBe('/bin/sh');
    expect(args).toEqual(['-c', 'ulimit -v 2048 && ulimit -t 1 && exec "$0" "$@"', '/opt/ffmpeg', '-i', '$(reboot)']);
  });

  it('finds prlimit among the candidates, or none', () => {
    expect(findPrlimit(['/nonexistent/prlimit'])).toBeNull();
    expect(findPrlimit(['/nonexistent/prlimit', process.execPath])).toBe(process.execPath);
  });
});
