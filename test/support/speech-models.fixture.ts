// Speech catalog entries for unit tests, shaped like config/gateway.example.yaml's chorus models
// with short preset lists so expectations stay readable.
import type { CatalogModel } from '../../src/catalog/catalog.types';
import { fixtureModel } from './catalog-model.fixture';

function speechModel(id: string, overrides: Partial<CatalogModel>): CatalogModel {
  return fixtureModel({
    id,
    kind: 'speech',
    architecture: {
      modality: 'text->audio',
      input_modalities: ['text'],
      output_modalities: ['audio'],
      audio_placeholder: { per_clip: 0, tokens_per_second: 25, rounding: 'ceil' },
    },
    pricing: { input: { text: { characters: '0.000015' } }, output: { audio: { tokens: '0.000001' } } },
    output_defaults: { sampling_rate: 24000, audio_format: 'pcm16', channels: 1 },
    supported_parameters: ['voice', 'instructions', 'speed', 'language', 'response_format', 'stream_format'],
    ...overrides,
  });
}

export const presetModel = speechModel('chorus-voices', { voices: { presets: ['vivian', 'serena', 'ryan'] } });

export const cloneModel = speechModel('chorus-clone', {
  voices: { presets: ['amber', 'basil', 'ryan'] },
  supported_parameters: ['voice', 'instructions', 'speed', 'language', 'response_format', 'stream_format', 'ref_audio', 'ref_text'],
  pricing: {
    input: { text: { characters: '0.000015' }, audio: { tokens: '0.0000005' }, voice: { count: '0.002' } },
    output: { audio: { tokens: '0.000001' } },
  },
  media_profiles: {
    audio: {
      accepts: { containers: ['wav'], sample_rate: [16000, 48000], channels: [1] },
      converts_to: { codec: 'pcm_s16le', container: 'wav', sample_rate: 24000, channels: 1 },
      metering: 'boundary',
    },
  },
});

export const designModel = speechModel('chorus-design', {
  supported_parameters: ['instructions', 'speed', 'language', 'response_format', 'stream_format'],
  pricing: {
    input: { text: { characters: '0.00002' }, voice: { count: '0.004' } },
    output: { audio: { tokens: '0.000001' } },
  },
});
