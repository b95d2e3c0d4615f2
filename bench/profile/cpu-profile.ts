// Summarises V8 .cpuprofile files (node --cpu-prof): self time per function and per code area
// (a package under node_modules, a src/ folder, Node internals, GC), idle time left out.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  /** Microseconds on the monotonic clock, the one process.hrtime reads. */
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface TimeShare {
  name: string;
  /** Self time, or inclusive time in `topOwnInclusive`. */
  ms: number;
  /** Share of the thread's busy (non-idle) time, percent. */
  percent: number;
}

export interface ProfileSummary {
  file: string;
  busyMs: number;
  topFunctions: TimeShare[];
  areas: TimeShare[];
  /** The gateway's own functions (src/) by inclusive time: their synchronous callees included. */
  topOwnInclusive: TimeShare[];
}

const IDLE = new Set(['(idle)']);

function relativeUrl(url: string): string {
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) return url.slice(modules + 1);
  const own = url.lastIndexOf('/src/');
  return own >= 0 ? url.slice(own + 1) : url;
}

/** A script's package under node_modules (`@nestjs/core`) or folder under src/ (`src/billing`), else null. */
export function packageOrSourceArea(url: string): string | null {
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  const own = /\/(src\/[^/]+)\//.exec(url);
  return own ? own[1] : null;
}

function areaOf({ functionName, url }: ProfileNode['callFrame']): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  return packageOrSourceArea(url) ?? relativeUrl(url);
}

function functionKey({ functionName, url, lineNumber }: ProfileNode['callFrame']): string {
  const name = functionName || '(anonymous)';
  return url ? `${name} ${relativeUrl(url)}:${lineNumber + 1}` : name;
}

function parentsOf(nodes: ProfileNode[]): Map<number, number> {
  const parents = new Map<number, number>();
  for (const node of nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  return parents;
}

/** Each src/ function on the sample's stack once, however often it recurses. */
function ownFunctionsOnStack(leaf: number, nodes: Map<number, ProfileNode>, parents: Map<number, number>): Set<string> {
  const keys = new Set<string>();
  for (let id: number | undefined = leaf; id !== undefined; id = parents.get(id)) {
    const frame = nodes.get(id)!.callFrame;
    if (/\/src\//.test(frame.url)) keys.add(functionKey(frame));
  }
  return keys;
}

function ranked(totals: Map<string, number>, busyMs: number, limit: number): TimeShare[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, ms]) => ({ name, ms, percent: (100 * ms) / busyMs }));
}

/** A window of the monotonic clock in microseconds (`process.hrtime.bigint() / 1000n`). */
export interface ProfileWindow {
  fromMicros: number;
  toMicros: number;
}

/** Samples inside `window` only, so start-up and shutdown do not blur the steady state. */
export function summarizeCpuProfile(file: string, window: ProfileWindow, limit = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = parentsOf(profile.nodes);
  const byFunction = new Map<string, number>();
  const ownInclusive = new Map<string, number>();
  const byArea = new Map<string, number>();
  let busyMs = 0;
  let timestamp = profile.startTime;
  profile.samples.forEach((nodeId, index) => {
    timestamp += profile.timeDeltas[index] ?? 0;
    const frame = nodes.get(nodeId)!.callFrame;
    if (IDLE.has(frame.functionName) || timestamp < window.fromMicros || timestamp > window.toMicros) return;
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    busyMs += ms;
    byFunction.set(functionKey(frame), (byFunction.get(functionKey(frame)) ?? 0) + ms);
    byArea.set(areaOf(frame), (byArea.get(areaOf(frame)) ?? 0) + ms);
    for (const key of ownFunctionsOnStack(nodeId, nodes, parents)) ownInclusive.set(key, (ownInclusive.get(key) ?? 0) + ms);
  });
  return { file, busyMs, topFunctions: ranked(byFunction, busyMs, limit), areas: ranked(byArea, busyMs, limit), topOwnInclusive: ranked(ownInclusive, busyMs, limit) };
}
