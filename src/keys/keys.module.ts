// The key API (issue 29, part A): management keys issue, change, disable and revoke runtime keys and
// set organization budgets; every change is an event folded into each replica's key registry.
import { Module } from '@nestjs/common';
import { ManagementGuard } from '../access/management.guard';
import { MANAGEMENT_RATE_LIMIT, ManagementRateWindow } from '../rate-limits/management-rate-window';
import { GATEWAY_CONFIG } from '../common/runtime-tokens';
import type { GatewayConfig } from '../config/gateway-config';
import { KeysContext } from './keys.context';
import { IssueKeyController } from './issue-key/issue-key.controller';
import { IssueKeyHandler } from './issue-key/issue-key.handler';
import { ListKeysController } from './list-keys/list-keys.controller';
import { ListKeysHandler } from './list-keys/list-keys.handler';
import { GetKeyController } from './get-key/get-key.controller';
import { GetKeyHandler } from './get-key/get-key.handler';
import { ChangeKeyController } from './change-key/change-key.controller';
import { ChangeKeyHandler } from './change-key/change-key.handler';
import { RevokeKeyController } from './revoke-key/revoke-key.controller';
import { RevokeKeyHandler } from './revoke-key/revoke-key.handler';
import { GetCurrentKeyController } from './get-current-key/get-current-key.controller';
import { SetOrganizationBudgetController } from './set-organization-budget/set-organization-budget.controller';
import { SetOrganizationBudgetHandler } from './set-organization-budget/set-organization-budget.handler';
import { GetOrganizationBudgetController } from './get-organization-budget/get-organization-budget.controller';
import { GetOrganizationBudgetHandler } from './get-organization-budget/get-organization-budget.handler';
import { SetOrganizationUsageFormatController } from './set-organization-usage-format/set-organization-usage-format.controller';
import { SetOrganizationUsageFormatHandler } from './set-organization-usage-format/set-organization-usage-format.handler';

function managementWindow(config: GatewayConfig): ManagementRateWindow {
  const limit = config.management_rate_limit ?? MANAGEMENT_RATE_LIMIT;
  return new ManagementRateWindow(limit.requests, limit.window_seconds * 1000);
}

@Module({
  controllers: [
    IssueKeyController, ListKeysController, GetKeyController, ChangeKeyController, RevokeKeyController,
    GetCurrentKeyController, SetOrganizationBudgetController, GetOrganizationBudgetController,
    SetOrganizationUsageFormatController,
  ],
  providers: [
    KeysContext, { provide: ManagementRateWindow, useFactory: managementWindow, inject: [GATEWAY_CONFIG] }, ManagementGuard,
    IssueKeyHandler, ListKeysHandler, GetKeyHandler, ChangeKeyHandler, RevokeKeyHandler,
    SetOrganizationBudgetHandler, GetOrganizationBudgetHandler, SetOrganizationUsageFormatHandler,
  ],
  // Other management routes (GET /v1/margins) share the guard and its one rate window per key.
  exports: [ManagementGuard, ManagementRateWindow],
})
export class KeysModule {}
