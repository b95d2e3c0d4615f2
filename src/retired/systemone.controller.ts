// `/v1/systemone` is retired: every method answers 410 `endpoint_removed` (spec, Versioning).
import { All, Controller } from '@nestjs/common';
import { ApiError } from '../common/api-error';

@Controller('v1/systemone')
export class SystemOneController {
  @All()
  removed(): never {
    throw new ApiError(410, 'endpoint_removed', 'The /v1/systemone endpoint has been retired.', 'invalid_request_error');
  }
}
