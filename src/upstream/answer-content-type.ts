// Before the gateway commits to a 200 stream it checks that the upstream is really streaming what was
// asked for. An upstream that answers 200 with an HTML error page or a JSON body where server-sent
// events (or audio) were expected has failed: 502 upstream_protocol_error, and nothing is billed,
// since nothing was relayed and no usage can be measured.
import type { Dispatcher } from 'undici';
import type { CatalogModel } from '../catalog/catalog.types';
import { discardBody } from './bounded-body';
import { upstreamProtocolError } from './upstream-limits';

function mediaTypeOf(response: Dispatcher.ResponseData): string | undefined {
  const header = response.headers['content-type'];
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(';')[0].trim().toLowerCase();
}

const isEventStream = (mediaType: string | undefined) => mediaType === 'text/event-stream';
const isAudio = (mediaType: string | undefined) => mediaType !== undefined && (mediaType.startsWith('audio/') || mediaType === 'application/octet-stream');

function requireMediaType(response: Dispatcher.ResponseData, model: CatalogModel, accepts: (mediaType: string | undefined) => boolean, expected: string): void {
  if (accepts(mediaTypeOf(response))) return;
  discardBody(response); // its body is not read: it may be as large or as endless as the upstream likes
  throw upstreamProtocolError(model.id, expected, response.headers['content-type'] as string | undefined);
}

export function requireEventStream(response: Dispatcher.ResponseData, model: CatalogModel): void {
  requireMediaType(response, model, isEventStream, 'text/event-stream');
}

export function requireAudio(response: Dispatcher.ResponseData, model: CatalogModel): void {
  requireMediaType(response, model, isAudio, 'audio');
}
