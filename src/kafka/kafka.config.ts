// Kafka connection settings from the environment; the relay and the reconcile CLI share them.
import { Kafka, logLevel, type KafkaConfig, type SASLOptions } from 'kafkajs';
import { correctKafkajsRequestQueue } from './kafkajs-request-queue';

export const DEFAULT_CLIENT_ID = 'inference-gateway';

const SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
type SaslMechanism = (typeof SASL_MECHANISMS)[number];

export interface KafkaConnectionConfig {
  brokers: string[];
  clientId: string;
  ssl: boolean;
  sasl: { mechanism: SaslMechanism; username: string; password: string } | null;
  /** Prepended to every topic name (KAFKA_TOPIC_PREFIX), e.g. `staging.`. */
  topicPrefix: string;
}

export class KafkaConfigError extends Error {}

function parseBoolean(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '') return false;
  if (['1', 'true', 'yes'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(value.toLowerCase())) return false;
  throw new KafkaConfigError(`${name} must be true or false, got "${value}"`);
}

function parseSasl(env: NodeJS.ProcessEnv): KafkaConnectionConfig['sasl'] {
  const mechanism = env.KAFKA_SASL_MECHANISM?.toLowerCase();
  if (!mechanism) return null;
  if (!SASL_MECHANISMS.includes(mechanism as SaslMechanism)) {
    throw new KafkaConfigError(`KAFKA_SASL_MECHANISM must be one of ${SASL_MECHANISMS.join(', ')}, got "${mechanism}"`);
  }
  const { KAFKA_SASL_USERNAME: username, KAFKA_SASL_PASSWORD: password } = env;
  if (!username || password === undefined) {
    throw new KafkaConfigError('KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD are required with KAFKA_SASL_MECHANISM');
  }
  return { mechanism: mechanism as SaslMechanism, username, password };
}

/** Null when KAFKA_BROKERS is unset or empty: Kafka is optional and the gateway runs without it. */
export function readKafkaConfig(env: NodeJS.ProcessEnv = process.env): KafkaConnectionConfig | null {
  const brokers = (env.KAFKA_BROKERS ?? '').split(',').map((broker) => broker.trim()).filter(Boolean);
  if (brokers.length === 0) return null;
  return {
    brokers,
    clientId: env.KAFKA_CLIENT_ID || DEFAULT_CLIENT_ID,
    ssl: parseBoolean('KAFKA_SSL', env.KAFKA_SSL),
    sasl: parseSasl(env),
    topicPrefix: env.KAFKA_TOPIC_PREFIX ?? '',
  };
}

/** kafkajs logs every refused connection at error level; callers report failures themselves. */
export function createKafka(config: KafkaConnectionConfig, overrides: Partial<KafkaConfig> = {}): Kafka {
  // kafkajs 2.2.4's negative setTimeout (TimeoutNegativeWarning at every start, a 1 ms spin): kafkajs-request-queue.ts.
  correctKafkajsRequestQueue();
  return new Kafka({
    brokers: config.brokers,
    clientId: config.clientId,
    ssl: config.ssl,
    sasl: (config.sasl ?? undefined) as SASLOptions | undefined,
    logLevel: logLevel.NOTHING,
    ...overrides,
  });
}
