// Issues a key: a fresh id and secret, only the secret's hash in the ApiKeyIssued event; the plain key
// is in this answer only.
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import { ApiError } from '../../common/api-error';
import { generateApiKey, hashApiKey } from '../../access/key-hash';
import { SpendReader } from '../../budgets/spend-reader';
import { decideIssue, evolve, type ApiKeyState } from '../domain/api-key';
import { apiKeyStream } from '../domain/key-events';
import { decideAndAppend } from '../decide-and-append';
import { KeysContext } from '../keys.context';
import { normalizeUsd, viewOfState, type KeyView } from '../key-view';
import { timestampOf } from '../timestamp';
import { IssueKeyCommand } from './issue-key.command';

export type IssuedKeyView = KeyView & { key: string };

export const newKeyId = () => `key_${randomBytes(12).toString('base64url')}`;

@CommandHandler(IssueKeyCommand)
export class IssueKeyHandler implements ICommandHandler<IssueKeyCommand, IssuedKeyView> {
  constructor(
    private readonly keys: KeysContext,
    private readonly spend: SpendReader,
  ) {}

  async execute({ body, by }: IssueKeyCommand): Promise<IssuedKeyView> {
    const known = new Set(this.keys.config.organizations.map((o) => o.id));
    const unknown = body.organizations.find((id) => !known.has(id));
    if (unknown) throw ApiError.badRequest('unknown_organization', `Unknown organization '${unknown}'.`, 'organizations');
    const defaultOrganization = body.default_organization ?? body.organizations[0];
    if (!body.organizations.includes(defaultOrganization)) {
      throw ApiError.badRequest('invalid_default_organization', `default_organization '${defaultOrganization}' is not one of the key's organizations.`, 'default_organization');
    }
    const plainKey = generateApiKey();
    const keyId = newKeyId();
    const state = await decideAndAppend<ApiKeyState>(this.keys.store, this.keys.projection, apiKeyStream(keyId), () => {
      const events = decideIssue(null, {
        keyId, hash: hashApiKey(plainKey), name: body.name, organizations: [...new Set(body.organizations)], defaultOrganization,
        expiresAt: body.expires_at ? timestampOf(body.expires_at) : null,
        limitUsd: body.limit_usd == null ? null : normalizeUsd(body.limit_usd),
        limitReset: body.limit_reset ?? null,
        rateLimit: body.rate_limit ? { requests: body.rate_limit.requests, window_seconds: body.rate_limit.window_seconds } : null,
        at: new Date().toISOString(), by,
      });
      return { events, state: events.reduce(evolve, null)! };
    });
    return { ...viewOfState(state, this.spend, Date.now()), key: plainKey };
  }
}
