// What the code itself says about each route: whether the key guard protects it and which DTOs
// the validation pipe checks its body and query against. Read from Nest's decorator metadata, so
// the document follows the controllers instead of a hand-kept list.
import { RequestMethod, Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { ModulesContainer } from '@nestjs/core';
import { KeyGuard } from '../access/key.guard';
import { ManagementGuard } from '../access/management.guard';
import { MULTIPART_BODY, MultipartBody } from './api-multipart-body.decorator';

export interface RouteFacts {
  /** `${Controller}_${handler}`, the operationId @nestjs/swagger gives the route. */
  operationId: string;
  requestMethod: RequestMethod;
  /** Guarded by KeyGuard or ManagementGuard: needs a bearer key and is rate limited. */
  keyed: boolean;
  /** The class of a whole-object `@Body()` parameter. */
  body?: Type;
  /** The class of a whole-object `@Query()` parameter. */
  query?: Type;
  /** A multipart body the controller reads itself (see ApiMultipartBody). */
  multipart?: MultipartBody;
}

interface RouteArgument {
  index: number;
  data?: unknown;
}

const usesKeyGuard = (target: object): boolean =>
  ((Reflect.getMetadata(GUARDS_METADATA, target) as unknown[] | undefined) ?? []).some(
    (guard) => guard === KeyGuard || guard instanceof KeyGuard || guard === ManagementGuard,
  );

/** Declared types that are no DTO: the pipe has nothing to validate them against. */
const BUILT_IN_TYPES = new Set<unknown>([Object, String, Number, Boolean, Array]);

/** The DTO class of the handler's whole-object argument of the given kind, if any. */
function argumentClass(controller: Type, handler: string, kind: RouteParamtypes): Type | undefined {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<string, RouteArgument>;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, handler) ?? []) as Type[];
  const entry = Object.entries(args).find(([key, arg]) => key.split(':')[0] === String(kind) && arg.data === undefined);
  const type = entry ? types[entry[1].index] : undefined;
  return BUILT_IN_TYPES.has(type) ? undefined : type;
}

function handlerNames(controller: Type): string[] {
  const prototype = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype).filter(
    (name) => name !== 'constructor' && typeof prototype[name] === 'function' && Reflect.hasMetadata(METHOD_METADATA, prototype[name] as object),
  );
}

function routeFacts(controller: Type, handler: string): RouteFacts {
  const method = (controller.prototype as Record<string, object>)[handler];
  return {
    operationId: `${controller.name}_${handler}`,
    requestMethod: Reflect.getMetadata(METHOD_METADATA, method) as RequestMethod,
    keyed: usesKeyGuard(controller) || usesKeyGuard(method),
    body: argumentClass(controller, handler, RouteParamtypes.BODY),
    query: argumentClass(controller, handler, RouteParamtypes.QUERY),
    multipart: Reflect.getMetadata(MULTIPART_BODY, method) as MultipartBody | undefined,
  };
}

/** Every route of every registered controller, by operationId. */
export function collectRouteFacts(modules: ModulesContainer): Map<string, RouteFacts> {
  const facts = new Map<string, RouteFacts>();
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type;
      for (const handler of handlerNames(controller)) {
        const route = routeFacts(controller, handler);
        if (facts.has(route.operationId)) throw new Error(`Two routes share the operationId ${route.operationId}`);
        facts.set(route.operationId, route);
      }
    }
  }
  return facts;
}
