import type { IssueKeyRequestDto } from './issue-key.request.dto';

export class IssueKeyCommand {
  constructor(
    readonly body: IssueKeyRequestDto,
    /** Id of the management key asking (recorded as `by`). */
    readonly by: string,
  ) {}
}
