import { cpusOf, pinningFor } from '../../bench/lib/pinning';

const twoCores = { cores: 2, tasksetAvailable: true, serverCpus: '0', loadCpus: '1' };

describe('benchmark pinning', () => {
  it('puts the process under test on CPU 0 and the load on CPU 1 by default', () => {
    expect(pinningFor(twoCores)).toEqual({
      enabled: true,
      serverCpu: '0',
      loadCpu: '1',
      description: 'taskset: process under test on CPU 0, load generator and mock upstream on CPU 1; store benchmarks unpinned',
    });
  });

  it('takes CPU lists for a larger machine', () => {
    const pinning = pinningFor({ cores: 8, tasksetAvailable: true, serverCpus: '0-1', loadCpus: '2,4-5' });
    expect(pinning).toMatchObject({ enabled: true, serverCpu: '0-1', loadCpu: '2,4-5' });
    expect(cpusOf('X', '2,4-5', 8)).toEqual([2, 4, 5]);
  });

  it('runs unpinned, and says why, on one core or without taskset', () => {
    expect(pinningFor({ ...twoCores, cores: 1 })).toMatchObject({ enabled: false, description: 'not pinned: only 1 core available' });
    expect(pinningFor({ ...twoCores, tasksetAvailable: false })).toMatchObject({ enabled: false, description: 'not pinned: taskset (util-linux) not found' });
  });

  it('refuses CPUs the machine does not have, malformed lists and backward ranges', () => {
    expect(() => pinningFor({ ...twoCores, serverCpus: '0-2' })).toThrow('BENCH_SERVER_CPUS: CPU 2 does not exist (this machine has CPUs 0-1)');
    expect(() => pinningFor({ ...twoCores, loadCpus: 'one' })).toThrow('BENCH_LOAD_CPUS must be a taskset CPU list such as "0" or "0-1,3", got "one"');
    expect(() => cpusOf('BENCH_SERVER_CPUS', '3-1', 4)).toThrow('BENCH_SERVER_CPUS: range "3-1" runs backwards');
  });

  it('refuses server and load CPUs that overlap', () => {
    expect(() => pinningFor({ cores: 4, tasksetAvailable: true, serverCpus: '0-1', loadCpus: '1-2' })).toThrow(
      'BENCH_SERVER_CPUS and BENCH_LOAD_CPUS share CPU 1: the load would steal the server\'s cycles',
    );
  });
});
