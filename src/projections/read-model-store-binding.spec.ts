import { decideBinding } from './read-model-store-binding';

describe('read models bound to their event store', () => {
  const store = { storeId: 'store-a', head: '100' };

  it('keeps read models of this store whose checkpoints are at or below the head', () => {
    expect(decideBinding('store-a', ['99', '100'], store)).toEqual({ kind: 'keep' });
    expect(decideBinding('store-a', [], { storeId: 'store-a', head: null })).toEqual({ kind: 'keep' });
  });

  it('adopts read models recorded before stores had an identity when they fit the store', () => {
    expect(decideBinding(null, ['100'], store)).toEqual({ kind: 'keep' });
  });

  it('rebuilds for another store', () => {
    expect(decideBinding('store-b', ['1'], store)).toMatchObject({ kind: 'rebuild', reason: expect.stringContaining('store-b') });
  });

  it('rebuilds when a checkpoint is one past the head (a restore of an older backup) or the store is empty', () => {
    expect(decideBinding('store-a', ['50', '101'], store)).toMatchObject({ kind: 'rebuild', reason: expect.stringContaining('101') });
    expect(decideBinding(null, ['1'], { storeId: 'store-a', head: null })).toMatchObject({ kind: 'rebuild' });
  });

  it('compares EventStoreDB positions component by component', () => {
    expect(decideBinding('s', ['99/99'], { storeId: 's', head: '100/0' })).toEqual({ kind: 'keep' });
    expect(decideBinding('s', ['100/1'], { storeId: 's', head: '100/0' })).toMatchObject({ kind: 'rebuild' });
  });
});
