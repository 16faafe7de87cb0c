// `npx tsx test-integration/eval-diff/show-oracle.ts [corpus-programs.txt] [filter]`: what C#
// gives for each program of a corpus (compiled by mcs, run in a fresh fixture), one line each,
// to review a corpus before the differential test compares the evaluator with it.

import path from 'node:path';

import { buildFixture } from '../../fixtures/build.js';
import { startFixture } from '../../fixtures/launch.js';
import { GameSession } from '../../unity/session/session.js';
import { LINES, compileOracle, readCorpus, runOracle } from './oracle.js';
import { PROGRAMS } from './programs.js';

const file = path.resolve(import.meta.dirname, process.argv[2] ?? 'corpus-programs.txt');
const filter = process.argv[3];
const dialect = file.endsWith('corpus.txt') ? LINES : PROGRAMS;
const cases = (await readCorpus(file)).filter((c) => !filter || c.program.includes(filter));
const build = await buildFixture();
const { dll, compileErrors } = await compileOracle(cases, build.dir, dialect);
const fixture = await startFixture({ entities: 200 });
const session = new GameSession({ invokeTimeoutMs: 10_000 });
try {
  await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: fixture.sdbPort });
  const out = (
    await session.run('oracle', 'show-oracle', (ctx) => runOracle(ctx, dll, cases, compileErrors), {
      exclusive: true,
    })
  ).value;
  for (const c of cases) console.log(`${c.id}\t${c.program}\n\t${JSON.stringify(out.get(c.id))}`);
} finally {
  await session.shutdown();
  await fixture.stop();
}
