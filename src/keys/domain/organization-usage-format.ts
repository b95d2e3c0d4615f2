// An organization's usage format as set through the management API: the latest
// OrganizationUsageFormatSet wins over the configured `usage_format`. Setting the format it already
// has records nothing.
import type { UsageFormat } from '../../billing/client-usage';
import { KEY_EVENT_SCHEMA_VERSION, ORGANIZATION_USAGE_FORMAT_SET, type OrganizationUsageFormatSetV1 } from './key-events';

export interface OrganizationUsageFormatState {
  organizationId: string;
  usageFormat: UsageFormat;
  updatedAt: string;
}

export type SetUsageFormat = Omit<OrganizationUsageFormatSetV1, 'schemaVersion'>;

export interface OrganizationUsageFormatEvent {
  type: typeof ORGANIZATION_USAGE_FORMAT_SET;
  data: OrganizationUsageFormatSetV1;
}

/** `configured` is the format in force without any event (the configuration's, default `spec`). */
export function decideSetUsageFormat(state: OrganizationUsageFormatState | null, configured: UsageFormat, command: SetUsageFormat): OrganizationUsageFormatEvent[] {
  if ((state?.usageFormat ?? configured) === command.usageFormat) return [];
  return [{ type: ORGANIZATION_USAGE_FORMAT_SET, data: { schemaVersion: KEY_EVENT_SCHEMA_VERSION, ...command } }];
}

export function evolveUsageFormat(_state: OrganizationUsageFormatState | null, event: OrganizationUsageFormatEvent): OrganizationUsageFormatState {
  const d = event.data;
  return { organizationId: d.organizationId, usageFormat: d.usageFormat, updatedAt: d.at };
}
