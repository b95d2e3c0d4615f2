// What a failed multi-host fault run prints to say why: which replica processes are alive, the gateway
// sessions PostgreSQL sees (and which holds the relay lease), the last lease samples and each replica's
// last log lines (the 503 lines of a fault left out), and the load's answers per key.
import { withClient } from '../../support/postgres-database';
import type { NamespacedGateway } from './namespaced-gateway';
import type { RelayLeaseWatch } from './relay-lease-watch';
import type { ChatOutcome } from './chat-load';

const SESSIONS_SQL = `SELECT host(a.client_addr) AS address, a.application_name, a.state, l.granted AS lease FROM pg_stat_activity a
  LEFT JOIN pg_locks l ON l.pid = a.pid AND l.locktype = 'advisory' AND l.objid = 2
  WHERE a.datname = current_database() AND a.application_name LIKE 'inference-gateway%'`;

function alive(pid: number): boolean {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
}

export async function printDiagnosis(replicas: (NamespacedGateway | undefined)[], watch: RelayLeaseWatch | undefined, postgresUrl: string, outcomes: ChatOutcome[]): Promise<void> {
  const sessions = await withClient(postgresUrl, (client) => client.query(SESSIONS_SQL)).then(
    (result) => JSON.stringify(result.rows),
    (error: Error) => error.message,
  );
  const tail = (text: string) =>
    text
      .split('\n')
      .filter((line) => !line.includes('"status":503'))
      .slice(-15)
      .join('\n');
  const perKey: Record<string, Record<number, number>> = {};
  for (const o of outcomes) perKey[o.key] = { ...perKey[o.key], [o.status]: (perKey[o.key]?.[o.status] ?? 0) + 1 };
  const samples = watch?.samples.slice(-5).map((s) => `${Math.round(s.at)}: ${JSON.stringify(s.holders)}`) ?? [];
  console.log(
    [
      `replica processes: ${replicas.map((r) => `${r?.pid} ${r && alive(r.pid) ? 'alive' : 'gone'}`).join(', ')}`,
      `sessions: ${sessions}`,
      `last lease samples:\n${samples.join('\n')}`,
      `answers per key (status: count): ${JSON.stringify(perKey)}`,
      ...replicas.map((r, i) => `replica ${i}:\n${tail(r?.output() ?? '')}`),
    ].join('\n'),
  );
}
