// Which kind of request the i-th send of the soak is. Deterministic, so two runs offer the same load:
// each send goes to the kind furthest behind its share so far, which keeps every prefix of the run
// (and so every 5 s window) within one request of the shares.

export interface MixShare<K extends string> {
  kind: K;
  /** Fraction of all sends, > 0; the shares of a mix add up to 1. */
  share: number;
}

export function mixSchedule<K extends string>(shares: readonly MixShare<K>[]): (index: number) => K {
  checkShares(shares);
  const sent = shares.map(() => 0);
  let next = 0;
  const order: K[] = [];
  const extendTo = (index: number) => {
    for (; next <= index; next++) {
      let behindmost = 0;
      let largest = -Infinity;
      shares.forEach(({ share }, k) => {
        const behind = (next + 1) * share - sent[k];
        if (behind > largest + 1e-9) [behindmost, largest] = [k, behind];
      });
      sent[behindmost]++;
      order.push(shares[behindmost].kind);
    }
  };
  // Indices come in order in the soak; the schedule is kept so any index can be asked again.
  return (index: number) => {
    if (!Number.isSafeInteger(index) || index < 0) throw new Error(`send index must be a whole number >= 0, got ${index}`);
    extendTo(index);
    return order[index];
  };
}

function checkShares(shares: readonly MixShare<string>[]): void {
  if (shares.length === 0) throw new Error('a mix needs at least one kind');
  for (const { kind, share } of shares) {
    if (!(share > 0 && share <= 1)) throw new Error(`share of ${kind} must be in (0, 1], got ${share}`);
  }
  const total = shares.reduce((sum, { share }) => sum + share, 0);
  if (Math.abs(total - 1) > 1e-9) throw new Error(`the shares must add up to 1, got ${total}`);
}

export type SoakKind = 'chat' | 'chat stream' | 'speech' | 'transcription';

/** The mix: chat (half of it streamed), `speech` and `transcription` as fractions of all sends. */
export function soakShares(speech: number, transcription: number): MixShare<SoakKind>[] {
  const chat = 1 - speech - transcription;
  if (!(chat > 0)) throw new Error(`speech (${speech}) and transcription (${transcription}) leave no room for chat`);
  return [
    { kind: 'chat', share: chat / 2 },
    { kind: 'chat stream', share: chat / 2 },
    { kind: 'speech', share: speech },
    { kind: 'transcription', share: transcription },
  ];
}
