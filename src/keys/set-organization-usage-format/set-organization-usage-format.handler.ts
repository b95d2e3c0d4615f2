// PUT: records OrganizationUsageFormatSet on `organization-<id>`; every replica folds it over the
// configured `usage_format`, like budgets (docs/keys-and-budgets.md).
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { usageFormatStateOf } from '../domain/key-history';
import { organizationStream } from '../domain/key-events';
import { decideSetUsageFormat, evolveUsageFormat, type OrganizationUsageFormatState } from '../domain/organization-usage-format';
import { decideAndAppend } from '../decide-and-append';
import { KeysContext } from '../keys.context';
import { organizationNotFound } from '../set-organization-budget/set-organization-budget.handler';
import { SetOrganizationUsageFormatCommand } from './set-organization-usage-format.command';
import { configuredUsageFormat, usageFormatView, type UsageFormatView } from './usage-format-view';

@CommandHandler(SetOrganizationUsageFormatCommand)
export class SetOrganizationUsageFormatHandler implements ICommandHandler<SetOrganizationUsageFormatCommand, UsageFormatView> {
  constructor(private readonly keys: KeysContext) {}

  async execute({ organizationId, body, by }: SetOrganizationUsageFormatCommand): Promise<UsageFormatView> {
    const organization = this.keys.config.organizations.find((o) => o.id === organizationId);
    if (!organization) throw organizationNotFound(organizationId);
    const configured = configuredUsageFormat(organization);
    const state = await decideAndAppend<OrganizationUsageFormatState | null>(this.keys.store, this.keys.projection, organizationStream(organizationId), (history) => {
      const current = usageFormatStateOf(history);
      const events = decideSetUsageFormat(current, configured, { organizationId, usageFormat: body.usage_format, at: new Date().toISOString(), by });
      return { events, state: events.reduce<OrganizationUsageFormatState | null>(evolveUsageFormat, current) };
    });
    return usageFormatView(organization, state);
  }
}
