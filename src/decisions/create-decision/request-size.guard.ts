// Runs before validation so an oversize decisions request is a 413, whatever else is wrong with it.
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { assertDecisionRequestSize } from '../domain/request-size';

@Injectable()
export class DecisionRequestSizeGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    assertDecisionRequestSize(request.headers['content-length'], request.body);
    return true;
  }
}
