// The session (API key and organization, in this tab's sessionStorage only) and the keyed API calls.
const KEY = 'gateway-console.key';
const ORG = 'gateway-console.organization';
const KIND = 'gateway-console.kind';

/** A model key sees costs, requests and models; a management key sees the Keys view only. */
export type KeyKind = 'model' | 'management';

export interface Session {
  key: string;
  organization: string;
  kind: KeyKind;
}

export function loadSession(): Session | null {
  const key = sessionStorage.getItem(KEY);
  const kind: KeyKind = sessionStorage.getItem(KIND) === 'management' ? 'management' : 'model';
  return key ? { key, organization: sessionStorage.getItem(ORG) ?? '', kind } : null;
}

export function saveSession(session: Session | null): void {
  if (!session) {
    sessionStorage.removeItem(KEY);
    sessionStorage.removeItem(ORG);
    sessionStorage.removeItem(KIND);
    return;
  }
  sessionStorage.setItem(KEY, session.key);
  sessionStorage.setItem(ORG, session.organization);
  sessionStorage.setItem(KIND, session.kind);
}

export class ApiFailure extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** GET a keyed endpoint; the spec's error envelope (or 422 detail) becomes an ApiFailure with its message. */
export async function apiGet(session: Session | null, path: string, accept = 'application/json'): Promise<Response> {
  const headers: Record<string, string> = { accept };
  if (session) headers.authorization = `Bearer ${session.key}`;
  if (session?.organization) headers['x-organization-id'] = session.organization;
  const response = await fetch(path, { headers });
  if (!response.ok) throw new ApiFailure(response.status, await failureMessage(response));
  return response;
}

async function failureMessage(response: Response): Promise<string> {
  try {
    const body = await response.json();
    if (body?.error?.message) return `${response.status}: ${body.error.message}`;
    if (Array.isArray(body?.detail)) return `${response.status}: ${body.detail.map((d: { msg: string; loc: unknown[] }) => `${d.loc.join('.')}: ${d.msg}`).join('; ')}`;
  } catch {
    // not JSON: the status says enough
  }
  return `${response.status} ${response.statusText}`;
}

export async function apiJson<T>(session: Session | null, path: string): Promise<T> {
  return (await apiGet(session, path)).json() as Promise<T>;
}

/** POST/PATCH/DELETE with a JSON body; failures as apiGet's. */
export async function apiSend<T>(session: Session, method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${session.key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new ApiFailure(response.status, await failureMessage(response));
  return response.json() as Promise<T>;
}
