// GET /openapi.json, no key. Built at the first request, when every module's controllers are
// registered, then served from memory.
import { Controller, Get, INestApplication } from '@nestjs/common';
import { HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import { ApplicationConfig } from '@nestjs/core/application-config';
import { CatalogService } from '../catalog/catalog.service';
import { OpenApiDocument, buildOpenApiDocument } from './build-openapi-document';

/**
 * The slice of INestApplication the swagger scanner reads. Nest does not inject the application
 * itself; the gateway sets no global prefix or versioning, so a default ApplicationConfig is the
 * one the routes were registered with.
 */
function scannableApp(modules: ModulesContainer, adapterHost: HttpAdapterHost): INestApplication {
  const view = { container: { getModules: () => modules }, config: new ApplicationConfig(), getHttpAdapter: () => adapterHost.httpAdapter };
  return view as unknown as INestApplication;
}

@Controller()
export class OpenApiController {
  private document: OpenApiDocument | undefined;

  constructor(
    private readonly modules: ModulesContainer,
    private readonly adapterHost: HttpAdapterHost,
    private readonly catalog: CatalogService,
  ) {}

  @Get('openapi.json')
  serve(): OpenApiDocument {
    this.document ??= buildOpenApiDocument(scannableApp(this.modules, this.adapterHost), this.modules, (kind) =>
      this.catalog.all().filter((model) => model.kind === kind).map((model) => model.id),
    );
    return this.document;
  }
}
