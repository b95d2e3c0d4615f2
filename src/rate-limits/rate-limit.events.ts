// The admission a rate limit counts (docs/events.md): one per admitted request, on the organization's stream.
export interface RequestAdmittedV1 {
  requestId: string;
  organizationId: string;
  keyId: string;
  endpoint: string;
  /** Unix milliseconds; the rate-limit window is measured on it. */
  admittedAt: number;
}
