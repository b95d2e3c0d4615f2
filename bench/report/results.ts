// The shape of one benchmark run, as printed and as written to bench/results/<name>.json.
import type { FsyncResult } from '../disk/fsync';
import type { OverheadResults } from '../overhead/overhead';
import type { StoreFigures } from '../write-path/store-figures';
import type { CostStoreMeta } from '../costs/cost-store';
import type { RebuildResult } from '../costs/rebuild';
import type { CostQueryResults } from '../costs/cost-queries';
import type { ProfileSummary } from '../profile/cpu-profile';
import type { Settings } from '../settings';

export interface RunMeta {
  startedAt: string;
  gitCommit: string;
  node: string;
  cpuModel: string;
  cores: number;
  pinning: string;
  settings: Settings;
  wallSeconds: number;
}

export interface CostResults {
  store: CostStoreMeta & { generatedNow: boolean; bytes: number };
  rebuild: RebuildResult;
  queries: CostQueryResults;
}

/** `gateway`: the gateway's own cost (a miss calls for its CPU profile); `store`: the embedded store's write path. */
export type TargetArea = 'gateway' | 'store' | 'costs' | 'memory';

export interface TargetCheck {
  area: TargetArea;
  target: string;
  limit: string;
  measured: string;
  met: boolean;
  /** Empty when met; otherwise how far off, in the target's unit and relative. */
  missedBy: string;
}

export interface BenchResults extends StoreFigures {
  meta: RunMeta;
  fsync: FsyncResult;
  overhead: OverheadResults;
  costs: CostResults;
  targets: TargetCheck[];
  /** CPU profile of the gateway under the closed-loop load, taken when a CPU target was missed. */
  gatewayProfile: ProfileSummary[] | null;
}
