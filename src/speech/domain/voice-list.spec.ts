import { voiceList } from './voice-list';
import { cloneModel, designModel, presetModel } from '../../../test/support/speech-models.fixture';

describe('voiceList', () => {
  it('lists one model\'s presets in catalog order', () => {
    const list = voiceList('chorus-voices', [presetModel]);
    expect(list.object).toBe('list');
    expect(list.data.map((v) => v.id)).toEqual(['vivian', 'serena', 'ryan']);
    expect(list.data[0]).toEqual({ id: 'vivian', object: 'voice', type: 'preset', models: ['chorus-voices'] });
    expect(list.uploaded_voices).toEqual([]);
  });

  it('unions an alias\'s members once per id, naming every model that accepts a shared id', () => {
    const list = voiceList('chorus', [presetModel, cloneModel]);
    expect(list.data.map((v) => v.id)).toEqual(['vivian', 'serena', 'ryan', 'amber', 'basil']);
    expect(list.data.find((v) => v.id === 'ryan')?.models).toEqual(['chorus-voices', 'chorus-clone']);
  });

  it('lowercases ids and lists nothing for a model without presets', () => {
    const shouting = { ...presetModel, voices: { presets: ['Vivian'] } };
    expect(voiceList('x', [shouting]).data.map((v) => v.id)).toEqual(['vivian']);
    expect(voiceList('chorus-design', [designModel]).data).toEqual([]);
  });
});
