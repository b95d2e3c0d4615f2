// Keys and organizations as every replica sees them: the configuration (the bootstrap: its keys keep
// working and cannot be changed through the API) first, then the keys issued through the key API, and
// organization budgets set through the API over the configured ones.
import { AccessStore } from '../access/access.store';
import type { ApiKeyRecord, ManagementKeyRecord, Organization } from '../access/access.types';
import type { KeyRegistry } from './domain/key-registry';
import type { OrganizationBudgetState } from './domain/organization-budget';

export class RuntimeAccessStore extends AccessStore {
  /** The organization with its API budget, kept per budget state so a request allocates nothing. */
  private readonly budgeted = new WeakMap<OrganizationBudgetState, Organization>();

  constructor(
    private readonly configured: AccessStore,
    private readonly registry: KeyRegistry,
  ) {
    super();
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return (await this.configured.findKeyByHash(hash)) ?? this.registry.byKeyHash(hash)?.record;
  }

  async findOrganization(id: string): Promise<Organization | undefined> {
    const organization = await this.configured.findOrganization(id);
    const budget = organization && this.registry.budget(id);
    if (!organization || !budget) return organization;
    let withBudget = this.budgeted.get(budget);
    if (!withBudget || withBudget.payment_method !== organization.payment_method) {
      withBudget = { ...organization, budget: budget.limitUsd === null ? null : { limit_usd: budget.limitUsd, limit_reset: budget.limitReset } };
      this.budgeted.set(budget, withBudget);
    }
    return withBudget;
  }

  override findManagementKeyByHash(hash: string): Promise<ManagementKeyRecord | undefined> {
    return this.configured.findManagementKeyByHash(hash);
  }
}
