import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { checkLayers, parseRules } from './check-layers.js';

const rules = parseRules(readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8'));

describe('layer check', () => {
  it('reads the arrows of docs/architecture.md', () => {
    expect([...rules.allowed.get('unity')!]).toEqual(['sdb-protocol', 'eval', 'unity/*']);
    expect(rules.allowed.get('eval')!.size).toBe(0);
  });

  it('accepts imports along the arrows and within a layer', () => {
    expect(
      checkLayers(rules, [
        {
          rel: 'unity/session.ts',
          text: "import { SdbConnection } from '../sdb-protocol/index.js';",
        },
        {
          rel: 'unity/a/b.ts',
          text: "export * from '../c.js';\nimport x from '../../eval/index.js';",
        },
        {
          rel: 'test-integration/x.test.ts',
          text: "import net from 'node:net'; import '../mcp/server.js';",
        },
      ]),
    ).toEqual([]);
  });

  it('applies the arrows of an inner folder to its files (longest rule wins)', () => {
    expect(
      checkLayers(rules, [
        { rel: 'unity/ecs/x.ts', text: "import { s } from '../session/session.js';" },
        { rel: 'unity/ecs/y.ts', text: "import { e } from '../eval-bridge/evaluate-in-game.js';" },
        { rel: 'unity/eval-bridge/z.ts', text: "import { q } from '../ecs/ecs-query.js';" },
        { rel: 'mcp/w.ts', text: "import { q } from '../unity/ecs/ecs-query.js';" },
      ]),
    ).toEqual([
      'unity/ecs/y.ts: imports ../eval-bridge/evaluate-in-game.js (unity/ecs may not import unity/eval-bridge)',
      'unity/eval-bridge/z.ts: imports ../ecs/ecs-query.js (unity/eval-bridge may not import unity/ecs)',
    ]);
  });

  it('fails imports against the arrows, static, re-exported and dynamic', () => {
    expect(
      checkLayers(rules, [
        { rel: 'sdb-protocol/x.ts', text: "import { y } from '../unity/y.js';" },
        { rel: 'eval/x.ts', text: "export { y } from '../unity/y.js';" },
        { rel: 'unity/x.ts', text: "const m = await import('../mcp/server.js');" },
      ]),
    ).toEqual([
      'sdb-protocol/x.ts: imports ../unity/y.js (sdb-protocol may not import unity)',
      'eval/x.ts: imports ../unity/y.js (eval may not import unity)',
      'unity/x.ts: imports ../mcp/server.js (unity may not import mcp)',
    ]);
  });

  it('keeps socket code in the wire layer', () => {
    expect(checkLayers(rules, [{ rel: 'mcp/x.ts', text: "import net from 'node:net';" }])).toEqual([
      'mcp/x.ts: imports node:net, which only sdb-protocol, broker, fixtures, test-integration, bench, scripts may use',
    ]);
  });
});
