// An organization's usage format as the management API shows it: set through the API (latest event),
// else the configured one (default `spec`).
import type { Organization } from '../../access/access.types';
import { DEFAULT_USAGE_FORMAT, type UsageFormat } from '../../billing/client-usage';
import type { OrganizationUsageFormatState } from '../domain/organization-usage-format';

export interface UsageFormatView {
  object: 'organization_usage_format';
  organization_id: string;
  usage_format: UsageFormat;
  /** `api`: set by PUT; `configuration`: the configured one or the default. */
  source: 'api' | 'configuration';
  updated_at: string | null;
}

export function usageFormatView(organization: Organization, set: OrganizationUsageFormatState | null | undefined): UsageFormatView {
  return {
    object: 'organization_usage_format',
    organization_id: organization.id,
    usage_format: set?.usageFormat ?? configuredUsageFormat(organization),
    source: set ? 'api' : 'configuration',
    updated_at: set?.updatedAt ?? null,
  };
}

export const configuredUsageFormat = (organization: Organization): UsageFormat => organization.usage_format ?? DEFAULT_USAGE_FORMAT;
