// Separate "hosts" on one machine: a network namespace per host, each joined by a veth pair to a bridge
// in the root namespace, on a private /24 (10.231.<n>.0/24) that exists only on that bridge. The root
// namespace (the test itself: load, simulator) is 10.231.<n>.1 on the bridge. Needs root.
// A host is cut off from another with a blackhole route in its own namespace: packets it sends there are
// dropped (established connections stall, new ones fail at once), everything else still flows.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface NetworkHost {
  namespace: string;
  address: string;
}

export interface HostNetwork {
  /** The root namespace's address on the bridge. */
  bridgeAddress: string;
  hosts: Record<string, NetworkHost>;
  /** Drops every packet `from` sends to `to` until restored. */
  cutOff(from: string, to: string): void;
  restore(from: string, to: string): void;
  /** Deletes the namespaces (and with them the veth pairs) and the bridge; safe to call twice. */
  remove(): void;
}

export function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function tryIp(...args: string[]): void {
  try {
    ip(...args);
  } catch {
    // Already gone (remove() runs on failure paths too).
  }
}

/** A subnet number whose bridge and namespaces do not exist yet (another run may be going on). */
function freeNetworkNumber(): number {
  for (let attempt = 0; attempt < 200; attempt++) {
    const n = ((process.pid + attempt) % 200) + 20;
    if (!existsSync(`/sys/class/net/gwh${n}br`) && !existsSync(`/run/netns/gwh${n}-0`)) return n;
  }
  throw new Error('no free 10.231.<n>.0/24 for the test network: remove leftover gwh* namespaces (ip netns list)');
}

/** One namespace per name, in order: addresses 10.231.<n>.10, .11, … */
export function createHostNetwork(names: string[]): HostNetwork {
  const n = freeNetworkNumber();
  const bridge = `gwh${n}br`;
  const prefix = `10.231.${n}`;
  const hosts: Record<string, NetworkHost> = {};
  const removeAll = () => {
    for (const host of Object.values(hosts)) tryIp('netns', 'delete', host.namespace);
    tryIp('link', 'delete', bridge);
  };
  try {
    ip('link', 'add', bridge, 'type', 'bridge');
    ip('addr', 'add', `${prefix}.1/24`, 'dev', bridge);
    ip('link', 'set', bridge, 'up');
    names.forEach((name, index) => {
      const host = { namespace: `gwh${n}-${index}`, address: `${prefix}.${10 + index}` };
      hosts[name] = host;
      const veth = `gwh${n}v${index}`;
      ip('netns', 'add', host.namespace);
      ip('link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', host.namespace);
      ip('link', 'set', veth, 'master', bridge, 'up');
      ip('-n', host.namespace, 'addr', 'add', `${host.address}/24`, 'dev', 'eth0');
      ip('-n', host.namespace, 'link', 'set', 'eth0', 'up');
      ip('-n', host.namespace, 'link', 'set', 'lo', 'up');
    });
  } catch (error) {
    removeAll();
    throw error;
  }
  const route = (action: 'add' | 'delete', from: string, to: string) => ip('-n', hosts[from].namespace, 'route', action, 'blackhole', `${hosts[to].address}/32`);
  return {
    bridgeAddress: `${prefix}.1`,
    hosts,
    cutOff: (from, to) => route('add', from, to),
    restore: (from, to) => route('delete', from, to),
    remove: removeAll,
  };
}
