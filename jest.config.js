// Three projects by file suffix: pure units, real-dependency integration, and HTTP end-to-end.
// NestJS 12 ships ES modules only; jest's CommonJS runtime gets them through babel (ESM -> CJS,
// import.meta -> CJS equivalents). Our TypeScript goes through ts-jest.
const esmPackages = ['@nestjs', 'ai', '@ai-sdk', '@workflow', 'zod', '@seriousme', 'uid', 'file-type', 'strtok3', 'token-types', 'peek-readable', '@tokenizer'].join('|');
const transform = {
  '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  '^.+\\.m?js$': [
    'babel-jest',
    { babelrc: false, configFile: false, plugins: [['babel-plugin-transform-import-meta', { module: 'ES6' }], '@babel/plugin-transform-dynamic-import', '@babel/plugin-transform-modules-commonjs'] },
  ],
};
const base = {
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages})/)`],
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  rootDir: __dirname,
};
// The EventStoreDB contract needs a server: without one the file is left out (scripts/test.sh says so)
// rather than reported as a skipped test.
const withoutEventStoreDb = process.env.EVENTSTORE_CONNECTION_STRING ? [] : ['/eventstoredb-event-store\\.int-spec\\.ts$'];
// Likewise the PostgreSQL tests (files named *postgres*) without GATEWAY_TEST_POSTGRES_URL (test/postgres/with-postgres.sh).
const withoutPostgres = process.env.GATEWAY_TEST_POSTGRES_URL ? [] : ['/[^/]*postgres[^/]*\\.(int|e2e)-spec\\.ts$'];
// And the Docker Compose check without a compose v2 CLI (test/deploy/compose-config.sh finds it the same way;
// scripts/test.sh says when it is not run). Building one (`compose-config.sh --install`) takes ~15 minutes.
const composeCli = require('./test/deploy/compose-cli').composeCliAvailable();
const withoutCompose = composeCli ? [] : ['/compose-config\\.int-spec\\.ts$'];
// The multi-host fault test needs root, iproute2 and PostgreSQL's binaries: without them it is left out too
// (test/postgres/support/multi-host-requirements.js gives the reason, which scripts/test.sh prints).
const withoutMultiHost = require('./test/postgres/support/multi-host-requirements.js').multiHostUnavailableReason() ? ['/replicas-on-hosts\\.e2e-spec\\.ts$'] : [];
module.exports = {
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'] },
    {
      ...base,
      displayName: 'int',
      testMatch: ['<rootDir>/src/**/*.int-spec.ts', '<rootDir>/test/**/*.int-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...withoutEventStoreDb, ...withoutPostgres, ...withoutCompose],
    },
    { ...base, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'], testPathIgnorePatterns: ['/node_modules/', ...withoutPostgres, ...withoutMultiHost] },
  ],
};
