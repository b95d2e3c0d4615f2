import { describeKeyReplicas } from './key-replicas.scenario';
import { sqliteReplicaStore } from '../support/replica-stores';

describeKeyReplicas(sqliteReplicaStore);
