// Checks the shape of the decisions `input` (a string, or user messages of input_text and
// input_image parts) and lists the images it carries. Shape errors are 422s located like the
// DTO's; a value outside an enum (role, part type, detail), the image URL policy and the per-model
// image count are the spec's 400s.
import { ApiError, RequestValidationError, ValidationIssue } from '../../common/api-error';
import { classifyImageUrl, ImageUrlKind } from './image-url';

export const IMAGE_DETAILS = ['low', 'high', 'auto', 'original'] as const;

export interface InputImage {
  /** A data: URL as sent, a web URL normalized (image-url.ts): what the model is sent. */
  url: string;
  kind: ImageUrlKind;
  /** Where it sits in the request, e.g. `input.0.content.1.image_url`. */
  param: string;
  message: number;
  part: number;
}

type Loc = (string | number)[];
type FoundImage = { url: string; message: number; part: number };
/** `enumValue` marks a value outside an enum: the spec answers those with 400, not 422. */
type Issue = (loc: Loc, msg: string, type: string, input: unknown, enumValue?: boolean) => void;

export const INVALID_ENUM_VALUE = 'invalid_enum_value';

export function inputImages(input: unknown, maxImages: number): InputImage[] {
  const issues: ValidationIssue[] = [];
  const enumIssues: { loc: Loc; msg: string }[] = [];
  const images: FoundImage[] = [];
  const issue: Issue = (loc, msg, type, value, enumValue = false) => {
    if (enumValue) enumIssues.push({ loc, msg });
    else issues.push({ loc: ['body', ...loc], msg, type, input: value });
  };
  if (Array.isArray(input) && input.length === 0) issue(['input'], 'input must hold at least one message', 'too_short', input);
  if (Array.isArray(input)) input.forEach((message, index) => checkMessage(message, index, issue, images));
  else if (typeof input !== 'string') issue(['input'], 'input must be a string or an array of user messages', 'string_or_array', input);
  if (enumIssues.length > 0) throw ApiError.badRequest(INVALID_ENUM_VALUE, enumIssues[0].msg, enumIssues[0].loc.join('.'));
  if (issues.length > 0) throw new RequestValidationError(issues);
  if (images.length > maxImages) {
    throw ApiError.badRequest('too_many_images', `This model accepts at most ${maxImages} images per request; ${images.length} were sent.`, 'input');
  }
  return images.map((image) => {
    const param = `input.${image.message}.content.${image.part}.image_url`;
    return { ...image, param, ...classifyImageUrl(image.url, param) };
  });
}

function checkMessage(message: unknown, index: number, issue: Issue, images: FoundImage[]): void {
  const loc = ['input', index];
  if (!isObject(message)) return issue(loc, 'each message must be an object', 'object', message);
  if (message.role !== 'user') issue([...loc, 'role'], "role must be 'user'", 'literal', message.role, true);
  const content = message.content;
  if (typeof content === 'string') return;
  if (!Array.isArray(content)) return issue([...loc, 'content'], 'content must be a string or an array of parts', 'string_or_array', content);
  content.forEach((part, partIndex) => {
    const url = checkPart(part, [...loc, 'content', partIndex], issue);
    if (url !== null) images.push({ url, message: index, part: partIndex });
  });
}

/** The part's image URL when it is a well-formed input_image, else null. */
function checkPart(part: unknown, loc: Loc, issue: Issue): string | null {
  if (!isObject(part)) {
    issue(loc, 'each content part must be an object', 'object', part);
    return null;
  }
  if (part.type === 'input_text') {
    if (typeof part.text !== 'string') issue([...loc, 'text'], 'text must be a string', 'string', part.text);
    return null;
  }
  if (part.type !== 'input_image') {
    issue([...loc, 'type'], "type must be 'input_text' or 'input_image'", 'literal', part.type, true);
    return null;
  }
  if (part.detail !== undefined && !(IMAGE_DETAILS as readonly unknown[]).includes(part.detail)) {
    issue([...loc, 'detail'], `detail must be one of ${IMAGE_DETAILS.join(', ')}`, 'literal', part.detail, true);
  }
  if (typeof part.image_url === 'string') return part.image_url;
  issue([...loc, 'image_url'], 'image_url must be a string', 'string', part.image_url);
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
