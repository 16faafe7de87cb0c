import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';

import { defineConfig } from 'vitest/config';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A skipped test is a test that did not run: every run lists the skipped ones loudly, and a CI run
 * (CI set, as .ci/run sets it) fails on any. Filtering by name (`-t`) skips the others; so run
 * files by path locally, or unset CI.
 */
const noSkippedTests: Reporter = {
  onTestRunEnd(testModules: readonly TestModule[]) {
    const skipped: string[] = [];
    for (const m of testModules)
      for (const t of m.children.allTests())
        if (t.result().state === 'skipped') skipped.push(`${m.moduleId}: ${t.fullName}`);
    if (skipped.length === 0) return;
    const fail = Boolean(process.env['CI']);
    process.stderr.write(
      `\n${'!'.repeat(78)}\n${skipped.length} TEST(S) SKIPPED${fail ? ' (CI: this run fails)' : ''}:\n${skipped.map((s) => `  - ${s}`).join('\n')}\n${'!'.repeat(78)}\n`,
    );
    if (fail) process.exitCode = 1;
  },
};

/**
 * No test meets a user's broker: a run's default broker home is its own (tests that start
 * brokers give each one its own home besides), and a broker a test forgot exits soon.
 */
const env = {
  UNITY_DEVTOOLS_HOME: mkdtempSync(path.join(tmpdir(), 'ud-vitest-')),
  UNITY_DEVTOOLS_IDLE_EXIT_MS: '20000',
};

export default defineConfig({
  test: {
    reporters: ['default', noSkippedTests],
    // Vitest's default pool is one worker below the CPU count (one on a 2-CPU CI machine, so the
    // files ran one after another), and an integration file mostly waits on its game: two at a
    // time, whatever the machine. (Per project it would need a sequence.groupOrder each.)
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          env,
          include: [
            'sdb-protocol/**/*.test.ts',
            'unity/**/*.test.ts',
            'eval/**/*.test.ts',
            'mcp/**/*.test.ts',
            'broker/**/*.test.ts',
            'cli/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'integration',
          env,
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
