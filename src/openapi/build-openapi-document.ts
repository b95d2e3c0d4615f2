// Builds the served OpenAPI 3.1 document: @nestjs/swagger scans the registered controllers (paths,
// methods, path parameters, @Body DTO references); the route facts, the class-validator DTO schemas
// and operations.ts complete it; everything is then put in 3.1 form.
import type { INestApplication } from '@nestjs/common';
import type { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { HEADERS, RESPONSES, SECURITY_SCHEMES } from './components';
import { OperationObject, documentOperation } from './document-operation';
import { SCHEMA_REF_PREFIX, dtoSchemas } from './dto-schemas';
import type { JsonSchema } from './json-schema';
import { OAS_METHODS, convertNullable } from './oas31';
import { operationSpec } from './operations';
import { RouteFacts, collectRouteFacts } from './route-facts';
import { RESPONSE_SCHEMAS } from './schemas';

export const API_VERSION = '0.1.37';

type PathItem = Partial<Record<(typeof OAS_METHODS)[number], OperationObject>>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, JsonSchema> } & Record<string, unknown>;
}

const INFO = {
  title: 'Inference Gateway API',
  version: API_VERSION,
  description:
    'OpenAI-compatible inference gateway that meters and prices every request. Most responses carry a `usage` ' +
    'object: a measured per-modality usage vector and the priced cost in USD micros.',
};

/** Nest's @All routes get the method appended to their operationId. */
function routeOf(routes: Map<string, RouteFacts>, operationId: string, method: string): RouteFacts {
  const route = routes.get(operationId) ?? routes.get(operationId.replace(new RegExp(`_${method}$`), ''));
  if (!route) throw new Error(`No controller route behind the scanned operation ${operationId}`);
  return route;
}

function referencedSchemaNames(value: unknown, names = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => referencedSchemaNames(item, names));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(SCHEMA_REF_PREFIX)) names.add(inner.slice(SCHEMA_REF_PREFIX.length));
      else referencedSchemaNames(inner, names);
    }
  }
  return names;
}

/** Adds each referenced schema found among `candidates`, and what those reference in turn. */
function addReferencedSchemas(document: OpenApiDocument, candidates: Record<string, JsonSchema>): void {
  const schemas = document.components.schemas;
  for (let missing = [...referencedSchemaNames(document)].filter((name) => !schemas[name] && candidates[name]); missing.length > 0; ) {
    missing.forEach((name) => (schemas[name] = candidates[name]));
    missing = [...referencedSchemaNames(document)].filter((name) => !schemas[name] && candidates[name]);
  }
}

function documentPaths(scanned: Record<string, PathItem>, routes: Map<string, RouteFacts>, dtos: Record<string, JsonSchema>) {
  const paths: Record<string, PathItem> = {};
  const requestSchemas: Record<string, JsonSchema> = {};
  for (const [path, item] of Object.entries(scanned)) {
    for (const method of OAS_METHODS) {
      const scannedOperation = item[method];
      if (!scannedOperation) continue;
      const route = routeOf(routes, scannedOperation.operationId, method);
      const documented = documentOperation(path, scannedOperation, route, operationSpec(method, path), dtos);
      paths[path] = { ...paths[path], [method]: documented.operation };
      Object.assign(requestSchemas, documented.schemas);
    }
  }
  return { paths, requestSchemas };
}

const tagsOf = (paths: Record<string, PathItem>) =>
  [...new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((operation) => operation.tags ?? [])))].map((name) => ({ name }));

/** `app` needs only what the swagger scanner reads (container, config, HTTP adapter). */
export function buildOpenApiDocument(app: INestApplication, modules: ModulesContainer): OpenApiDocument {
  const scanned = SwaggerModule.createDocument(app, new DocumentBuilder().setOpenAPIVersion('3.1.0').build());
  const dtos = dtoSchemas();
  const { paths, requestSchemas } = documentPaths(scanned.paths as Record<string, PathItem>, collectRouteFacts(modules), dtos);
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: INFO,
    servers: [{ url: '/' }],
    tags: tagsOf(paths),
    paths,
    components: {
      schemas: { ...RESPONSE_SCHEMAS, ...requestSchemas },
      responses: RESPONSES,
      headers: HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
  addReferencedSchemas(document, { ...(scanned.components?.schemas as Record<string, JsonSchema>), ...dtos });
  return convertNullable(document);
}
