import { Module } from '@nestjs/common';
import { CreateDecisionController } from './create-decision/create-decision.controller';
import { CreateDecisionHandler } from './create-decision/create-decision.handler';

@Module({ controllers: [CreateDecisionController], providers: [CreateDecisionHandler] })
export class DecisionsModule {}
