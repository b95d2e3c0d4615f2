import type { CatalogModel, PricingMetadata } from '../../catalog/catalog.types';
import { FIXTURE_PRICING, fixtureModel } from '../../../test/support/catalog-model.fixture';
import { missingPrices } from './missing-prices';

const architecture = fixtureModel().architecture;

const speechModel = (pricing: PricingMetadata, parameters: string[] = []): CatalogModel =>
  fixtureModel({
    kind: 'speech',
    architecture: { ...architecture, input_modalities: ['text'], output_modalities: ['audio'] },
    supported_parameters: parameters,
    pricing,
  });

describe('missingPrices', () => {
  it.each<[string, CatalogModel, string[]]>([
    ['a complete chat model', fixtureModel(), []],
    ['zero is a price', fixtureModel({ pricing: { input: { text: { tokens: '0' }, image: { count: '0' }, audio: { tokens: '0' }, video: { tokens: '0' } }, output: { text: { tokens: '0' } } } }), []],
    ['output text tokens', fixtureModel({ pricing: { ...FIXTURE_PRICING, output: {} } }), ['pricing.output.text.tokens']],
    ['null is no price', fixtureModel({ pricing: { ...FIXTURE_PRICING, input: { ...FIXTURE_PRICING.input, audio: { tokens: null } } } }), ['pricing.input.audio.tokens']],
    ['images by tokens or by count', fixtureModel({ pricing: { ...FIXTURE_PRICING, input: { ...FIXTURE_PRICING.input, image: {} } } }), ['pricing.input.image.tokens or pricing.input.image.count']],
    ['video tokens', fixtureModel({ pricing: { ...FIXTURE_PRICING, input: { ...FIXTURE_PRICING.input, video: undefined } } }), ['pricing.input.video.tokens']],
    ['speech input by characters, output audio tokens', speechModel({ input: { text: { tokens: '0.000001' } }, output: {} }), ['pricing.input.text.characters', 'pricing.output.audio.tokens']],
    ['a priced speech model', speechModel({ input: { text: { characters: '0.000015' } }, output: { audio: { tokens: '0' } } }), []],
    ['voice cloning by ref_audio', speechModel({ input: { text: { characters: '0' } }, output: { audio: { tokens: '0' } } }, ['ref_audio']), ['pricing.input.voice.count']],
    ['voice design by the voice output modality', fixtureModel({ architecture: { ...architecture, output_modalities: ['text', 'voice'] } }), ['pricing.input.voice.count']],
    ['the image relay bills images, not its prompt', fixtureModel({ kind: 'image', architecture: { ...architecture, input_modalities: ['text', 'image'], output_modalities: ['image'] }, pricing: { input: { image: { count: '0.002' } }, output: { image: { count: '0.04' } } } }), []],
    ['generated images by count', fixtureModel({ architecture: { ...architecture, output_modalities: ['text', 'image'] } }), ['pricing.output.image.count']],
    ['a transcript\'s text needs no price (billed by its audio)', fixtureModel({ kind: 'transcription', architecture: { ...architecture, input_modalities: ['audio'], output_modalities: ['text'] }, pricing: { input: { audio: { tokens: '0.0000004' } }, output: {} } }), []],
    ['web search', fixtureModel({ supported_parameters: ['web_search_options'] }), ['pricing.web_search']],
    ['tools need output text tokens', fixtureModel({ architecture: { ...architecture, output_modalities: [] }, supported_parameters: ['tools'], pricing: { ...FIXTURE_PRICING, output: {} } }), ['pricing.output.text.tokens']],
    ['reasoning without any output token rate', fixtureModel({ architecture: { ...architecture, output_modalities: [] }, supported_parameters: ['reasoning'], pricing: { ...FIXTURE_PRICING, output: {} } }), ['pricing.internal_reasoning or pricing.output.text.tokens']],
    ['reasoning covered by internal_reasoning', fixtureModel({ architecture: { ...architecture, output_modalities: [] }, supported_parameters: ['reasoning_effort'], pricing: { ...FIXTURE_PRICING, output: {}, internal_reasoning: '0.000003' } }), []],
  ])('%s', (_name, model, problems) => {
    expect(missingPrices(model)).toEqual(problems);
  });
});

describe('missingPrices: price book errors', () => {
  const withPricing = (pricing: Partial<PricingMetadata>, placeholders: object = {}) =>
    fixtureModel({ pricing: { ...FIXTURE_PRICING, ...pricing }, architecture: { ...architecture, ...placeholders } });

  it.each<[string, CatalogModel, string[]]>([
    ['audio priced without audio_placeholder', withPricing({}, { audio_placeholder: null }), ['pricing.input.audio.tokens: audio priced without architecture.audio_placeholder']],
    ['audio at price 0 needs no placeholder', withPricing({ input: { ...FIXTURE_PRICING.input, audio: { tokens: '0' } } }, { audio_placeholder: null }), []],
    ['image and video tokens priced without visual_placeholder', withPricing({}, { visual_placeholder: null }), [
      'pricing.input.image.tokens: image tokens priced without architecture.visual_placeholder',
      'pricing.input.video.tokens: video tokens priced without architecture.visual_placeholder',
    ]],
    ['images by count need no placeholder', withPricing({ input: { ...FIXTURE_PRICING.input, image: { count: '0.001' }, video: { tokens: '0' } } }, { visual_placeholder: null }), []],
    ['a negative price', withPricing({ request: '-0.01' }), ['pricing.request: negative price']],
    ['a price that is not a decimal', withPricing({ web_search: 'abc' }), ['pricing.web_search: not a decimal: "abc"']],
    ['a discount above 1', withPricing({ discount: 1.5 }), ['pricing.discount: not between 0 and 1']],
    ['a negative discount', withPricing({ discount: -0.1 }), ['pricing.discount: not between 0 and 1']],
    ['discount 0.25', withPricing({ discount: 0.25 }), []],
  ])('%s', (_name, model, problems) => {
    expect(missingPrices(model)).toEqual(problems);
  });
});
