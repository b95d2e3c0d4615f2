// Appends a deployment's status change (docs/events.md "DeploymentStatusChanged") to the model's
// deployment-status stream. Best effort, as the model's own status: a lost one is re-derived by the
// next probe on any replica, and none of it is billing.
import { randomUUID } from 'node:crypto';
import type { CatalogModel } from '../catalog/catalog.types';
import type { EventStore } from '../event-store/event-store.port';
import { eventIdFor } from '../event-store/event-ids';
import type { StatusChange } from './deployment-fleet';
import { DEPLOYMENT_STATUS_CHANGED, type DeploymentStatusChangedV1 } from './routing.events';

export function deploymentStatusStreamId(modelId: string): string {
  return `deployment-status-${modelId}`;
}

export async function recordDeploymentStatus(store: EventStore, model: CatalogModel, change: StatusChange, now = new Date()): Promise<void> {
  const data: DeploymentStatusChangedV1 = {
    modelId: model.id,
    deploymentId: change.deploymentId,
    status: change.status,
    previous: change.previous,
    reason: change.reason,
    observedAt: now.toISOString(),
  };
  const event = { id: eventIdFor(randomUUID(), DEPLOYMENT_STATUS_CHANGED), type: DEPLOYMENT_STATUS_CHANGED, data, metadata: { schemaVersion: 1 } };
  await store.append(deploymentStatusStreamId(model.id), [event]).catch(() => undefined);
}
