// Every hand-written component schema of the document, by component name.
import type { JsonSchema } from '../json-schema';
import { AUDIO_SCHEMAS } from './audio.schema';
import { CHAT_SCHEMAS } from './chat.schema';
import { COST_SCHEMAS } from './costs.schema';
import { DECISION_SCHEMAS } from './decisions.schema';
import { ERROR_SCHEMAS } from './errors.schema';
import { IMAGE_SCHEMAS } from './images.schema';
import { KEY_SCHEMAS } from './keys.schema';
import { MEDIA_PROFILE_SCHEMAS } from './media-profiles.schema';
import { MODEL_ENTRY_SCHEMAS } from './model-entry.schema';
import { MODEL_ENUM_SCHEMAS } from './model-enums';
import { OPERATIONAL_SCHEMAS } from './operational.schema';
import { USAGE_SCHEMAS } from './usage.schema';

export const RESPONSE_SCHEMAS: Record<string, JsonSchema> = {
  ...ERROR_SCHEMAS,
  ...USAGE_SCHEMAS,
  ...CHAT_SCHEMAS,
  ...AUDIO_SCHEMAS,
  ...MODEL_ENTRY_SCHEMAS,
  ...MEDIA_PROFILE_SCHEMAS,
  ...MODEL_ENUM_SCHEMAS,
  ...COST_SCHEMAS,
  ...DECISION_SCHEMAS,
  ...IMAGE_SCHEMAS,
  ...OPERATIONAL_SCHEMAS,
  ...KEY_SCHEMAS,
};
