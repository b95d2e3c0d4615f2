// PUT /v1/organizations/{id}/usage-format body: usage_format is required, `spec` or `openai`.
import { IsIn } from 'class-validator';
import { USAGE_FORMATS, type UsageFormat } from '../../billing/client-usage';

export class SetOrganizationUsageFormatRequestDto {
  @IsIn(USAGE_FORMATS, { message: `usage_format must be one of: ${USAGE_FORMATS.join(', ')}` })
  usage_format!: UsageFormat;
}
