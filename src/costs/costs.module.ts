import { Module } from '@nestjs/common';
import { GetOrganizationCostsController } from './get-organization-costs/get-organization-costs.controller';
import { GetOrganizationCostsHandler } from './get-organization-costs/get-organization-costs.handler';
import { ListOrganizationRequestsController } from './list-organization-requests/list-organization-requests.controller';
import { ListOrganizationRequestsHandler } from './list-organization-requests/list-organization-requests.handler';

@Module({
  controllers: [GetOrganizationCostsController, ListOrganizationRequestsController],
  providers: [GetOrganizationCostsHandler, ListOrganizationRequestsHandler],
})
export class CostsModule {}
