import { Module } from '@nestjs/common';
import { GetOrganizationCostsController } from './get-organization-costs/get-organization-costs.controller';
import { GetOrganizationCostsHandler } from './get-organization-costs/get-organization-costs.handler';

@Module({ controllers: [GetOrganizationCostsController], providers: [GetOrganizationCostsHandler] })
export class CostsModule {}
