import { describeTwoReplicasBudget } from './two-replicas-budget.scenario';
import { postgresReplicaStore } from '../support/replica-stores';

describeTwoReplicasBudget(postgresReplicaStore);
