import { IsNotEmpty, IsString } from 'class-validator';
import { spec400 } from '../../common/validation.pipe';

/** `GET /v1/audio/voices?model=...`: a missing model is one of the spec's 400 conditions. */
export class ListVoicesRequestDto {
  @IsString(spec400('missing_model'))
  @IsNotEmpty(spec400('missing_model'))
  model!: string;
}
