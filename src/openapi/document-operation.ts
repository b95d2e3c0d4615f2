// One operation of the document: the swagger scan's skeleton, completed with what the route's facts
// imply (key, rate limit, validation errors, request schemas) and what operations.ts states.
import { ERROR_RESPONSE_NAMES, RequestBodyObject, ResponseObject, responseRef, successHeaders } from './components';
import type { JsonSchema } from './json-schema';
import { ref } from './json-schema';
import type { OperationSpec } from './operations';
import { ParameterObject, missingPathParameters, multipartSchema, queryParameters } from './request-schemas';
import type { RouteFacts } from './route-facts';

export interface OperationObject {
  operationId: string;
  summary?: string;
  tags?: string[];
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject | { $ref: string }>;
  security?: Record<string, string[]>[];
  deprecated?: boolean;
}

/** Later declarations replace earlier ones of the same name and location. */
function mergeParameters(...groups: ParameterObject[][]): ParameterObject[] {
  const byKey = new Map<string, ParameterObject>();
  for (const parameter of groups.flat()) byKey.set(`${parameter.in} ${parameter.name}`, parameter);
  return [...byKey.values()];
}

/** The path's own template parameters: a concrete path documented for a templated route has none. */
const templateParameters = (path: string, parameters: ParameterObject[]) =>
  parameters.filter((parameter) => parameter.in !== 'path' || path.includes(`{${parameter.name}}`));

const KEYED_ERRORS = [401, 402, 403, 429, 503];
/** Malformed body, too large, wrong Content-Type, schema violation. */
const BODY_ERRORS = [400, 413, 415, 422];

/** The error statuses an operation can answer: derived from its route, plus the spec's extras. */
export function errorStatuses(route: RouteFacts, spec: Pick<OperationSpec, 'errors' | 'requestBody'> = {}): number[] {
  const statuses = new Set(spec.errors ?? []);
  if (route.keyed) KEYED_ERRORS.forEach((status) => statuses.add(status));
  if (route.body || route.multipart || spec.requestBody) BODY_ERRORS.forEach((status) => statuses.add(status));
  if (route.query) statuses.add(422);
  return [...statuses].sort((a, b) => a - b);
}

function responses(route: RouteFacts, spec: OperationSpec | undefined): OperationObject['responses'] {
  const documented: OperationObject['responses'] = {};
  for (const [status, response] of Object.entries(spec?.responses ?? { 200: { description: 'Not documented in operations.ts.' } })) {
    documented[status] = { ...response, headers: { ...successHeaders(route.keyed), ...response.headers } };
  }
  for (const status of errorStatuses(route, spec)) {
    documented[String(status)] ??= responseRef(ERROR_RESPONSE_NAMES[status]);
  }
  return documented;
}

export interface DocumentedOperation {
  operation: OperationObject;
  /** Component schemas this operation's request needs (multipart forms), by name. */
  schemas: Record<string, JsonSchema>;
}

export function documentOperation(
  path: string,
  scanned: OperationObject,
  route: RouteFacts,
  spec: OperationSpec | undefined,
  dtoSchemas: Record<string, JsonSchema>,
): DocumentedOperation {
  const declared = templateParameters(
    path,
    mergeParameters(scanned.parameters ?? [], route.query ? queryParameters(dtoSchemas[route.query.name] ?? {}) : [], spec?.parameters ?? []),
  );
  const operation: OperationObject = {
    operationId: scanned.operationId,
    summary: spec?.summary,
    tags: spec ? [spec.tag] : scanned.tags,
    parameters: [...declared, ...missingPathParameters(path, declared)],
    requestBody: scanned.requestBody ?? spec?.requestBody,
    responses: responses(route, spec),
    ...(route.keyed ? { security: [{ bearer: [] }] } : {}),
    ...(spec?.deprecated ? { deprecated: true } : {}),
  };
  const schemas: Record<string, JsonSchema> = {};
  if (route.multipart) {
    const name = route.multipart.dto.name;
    schemas[name] = multipartSchema(dtoSchemas[name] ?? {}, route.multipart);
    operation.requestBody = { required: true, content: { 'multipart/form-data': { schema: ref(name) } } };
  }
  return { operation, schemas };
}
