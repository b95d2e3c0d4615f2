export class RevokeKeyCommand {
  constructor(
    readonly keyId: string,
    readonly by: string,
  ) {}
}
