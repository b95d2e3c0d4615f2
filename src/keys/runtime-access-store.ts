// Keys and organizations as every replica sees them: the configuration (the bootstrap: its keys keep
// working and cannot be changed through the API) and the keys issued through the key API, and
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

  /** No await of its own: on the request path a lookup costs what the configured store's does. */
  findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    // A runtime key's hash is of a fresh 256-bit secret, so it can never also be a configured key's.
    const runtime = this.registry.byKeyHash(hash)?.record;
    return runtime ? Promise.resolve(runtime) : this.configured.findKeyByHash(hash);
  }

  findOrganization(id: string): Promise<Organization | undefined> {
    const budget = this.registry.budget(id);
    const found = this.configured.findOrganization(id);
    return budget ? found.then((organization) => organization && this.withBudget(organization, budget)) : found;
  }

  private withBudget(organization: Organization, budget: OrganizationBudgetState): Organization {
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
