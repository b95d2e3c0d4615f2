import type { SetOrganizationUsageFormatRequestDto } from './set-organization-usage-format.request.dto';

export class SetOrganizationUsageFormatCommand {
  constructor(
    readonly organizationId: string,
    readonly body: SetOrganizationUsageFormatRequestDto,
    readonly by: string,
  ) {}
}
