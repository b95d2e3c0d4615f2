import type { ChangeKeyRequestDto } from './change-key.request.dto';

export class ChangeKeyCommand {
  constructor(
    readonly keyId: string,
    readonly body: ChangeKeyRequestDto,
    readonly by: string,
  ) {}
}
