// The cost read models and the request log, kept caught up (named for what it serves: it was the
// CostProjectionService). The daily cost projection inside the gateway: fed live by the ProjectionHub, plus a catch-up that
// cost queries await so a client reads its own recent costs. The console's read models (cost per model
// and per key, the latest requests) are NOT fed by the hub: they catch up when read, so they add no
// work to a model request (docs/console.md). It is ready once the hub's start-up
// catch-up has run (markCaughtUp), so readiness never waits for a first cost query.
import type Database from 'better-sqlite3';
import type { EventStore } from '../../event-store/event-store.port';
import type { BackgroundService } from '../../common/background-service';
import { catchUpProjection, isCaughtUp } from '../../projections/projection-runner';
import type { ParkingLot } from '../../projections/parking/apply-or-park';
import { DailyCostProjection } from './daily-cost.projection';
import { CostReadModel } from './cost-read-model';
import { CostDimensionProjection } from './cost-dimension.projection';
import { RequestLogProjection } from '../request-log/request-log.projection';
import { RequestLogReadModel } from '../request-log/request-log.read-model';
import type { Projection } from '../../projections/projection-runner';

export class CostReadModels implements BackgroundService {
  readonly name = 'cost_projection';
  readonly readModel: CostReadModel;
  readonly projection: DailyCostProjection;
  readonly requestLog: RequestLogReadModel;
  /** Caught up only by the queries that read them (catchUpOnDemand), never per request. */
  readonly onDemand: Projection[];
  private onDemandCatchingUp: Promise<void> | null = null;
  private caughtUpOnce = false;
  private catchingUp: Promise<void> | null = null;

  constructor(
    private readonly store: EventStore,
    db: Database.Database,
    private readonly parking: ParkingLot | null = null,
  ) {
    this.projection = new DailyCostProjection(db);
    this.readModel = new CostReadModel(db);
    this.onDemand = [new CostDimensionProjection(db), new RequestLogProjection(db)];
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
    if (this.caughtUpOnce && (await isCaughtUp(this.store, this.projection))) return;
    this.catchingUp ??= catchUpProjection(this.store, this.projection, 512, this.parking).then(
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

  /**
   * Brings the console's read models up to the store's head, 512 events a page; concurrent callers
   * share one pass. The first read after a long idle period pays for the backlog.
   */
  async catchUpOnDemand(): Promise<void> {
    this.onDemandCatchingUp ??= (async () => {
      for (const projection of this.onDemand) await catchUpProjection(this.store, projection, 512, this.parking);
    })().finally(() => {
      this.onDemandCatchingUp = null;
    });
    await this.onDemandCatchingUp;
  }

  async stop(): Promise<void> {
    await this.catchingUp?.catch(() => undefined);
    await this.onDemandCatchingUp?.catch(() => undefined);
  }
}
