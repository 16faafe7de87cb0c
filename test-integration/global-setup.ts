import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { buildFixture } from '../fixtures/build.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Builds the fixture game (cached by content hash) and the server as it ships (`dist/`), once
 * before the integration tests: the MCP tests spawn the built server, not the sources.
 */
export default async function setup(): Promise<void> {
  await buildFixture();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`building the server failed:\n${r.stdout}${r.stderr}`);
}
