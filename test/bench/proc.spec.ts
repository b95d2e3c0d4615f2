import { parseCoreTimes } from '../../bench/lib/proc';

// The head of a /proc/stat: user nice system idle iowait irq softirq steal guest guest_nice.
const PROC_STAT = `cpu  945157 0 192549 1973401 31070 0 37453 3135 0 0
cpu0 542881 0 108052 902739 22741 0 19010 1329 0 0
cpu1 402275 0 84497 1070661 8329 0 18442 1806 0 0
intr 123 4 5
`;

describe('parseCoreTimes', () => {
  it('reads each core, busy without idle and iowait, with the hypervisor steal on its own', () => {
    const cores = parseCoreTimes(PROC_STAT);
    expect([...cores.keys()]).toEqual(['0', '1']);
    const total0 = 542881 + 108052 + 902739 + 22741 + 19010 + 1329;
    expect(cores.get('0')).toEqual({ busy: total0 - 902739 - 22741, total: total0, steal: 1329 });
    expect(cores.get('1')?.steal).toBe(1806);
  });

  it('counts no steal on a kernel whose lines stop before the steal field', () => {
    expect(parseCoreTimes('cpu0 10 0 5 100 1 0 2\n').get('0')).toEqual({ busy: 17, total: 118, steal: 0 });
  });
});
