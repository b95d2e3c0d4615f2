import { describeReplicasBurst } from './replicas-burst.scenario';
import { sqliteReplicaStore } from '../support/replica-stores';

describeReplicasBurst(sqliteReplicaStore);
