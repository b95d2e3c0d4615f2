// A model turning warm or cold, as the prober or an upstream answer observed it (docs/events.md).
export interface ModelStatusChangedV1 {
  model: string;
  status: 'warm' | 'cold';
  previous: 'warm' | 'cold' | null;
  observedAt: string;
  reason: string;
}
