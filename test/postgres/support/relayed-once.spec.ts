import { checkRelayedOnce, type StoredRelayedEvent, type TopicMessage } from './relayed-once';

const stored: StoredRelayedEvent[] = [
  { id: 'a1', organizationId: 'org-a' },
  { id: 'b1', organizationId: 'org-b' },
  { id: 'a2', organizationId: 'org-a' },
  { id: 'a3', organizationId: 'org-a' },
];
let offsets = 0;
const message = (eventId: string | null, partition = eventId?.startsWith('b') ? 1 : 0, value = `{"id":"${eventId}"}`): TopicMessage => ({
  partition,
  offset: String(offsets++),
  key: eventId?.startsWith('b') ? 'org-b' : 'org-a',
  eventId,
  value,
});
const clean = { duplicates: 0, missing: [], unexpected: [], differingDuplicates: [], outOfOrder: [] };

it('accepts every stored event delivered once, each organization in store order', () => {
  expect(checkRelayedOnce(stored, ['a1', 'b1', 'a2', 'a3'].map((id) => message(id)))).toEqual({ ...clean, messages: 4 });
});

it('accepts a batch delivered again (a relay that died before its checkpoint), counting the repeats', () => {
  const report = checkRelayedOnce(stored, ['a1', 'a2', 'b1', 'a1', 'a2', 'a3'].map((id) => message(id)));
  expect(report).toEqual({ ...clean, messages: 6, duplicates: 2 });
});

it('reports a stored event never delivered, and one delivered that is not stored', () => {
  const report = checkRelayedOnce(stored, ['a1', 'b1', 'a3', 'x9', null].map((id) => message(id)));
  expect(report.missing).toEqual(['a2']);
  expect(report.unexpected).toEqual(['x9', expect.stringMatching(/no event-id/)]);
});

it('reports an event id delivered twice with a different value', () => {
  const report = checkRelayedOnce(stored, [message('a1'), message('b1'), message('a2'), message('a2', 0, '{"other":1}'), message('a3')]);
  expect(report.differingDuplicates).toEqual(['a2']);
});

it('reports an organization whose events first arrive out of store order, or on two partitions', () => {
  expect(checkRelayedOnce(stored, ['a1', 'b1', 'a3', 'a2'].map((id) => message(id))).outOfOrder).toEqual(['org-a']);
  expect(checkRelayedOnce(stored, [message('a1'), message('b1'), message('a2', 2), message('a3')]).outOfOrder).toEqual(['org-a']);
});
