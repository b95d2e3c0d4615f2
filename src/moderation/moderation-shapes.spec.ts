import { moderationError, moderationInputOf, moderationOutputOf, toModerationResults } from './moderation-shapes';

describe('moderation shapes', () => {
  it('joins every message text and keeps inline images as separate items', () => {
    const messages = [
      { role: 'system', content: 'be kind' },
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }, { type: 'input_audio' }] },
      { role: 'assistant', content: null },
    ];
    expect(moderationInputOf(messages)).toEqual([
      { type: 'text', text: 'be kind\nlook' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } },
    ]);
    expect(moderationInputOf([{ content: null }])).toEqual([]);
  });

  it('moderates the answer texts that exist', () => {
    expect(moderationOutputOf(['a', null, '', 'b'])).toEqual([{ type: 'text', text: 'a\nb' }]);
    expect(moderationOutputOf([null])).toEqual([]);
  });

  it('adds the spec model and type to each service result', () => {
    const result = { flagged: false, categories: {}, category_scores: {}, category_applied_input_types: {} };
    expect(toModerationResults({ model: 'omni', results: [result] })).toEqual({
      model: 'omni', type: 'moderation_results', results: [{ ...result, model: 'omni', type: 'moderation_result' }],
    });
    expect(moderationError('x', 'y')).toEqual({ code: 'x', message: 'y', type: 'error' });
  });
});
