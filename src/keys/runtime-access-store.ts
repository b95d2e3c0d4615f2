// Keys and organizations as every replica sees them: the configuration (the bootstrap: its keys keep
// working and cannot be changed through the API) and the keys issued through the key API, and
// organization budgets and usage formats set through the API over the configured ones.
import { AccessStore } from '../access/access.store';
import type { ApiKeyRecord, ManagementKeyRecord, Organization } from '../access/access.types';
import type { KeyRegistry } from './domain/key-registry';
import type { OrganizationBudgetState } from './domain/organization-budget';
import type { OrganizationUsageFormatState } from './domain/organization-usage-format';

export class RuntimeAccessStore extends AccessStore {
  /** The organization with what the API set over its configuration, kept per configured organization so a request allocates nothing. */
  private readonly overlaid = new WeakMap<Organization, Overlaid>();

  constructor(
    private readonly configured: AccessStore,
    private readonly registry: KeyRegistry,
  ) {
    super();
  }

  /** No await of its own: on the request path a lookup costs what the configured store's does. */
  findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    // A runtime key's hash is of a fresh 256-bit secret, so it can never also be a configured key's.
    const runtime = this.registry.byKeyHash(hash)?.record;
    return runtime ? Promise.resolve(runtime) : this.configured.findKeyByHash(hash);
  }

  findOrganization(id: string): Promise<Organization | undefined> {
    const budget = this.registry.budget(id);
    const usageFormat = this.registry.usageFormat(id);
    const found = this.configured.findOrganization(id);
    if (!budget && !usageFormat) return found;
    return found.then((organization) => organization && this.overlay(organization, budget, usageFormat));
  }

  private overlay(organization: Organization, budget: OrganizationBudgetState | undefined, usageFormat: OrganizationUsageFormatState | undefined): Organization {
    const cached = this.overlaid.get(organization);
    if (cached && cached.budget === budget && cached.usageFormat === usageFormat) return cached.organization;
    const result: Organization = { ...organization };
    if (budget) result.budget = budget.limitUsd === null ? null : { limit_usd: budget.limitUsd, limit_reset: budget.limitReset };
    if (usageFormat) result.usage_format = usageFormat.usageFormat;
    this.overlaid.set(organization, { budget, usageFormat, organization: result });
    return result;
  }

  override findManagementKeyByHash(hash: string): Promise<ManagementKeyRecord | undefined> {
    return this.configured.findManagementKeyByHash(hash);
  }
}

interface Overlaid {
  budget: OrganizationBudgetState | undefined;
  usageFormat: OrganizationUsageFormatState | undefined;
  organization: Organization;
}
