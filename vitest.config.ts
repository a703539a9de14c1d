import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/integration/**/*.test.ts',
      'test/reliability/**/*.test.ts',
      'test/contract/**/*.test.ts',
    ],
    environment: 'node',
    globalSetup: ['test/helpers/postgres-global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
