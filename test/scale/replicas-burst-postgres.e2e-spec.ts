import { describeReplicasBurst } from './replicas-burst.scenario';
import { postgresReplicaStore } from '../support/replica-stores';

describeReplicasBurst(postgresReplicaStore);
