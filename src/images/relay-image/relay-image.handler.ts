// Relays an image request to the image model and bills it: input images counted and measured from
// the uploads, output images counted from the upstream's response, which is returned verbatim (cut to
// `n` images when it holds more, which are billed at `n` with a dispute). A caller with spend limits
// first holds the most that can cost.
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { FormData } from 'undici';
import { BillingService } from '../../billing/billing.service';
import type { MeasuredImage } from '../../billing/metering/measurement';
import { BudgetHolds, hasLimits } from '../../budgets/budget-holds';
import { maxImageCostMicros } from '../domain/max-image-cost';
import { boundImageCount } from '../../billing/metering/output-bounds';
import { CatalogService } from '../../catalog/catalog.service';
import type { CatalogModel } from '../../catalog/catalog.types';
import type { RequestContext } from '../../common/request-context';
import { MediaGate } from '../../media';
import { withTempDir } from '../../media/media-source';
import { ModelGate } from '../../models/model-gate/model-gate';
import { UpstreamClient } from '../../upstream/upstream.client';
import { assertImageRequest, ImageOperation, ImageRequestFields, requestedImageCount } from '../domain/image-operations';
import { imagesResponse } from '../domain/image-response';
import { forwardedFormFields, forwardedJsonFields, IMAGE_FORMS } from './image-fields';
import { formFields, inspectInputImages, isInputImage, spoolUpload, UploadPart, upstreamForm } from './image-upload';
import { RelayedImages, RelayImageCommand } from './relay-image.command';
import { holdDuring } from '../../budgets/hold-during';

interface Relay {
  ctx: RequestContext;
  operation: ImageOperation;
  model: CatalogModel;
  inputImages: MeasuredImage[];
  /** The `n` asked for: the most output images billed. */
  requested: number;
  body: { json: unknown } | { form: FormData };
}

@CommandHandler(RelayImageCommand)
export class RelayImageHandler implements ICommandHandler<RelayImageCommand, RelayedImages> {
  constructor(
    private readonly catalog: CatalogService,
    private readonly modelGate: ModelGate,
    private readonly upstream: UpstreamClient,
    private readonly billing: BillingService,
    private readonly budgets: BudgetHolds,
    private readonly media: MediaGate,
  ) {}

  execute({ ctx, operation, payload }: RelayImageCommand): Promise<RelayedImages> {
    if (payload.kind === 'json') return this.relayJson(ctx, operation, payload.body);
    // The spooled uploads must outlive the upstream request, which streams them from disk.
    return withTempDir((dir) => this.relayMultipart(ctx, operation, payload.parts, dir));
  }

  private relayJson(ctx: RequestContext, operation: ImageOperation, body: unknown): Promise<RelayedImages> {
    const fields = isRecord(body) ? body : {};
    const forwarded = forwardedJsonFields(fields);
    const model = this.catalog.requireKind(assertImageRequest(operation, fields, 0), 'image');
    const requested = requestedImageCount(fields);
    const json = { ...forwarded, model: model.upstream.model ?? model.id };
    return this.relayWithinBudget({ ctx, operation, model, inputImages: [], requested, body: { json } });
  }

  private async relayMultipart(ctx: RequestContext, operation: ImageOperation, parts: AsyncIterable<UploadPart>, dir: string): Promise<RelayedImages> {
    const entries = await spoolUpload(parts, dir, IMAGE_FORMS[operation as Exclude<ImageOperation, 'generations'>]);
    const fields: ImageRequestFields = formFields(entries);
    const forwarded = forwardedFormFields(formFields(entries));
    const model = this.catalog.requireKind(assertImageRequest(operation, fields, entries.filter(isInputImage).length), 'image');
    const requested = requestedImageCount(fields);
    const inspected = await inspectInputImages(model, entries, this.media.forRequest(ctx));
    const form = await upstreamForm(forwarded, entries, model.upstream.model ?? model.id, inspected.replacements);
    return this.relayWithinBudget({ ctx, operation, model, inputImages: inspected.measured, requested, body: { form } });
  }

  /** Holds the request's maximum cost when the caller has limits; the charge settles it, a failure releases it. */
  private async relayWithinBudget(relay: Relay): Promise<RelayedImages> {
    const { ctx } = relay;
    if (!hasLimits(ctx.caller)) return this.relay(relay);
    return holdDuring(this.budgets, ctx, maxImageCostMicros(relay.model, relay.inputImages, relay.requested), () => this.relay(relay));
  }

  private async relay({ ctx, operation, model, inputImages, requested, body }: Relay): Promise<RelayedImages> {
    const release = this.modelGate.enter(model, ctx.caller.organizationId);
    let relayed: Buffer;
    try {
      const request = 'json' in body ? { json: body.json } : { body: body.form };
      const response = await this.upstream.send(model, { path: `/images/${operation}`, signal: ctx.signal, ctx, ...request });
      relayed = await this.upstream.readBytes(model, response);
    } finally {
      release();
    }
    const response = imagesResponse(relayed, requested);
    const { billed, dispute } = boundImageCount(response.returned, requested);
    const measurement = { input: { images: inputImages }, output: { imageCount: billed } };
    await this.billing.charge({ ctx, model, endpoint: `/v1/images/${operation}`, measurement, disputes: dispute === null ? undefined : [dispute] });
    return { body: response.body };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
