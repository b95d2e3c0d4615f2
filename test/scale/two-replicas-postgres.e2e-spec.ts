import { describeTwoReplicas } from './two-replicas.scenario';
import { postgresReplicaStore } from '../support/replica-stores';

describeTwoReplicas(postgresReplicaStore);
