// Which routes a guard protects, as Fastify names them (`POST /v1/images/:path`), read from Nest's
// decorator metadata so the hook that authenticates before the body follows the controllers.
import { RequestMethod, type Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { ModulesContainer } from '@nestjs/core';
import { KeyGuard } from './key.guard';

const guardedBy = (guard: Type, target: object): boolean =>
  ((Reflect.getMetadata(GUARDS_METADATA, target) as unknown[] | undefined) ?? []).some((used) => used === guard || used instanceof guard);

const pathsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [value === undefined ? '' : String(value)]);

/** `/` + the controller's path + the handler's, without doubled or trailing slashes. */
export function routePath(controllerPath: string, handlerPath: string): string {
  const joined = `/${controllerPath}/${handlerPath}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

/** `METHOD /path` of every keyed route of every registered controller. */
export function keyedRoutes(modules: ModulesContainer): Set<string> {
  return routesGuardedBy(KeyGuard, modules);
}

/** Each guarded route with the guard instance that admits its caller, for the hook that runs before the body. */
export function routeAdmissions<A>(modules: ModulesContainer, guards: readonly [Type, A][]): Map<string, A> {
  const admissions = new Map<string, A>();
  for (const [guard, admission] of guards) for (const route of routesGuardedBy(guard, modules)) admissions.set(route, admission);
  return admissions;
}

/** `METHOD /path` of every route of every registered controller that `guard` protects. */
export function routesGuardedBy(guard: Type, modules: ModulesContainer): Set<string> {
  const routes = new Set<string>();
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function' || !Reflect.hasMetadata(METHOD_METADATA, handler)) continue;
        if (!guardedBy(guard, controller) && !guardedBy(guard, handler)) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        for (const base of pathsOf(Reflect.getMetadata(PATH_METADATA, controller))) {
          for (const own of pathsOf(Reflect.getMetadata(PATH_METADATA, handler))) routes.add(`${method} ${routePath(base, own)}`);
        }
      }
    }
  }
  return routes;
}
