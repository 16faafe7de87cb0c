import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'sdb-protocol/**/*.test.ts',
            'unity/**/*.test.ts',
            'eval/**/*.test.ts',
            'mcp/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test-integration/**/*.test.ts'],
          globalSetup: ['test-integration/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One fixture process per file; files run in parallel up to the pool size.
          fileParallelism: true,
        },
      },
    ],
  },
});
