// The versioned event types of the request path, by name, and their one schema version (docs/events.md):
// the payloads live beside the capability that owns each (billing/, budgets/, rate-limits/, models/).
export const EVENT_SCHEMA_VERSION = 1;

export type GatewayEventType =
  | 'UsageMeasured'
  | 'CostPriced'
  | 'UsageDisputed'
  | 'RequestAdmitted'
  | 'ModelStatusChanged'
  // Spend limits (src/budgets/budget.events.ts).
  | 'SpendHeld'
  | 'SpendReleased'
  | 'BudgetThresholdCrossed';
