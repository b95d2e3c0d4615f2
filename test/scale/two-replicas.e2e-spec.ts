import { describeTwoReplicas } from './two-replicas.scenario';
import { sqliteReplicaStore } from '../support/replica-stores';

describeTwoReplicas(sqliteReplicaStore);
