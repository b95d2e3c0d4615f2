export class ListKeysQuery {
  constructor(
    readonly limit: number,
    readonly offset: number,
  ) {}
}
