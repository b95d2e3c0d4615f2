// The cost projections inside the gateway (daily totals and line items, totals per model and key, the
// latest requests): fed live by the ProjectionHub, plus a catch-up that cost queries await so a client
// reads its own recent costs. It is ready once the hub's start-up
// catch-up has run (markCaughtUp), so readiness never waits for a first cost query.
import type Database from 'better-sqlite3';
import type { EventStore } from '../../event-store/event-store.port';
import type { BackgroundService } from '../../core/gateway-runtime';
import { catchUpProjection, isCaughtUp, type Projection } from '../projection-runner';
import type { ParkingLot } from '../parking/apply-or-park';
import { DailyCostProjection } from './daily-cost.projection';
import { CostReadModel } from './cost-read-model';
import { CostDimensionProjection } from './cost-dimension.projection';
import { RequestLogProjection } from '../requests/request-log.projection';
import { RequestLogReadModel } from '../requests/request-log.read-model';

export class CostProjectionService implements BackgroundService {
  readonly name = 'cost_projection';
  readonly readModel: CostReadModel;
  readonly requestLog: RequestLogReadModel;
  readonly projection: DailyCostProjection;
  /** Every projection this service keeps caught up, for the hub to feed. */
  readonly projections: Projection[];
  private caughtUpOnce = false;
  private catchingUp: Promise<void> | null = null;

  constructor(
    private readonly store: EventStore,
    db: Database.Database,
    private readonly parking: ParkingLot | null = null,
  ) {
    this.projection = new DailyCostProjection(db);
    this.readModel = new CostReadModel(db);
    this.projections = [this.projection, new CostDimensionProjection(db), new RequestLogProjection(db)];
    this.requestLog = new RequestLogReadModel(db);
  }

  ready(): boolean {
    return this.caughtUpOnce;
  }

  /** Called once the ProjectionHub has caught this projection up at start-up. */
  markCaughtUp(): void {
    this.caughtUpOnce = true;
  }

  /** Applies whatever the store holds beyond the checkpoint; concurrent callers share one pass. */
  async catchUp(): Promise<void> {
    if (this.caughtUpOnce && (await this.allCaughtUp())) return;
    this.catchingUp ??= this.catchUpAll().then(
      () => {
        this.caughtUpOnce = true;
        this.catchingUp = null;
      },
      (err: unknown) => {
        this.catchingUp = null;
        throw err;
      },
    );
    await this.catchingUp;
  }

  private async allCaughtUp(): Promise<boolean> {
    for (const projection of this.projections) if (!(await isCaughtUp(this.store, projection))) return false;
    return true;
  }

  private async catchUpAll(): Promise<void> {
    for (const projection of this.projections) await catchUpProjection(this.store, projection, 512, this.parking);
  }

  async stop(): Promise<void> {
    await this.catchingUp?.catch(() => undefined);
  }
}
