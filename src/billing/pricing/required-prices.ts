// Which prices a model needs, read from what it declares it can take and produce. Each entry lists
// alternative price paths; any one of them being set (0 included) covers the component.
import type { CatalogModel } from '../../catalog/catalog.types';

const REASONING_PARAMETERS = ['reasoning', 'include_reasoning', 'reasoning_effort'];

export function requiredPrices(model: CatalogModel): string[][] {
  const { input_modalities: inputs, output_modalities: outputs } = model.architecture;
  const parameters = model.supported_parameters ?? [];
  const required: string[][] = [];
  const need = (when: boolean, ...paths: string[]) => {
    if (when) required.push(paths);
  };
  // Speech bills its text input by characters; the image relay bills by image count, not prompt.
  need(inputs.includes('text') && model.kind === 'speech', 'pricing.input.text.characters');
  need(inputs.includes('text') && model.kind !== 'speech' && model.kind !== 'image', 'pricing.input.text.tokens');
  need(inputs.includes('image'), 'pricing.input.image.tokens', 'pricing.input.image.count');
  need(inputs.includes('audio'), 'pricing.input.audio.tokens');
  need(inputs.includes('video'), 'pricing.input.video.tokens');
  // A transcript is billed by its audio: its text is charged only when the operator prices it, so an
  // unpriced transcript is free and /v1/models lists no price for it rather than "0".
  need((outputs.includes('text') && model.kind !== 'transcription') || parameters.includes('tools'), 'pricing.output.text.tokens');
  need(outputs.includes('audio'), 'pricing.output.audio.tokens');
  need(outputs.includes('image'), 'pricing.output.image.count');
  need(outputs.includes('voice') || parameters.includes('ref_audio'), 'pricing.input.voice.count');
  need(parameters.includes('web_search_options'), 'pricing.web_search');
  need(
    parameters.some((parameter) => REASONING_PARAMETERS.includes(parameter)),
    'pricing.internal_reasoning',
    'pricing.output.text.tokens',
  );
  return required;
}
