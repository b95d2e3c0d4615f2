// Builds the served OpenAPI 3.1 document: @nestjs/swagger scans the registered controllers (paths,
// methods, path parameters, @Body DTO references); the route facts, the class-validator DTO schemas
// and operations.ts complete it; everything is then put in 3.1 form.
import { INestApplication, RequestMethod } from '@nestjs/common';
import type { ModelKind } from '../catalog/catalog.types';
import type { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { HEADERS, RESPONSES, SECURITY_SCHEMES } from './components';
import { OperationObject, documentOperation } from './document-operation';
import { SCHEMA_REF_PREFIX, dtoSchemas } from './dto-schemas';
import type { JsonSchema } from './json-schema';
import { OAS_METHODS, convertNullable } from './oas31';
import { OPERATIONS, operationSpec } from './operations';
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

/** Nest's @All routes get the method appended to their operationId, concrete paths their last segment. */
function routeOf(routes: Map<string, RouteFacts>, operationId: string): RouteFacts {
  for (let id = operationId; id.includes('_'); id = id.slice(0, id.lastIndexOf('_'))) {
    const route = routes.get(id);
    if (route) return route;
  }
  throw new Error(`No controller route behind the scanned operation ${operationId}`);
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

/** The scan leaves out methods of an @All route it has no name for (trace); the route answers them too. */
function withEveryMethodOfAllRoutes(scanned: Record<string, PathItem>, routes: Map<string, RouteFacts>): Record<string, PathItem> {
  const completed: Record<string, PathItem> = {};
  for (const [path, item] of Object.entries(scanned)) {
    const operations = Object.values(item) as OperationObject[];
    const all = operations.find((operation) => routes.get(operation.operationId.replace(/_[a-z]+$/, ''))?.requestMethod === RequestMethod.ALL);
    completed[path] = { ...item };
    if (!all) continue;
    const base = all.operationId.replace(/_[a-z]+$/, '');
    for (const method of OAS_METHODS) completed[path][method] ??= { ...all, operationId: `${base}_${method}` };
  }
  return completed;
}

/** Concrete paths operations.ts documents on their own, served by a scanned templated route. */
function concretePathsOf(scanned: Record<string, PathItem>): Record<string, PathItem> {
  const concrete: Record<string, PathItem> = {};
  for (const [key, spec] of Object.entries(OPERATIONS)) {
    if (!spec.servedBy) continue;
    const [method, path] = key.split(' ');
    const [, templatePath] = spec.servedBy.split(' ');
    const lower = method.toLowerCase() as (typeof OAS_METHODS)[number];
    const template = Object.entries(scanned).find(([scannedPath]) => templateShape(scannedPath) === templateShape(templatePath))?.[1][lower];
    if (!template) throw new Error(`${key} is served by ${spec.servedBy}, which no controller has`);
    concrete[path] = { [lower]: { ...template, operationId: `${template.operationId}_${path.split('/').pop()}` } };
  }
  return concrete;
}

const templateShape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

function documentPaths(scanned: Record<string, PathItem>, routes: Map<string, RouteFacts>, dtos: Record<string, JsonSchema>) {
  const paths: Record<string, PathItem> = {};
  const requestSchemas: Record<string, JsonSchema> = {};
  const items = { ...withEveryMethodOfAllRoutes(scanned, routes), ...concretePathsOf(scanned) };
  for (const [path, item] of Object.entries(items)) {
    for (const method of OAS_METHODS) {
      const scannedOperation = item[method];
      if (!scannedOperation) continue;
      const route = routeOf(routes, scannedOperation.operationId);
      const documented = documentOperation(path, scannedOperation, route, operationSpec(method, path), dtos);
      paths[path] = { ...paths[path], [method]: documented.operation };
      Object.assign(requestSchemas, documented.schemas);
    }
  }
  return { paths, requestSchemas };
}

const tagsOf = (paths: Record<string, PathItem>) =>
  [...new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((operation) => operation.tags ?? [])))].map((name) => ({ name }));

/** The catalog's model ids of a kind. */
export type ModelIds = (kind: ModelKind) => string[];

/**
 * The catalog's ids as `examples` of each operation's `model` (body property or query parameter):
 * clients and fuzzers see names that exist, while the schema stays a string, as the validation has it.
 */
function addModelExamples(document: OpenApiDocument, modelIds: ModelIds): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item) as [string, OperationObject][]) {
      const kind = operationSpec(method, path)?.modelKind;
      if (!kind) continue;
      const examples = modelIds(kind);
      for (const parameter of operation.parameters ?? []) {
        if (parameter.name === 'model') parameter.schema = { ...parameter.schema, examples };
      }
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        const name = media.schema?.$ref?.slice(SCHEMA_REF_PREFIX.length);
        const schema = name ? document.components.schemas[name] : undefined;
        const model = schema?.properties?.model;
        if (schema && model) document.components.schemas[name!] = { ...schema, properties: { ...schema.properties, model: { ...model, examples } } };
      }
    }
  }
}

/** `app` needs only what the swagger scanner reads (container, config, HTTP adapter). */
export function buildOpenApiDocument(app: INestApplication, modules: ModulesContainer, modelIds?: ModelIds): OpenApiDocument {
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
  if (modelIds) addModelExamples(document, modelIds);
  return convertNullable(document);
}
