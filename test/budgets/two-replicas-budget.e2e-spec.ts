import { describeTwoReplicasBudget } from './two-replicas-budget.scenario';
import { sqliteReplicaStore } from '../support/replica-stores';

describeTwoReplicasBudget(sqliteReplicaStore);
