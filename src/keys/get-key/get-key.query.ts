export class GetKeyQuery {
  constructor(readonly keyId: string) {}
}
