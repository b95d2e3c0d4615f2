// Relays an image request to the image model and bills it: input images counted and measured from
// the uploads, output images counted from the upstream's response, which is returned verbatim.
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { FormData } from 'undici';
import { BillingService } from '../../billing/billing.service';
import type { MeasuredImage } from '../../billing/metering/measurement';
import { CatalogService } from '../../catalog/catalog.service';
import type { CatalogModel } from '../../catalog/catalog.types';
import type { RequestContext } from '../../common/request-context';
import { withTempDir } from '../../media/media-source';
import { ModelGate } from '../../upstream/model-gate';
import { UpstreamClient } from '../../upstream/upstream.client';
import { assertImageRequest, ImageOperation, ImageRequestFields } from '../domain/image-operations';
import { generatedImageCount } from '../domain/image-response';
import { formFields, inspectInputImages, isInputImage, spoolUpload, UploadPart, upstreamForm } from './image-upload';
import { RelayedImages, RelayImageCommand } from './relay-image.command';

interface Relay {
  ctx: RequestContext;
  operation: ImageOperation;
  model: CatalogModel;
  inputImages: MeasuredImage[];
  body: { json: unknown } | { form: FormData };
}

@CommandHandler(RelayImageCommand)
export class RelayImageHandler implements ICommandHandler<RelayImageCommand, RelayedImages> {
  constructor(
    private readonly catalog: CatalogService,
    private readonly modelGate: ModelGate,
    private readonly upstream: UpstreamClient,
    private readonly billing: BillingService,
  ) {}

  execute({ ctx, operation, payload }: RelayImageCommand): Promise<RelayedImages> {
    if (payload.kind === 'json') return this.relayJson(ctx, operation, payload.body);
    // The spooled uploads must outlive the upstream request, which streams them from disk.
    return withTempDir((dir) => this.relayMultipart(ctx, operation, payload.parts, dir));
  }

  private relayJson(ctx: RequestContext, operation: ImageOperation, body: unknown): Promise<RelayedImages> {
    const fields = isRecord(body) ? body : {};
    const model = this.catalog.requireKind(assertImageRequest(operation, fields, 0), 'image');
    const json = { ...fields, model: model.upstream.model ?? model.id };
    return this.relay({ ctx, operation, model, inputImages: [], body: { json } });
  }

  private async relayMultipart(ctx: RequestContext, operation: ImageOperation, parts: AsyncIterable<UploadPart>, dir: string): Promise<RelayedImages> {
    const entries = await spoolUpload(parts, dir);
    const fields: ImageRequestFields = formFields(entries);
    const model = this.catalog.requireKind(assertImageRequest(operation, fields, entries.filter(isInputImage).length), 'image');
    const inspected = await inspectInputImages(model, entries);
    const form = await upstreamForm(entries, model.upstream.model ?? model.id, inspected.replacements);
    return this.relay({ ctx, operation, model, inputImages: inspected.measured, body: { form } });
  }

  private async relay({ ctx, operation, model, inputImages, body }: Relay): Promise<RelayedImages> {
    const release = this.modelGate.enter(model);
    let relayed: Buffer;
    try {
      const request = 'json' in body ? { json: body.json } : { body: body.form };
      const response = await this.upstream.send(model, { path: `/images/${operation}`, signal: ctx.signal, ...request });
      relayed = await this.upstream.readBytes(model, response);
    } finally {
      release();
    }
    const imageCount = generatedImageCount(relayed);
    const measurement = { input: { images: inputImages }, output: { imageCount } };
    await this.billing.charge({ ctx, model, endpoint: `/v1/images/${operation}`, measurement });
    return { body: relayed };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
