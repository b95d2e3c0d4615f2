export class ListVoicesQuery {
  constructor(readonly model: string) {}
}
