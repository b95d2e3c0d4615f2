import { describeKeyReplicas } from './key-replicas.scenario';
import { postgresReplicaStore } from '../support/replica-stores';

describeKeyReplicas(postgresReplicaStore);
