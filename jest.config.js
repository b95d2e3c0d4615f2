// Three projects by file suffix: pure units, real-dependency integration, and HTTP end-to-end.
const transform = { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }] };
const base = { transform, testEnvironment: 'node', moduleFileExtensions: ['ts', 'js', 'json'], rootDir: __dirname };
module.exports = {
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'] },
    { ...base, displayName: 'int', testMatch: ['<rootDir>/src/**/*.int-spec.ts', '<rootDir>/test/**/*.int-spec.ts'] },
    { ...base, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
  ],
};
