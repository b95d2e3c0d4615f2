import type { DecisionQuestion } from './decision.types';
import { decisionWireBody } from './decision-wire';

const questions: DecisionQuestion[] = [
  { type: 'predicate', instructions: 'Spam?', name: 'spam' },
  { type: 'score', instructions: 'Urgency?', levels: [{ label: 'low', description: 'can wait' }, { label: 'high', value: 10 }] },
];

describe('decisionWireBody', () => {
  it('names the upstream model, drops stream and level values, keeps unknown fields', () => {
    const body = decisionWireBody(
      { model: 'verdict', input: 'text', questions, stream: false, safety_identifier: 'user-1', metadata: { a: 1 } } as never,
      'verdict-upstream',
      { convertedImages: [] },
    );
    expect(body).toEqual({
      model: 'verdict-upstream',
      input: 'text',
      safety_identifier: 'user-1',
      metadata: { a: 1 },
      questions: [
        { type: 'predicate', instructions: 'Spam?', name: 'spam' },
        { type: 'score', instructions: 'Urgency?', levels: [{ label: 'low', description: 'can wait' }, { label: 'high' }] },
      ],
    });
  });

  it('forwards the measured audio and converted images instead of what the client sent', () => {
    const input = [{ role: 'user', content: [{ type: 'input_text', text: 'x' }, { type: 'input_image', image_url: 'data:image/bmp;base64,AA==', detail: 'low' }] }];
    const body = decisionWireBody(
      { model: 'verdict', input, questions, input_audio: { data: 'AAAA', format: 'flac' } },
      'verdict',
      { convertedImages: [{ message: 0, part: 1, url: 'data:image/png;base64,BB==' }], forwardedAudio: { data: 'CCCC', format: 'wav' } },
    );
    expect(body.input).toEqual([{ role: 'user', content: [{ type: 'input_text', text: 'x' }, { type: 'input_image', image_url: 'data:image/png;base64,BB==', detail: 'low' }] }]);
    expect(body.input_audio).toEqual({ data: 'CCCC', format: 'wav' });
    expect(input[0].content[1]).toMatchObject({ image_url: 'data:image/bmp;base64,AA==' });
  });
});
