import { it } from 'vitest';
import { debugTools } from '../mcp/tools/debug.js';
import { evalTool } from '../mcp/tools/eval.js';
import { useFixtureApp } from './support/fixture-app.js';
import { toolCaller } from './support/tool-harness.js';
const game = useFixtureApp({ entities: 10 });
const call = toolCaller<any>([...debugTools, evalTool], () => game.app);
it('exp', async () => {
  const loc = await call('debug_locations', { type: 'UnityEngine.UnitySynchronizationContext', method: 'ExecuteTasks' }).catch((e) => e.message);
  console.log(JSON.stringify(loc));
  const bp = await call('debug_set_breakpoint', { type: 'UnityEngine.UnitySynchronizationContext', method: 'ExecuteTasks', il_offset: 0, log: 'f={Time.frameCount} d={Time.unscaledDeltaTime} gc={System.GC.CollectionCount(0)} mem={System.GC.GetTotalMemory(false)}' });
  console.log(JSON.stringify(bp.breakpoint));
  await new Promise((r) => setTimeout(r, 500));
  const t = await call('debug_trace', {});
  console.log(JSON.stringify(t.entries.slice(0, 3)), t.entries.length);
  const s = await call('debug_status', {});
  console.log(JSON.stringify(s.breakpoints));
  await call('debug_remove_breakpoint', { all: true });
});
