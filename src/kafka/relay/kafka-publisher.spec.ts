import { groupByTopic } from './kafka-publisher';

describe('groupByTopic', () => {
  it('groups messages per topic and keeps their order within each topic', () => {
    const message = (topic: string, id: string) => ({ topic, key: 'org', value: id, headers: { 'event-id': id } });
    const grouped = groupByTopic([message('usage', 'u1'), message('cost', 'c1'), message('usage', 'u2')]);
    expect(grouped).toEqual([
      { topic: 'usage', messages: [{ key: 'org', value: 'u1', headers: { 'event-id': 'u1' } }, { key: 'org', value: 'u2', headers: { 'event-id': 'u2' } }] },
      { topic: 'cost', messages: [{ key: 'org', value: 'c1', headers: { 'event-id': 'c1' } }] },
    ]);
  });
});
