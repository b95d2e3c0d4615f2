// Where keys and organizations are looked up. The default reads the operator configuration; the
// port exists so an outage of a remote key store is a 503, never an open door.
import type { ApiKeyRecord, ManagementKeyRecord, Organization } from './access.types';
import type { GatewayConfig } from '../config/gateway-config';

export abstract class AccessStore {
  abstract findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  abstract findOrganization(id: string): Promise<Organization | undefined>;
  /** Management keys (management API only); none unless the store knows some. */
  async findManagementKeyByHash(_hash: string): Promise<ManagementKeyRecord | undefined> {
    return undefined;
  }
}

export class ConfigAccessStore extends AccessStore {
  private readonly keys: Map<string, ApiKeyRecord>;
  private readonly orgs: Map<string, Organization>;
  private readonly managementKeys: Map<string, ManagementKeyRecord>;

  constructor(config: GatewayConfig) {
    super();
    this.keys = new Map(config.keys.map((k) => [k.hash, k]));
    this.orgs = new Map(config.organizations.map((o) => [o.id, o]));
    this.managementKeys = new Map((config.management_keys ?? []).map((k) => [k.hash, k]));
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return this.keys.get(hash);
  }

  async findOrganization(id: string): Promise<Organization | undefined> {
    return this.orgs.get(id);
  }

  override async findManagementKeyByHash(hash: string): Promise<ManagementKeyRecord | undefined> {
    return this.managementKeys.get(hash);
  }
}
