import { fixtureModel } from '../../../test/support/catalog-model.fixture';
import { CatalogService } from '../../catalog/catalog.service';
import type { GatewayConfig } from '../../config/gateway-config';
import { resolveChatModel } from './resolve-chat-model';

const catalog = new CatalogService({
  models: [fixtureModel({ id: 'chat-a', kind: 'chat' }), fixtureModel({ id: 'chat-b', kind: 'chat' }), fixtureModel({ id: 'voice', kind: 'speech' })],
  aliases: [{ id: 'chat', members: ['chat-a', 'chat-b'] }, { id: 'speaker', members: ['voice'] }],
} as unknown as GatewayConfig);

describe('resolveChatModel', () => {
  it('resolves an id, and an alias to its least busy chat member', () => {
    expect(resolveChatModel(catalog, 'chat-b', () => 0).id).toBe('chat-b');
    expect(resolveChatModel(catalog, 'chat', (id) => (id === 'chat-a' ? 3 : 1)).id).toBe('chat-b');
    expect(resolveChatModel(catalog, 'chat', () => 0).id).toBe('chat-a');
  });

  it('answers 404 for unknown ids and 400 for models of another kind', () => {
    expect(() => resolveChatModel(catalog, 'nope', () => 0)).toThrow(expect.objectContaining({ status: 404, code: 'model_not_found' }));
    expect(() => resolveChatModel(catalog, 'speaker', () => 0)).toThrow(expect.objectContaining({ status: 400, code: 'unsupported_model' }));
  });
});
