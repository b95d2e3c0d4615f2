// The soak's answers over the whole run: counts by kind and status, latencies by kind, and the
// distinct reasons of the non-2xx answers (first few kept, each with its count).
import { summarize, type LatencySummary } from '../lib/samples';
import type { SoakKind } from './mix';
import type { SoakAnswer } from './mixed-load';

const KEPT_REASONS = 20;

export class SoakTally {
  private readonly byKindStatus = new Map<string, number>();
  private readonly latencies = new Map<SoakKind, number[]>();
  private readonly reasons = new Map<string, number>();
  answered = 0;
  ok = 0;

  add(answer: SoakAnswer): void {
    this.answered++;
    const key = `${answer.kind}\t${answer.status}`;
    this.byKindStatus.set(key, (this.byKindStatus.get(key) ?? 0) + 1);
    const ok = typeof answer.status === 'number' && answer.status < 300;
    if (ok) {
      this.ok++;
      const samples = this.latencies.get(answer.kind) ?? [];
      samples.push(answer.totalMs);
      this.latencies.set(answer.kind, samples);
      return;
    }
    const reason = `${answer.kind} ${answer.status}: ${(answer.detail ?? '').replace(/\s+/g, ' ').slice(0, 200)}`;
    if (this.reasons.has(reason) || this.reasons.size < KEPT_REASONS) this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + 1);
  }

  /** Rows of kind, status, count. */
  statusRows(): (string | number)[][] {
    return [...this.byKindStatus].sort(([a], [b]) => a.localeCompare(b)).map(([key, count]) => [...key.split('\t'), count]);
  }

  latencyOf(kind: SoakKind): LatencySummary {
    return summarize(this.latencies.get(kind) ?? []);
  }

  reasonRows(): (string | number)[][] {
    return [...this.reasons].map(([reason, count]) => [reason, count]);
  }
}
