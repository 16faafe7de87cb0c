// Our side of the "debug" benchmark, the same work as RefBench.cs's `debug` scenario: a
// breakpoint on the first line of Game.DebugTargets.DeepLeaf (called 20+ frames deep every
// frame). Per hit: from the event set's delivery to debug_wait's answer (the stop decided, the
// stopped location read), then debug_pause_state for 20 frames with every frame's parameters,
// locals and `this` formatted, then resume. Rows are medians (ms).
// The reference reads each frame's parameters and live locals in one StackFrame.GetValues
// (one STACK_FRAME.GET_VALUES), `this` beside it, as ours does. Goes through unity/debug, the
// layer the tools call, so the MCP layer's own cost (JSON, zod) is not in the figures.

import type { FixtureProcess } from '../fixtures/launch.js';
import { Debugger } from '../unity/debug/debugger.js';
import { pauseState } from '../unity/debug/inspect.js';
import { GameSession } from '../unity/session/session.js';
import { runReference } from './reference.js';
import { alternate, got, median, medians, type Line, type Options } from './scenario.js';

export async function measureDebug(opts: {
  port: number;
  iterations?: number;
}): Promise<Record<string, number>> {
  const n = opts.iterations ?? 30;
  const session = new GameSession({ parkTimeoutMs: 5000 });
  const dbg = new Debugger(session);
  try {
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: opts.port });
    await dbg.setBreakpoint('bench', { type: 'Game.DebugTargets', method: 'DeepLeaf' });
    const conn = session.connection;
    if (!conn) throw new Error('not attached');
    let arrived = 0;
    // registered after the debugger's own listener: both run in the same delivery tick
    const off = conn.onEvent((set) => {
      if (set.events.some((e) => e.kind === 'BREAKPOINT')) arrived = performance.now();
    });
    const hit: number[] = [];
    const state: number[] = [];
    let frames = 0;
    let values = 0;
    try {
      for (let i = 0; i < n; i++) {
        const stop = await dbg.wait(5000);
        const t = performance.now();
        if (!stop?.location?.line) throw new Error('no stop with a line within 5 s');
        hit.push(t - arrived);
        const s0 = performance.now();
        const ps = await pauseState(session, dbg, 'bench', { frames: 20, variableFrames: 20 });
        state.push(performance.now() - s0);
        frames = ps.value.frames.length;
        values = ps.value.frames.reduce((sum, f) => sum + (f.variables?.length ?? 0), 0);
        await dbg.step('bench', 'resume', { timeoutMs: 1000 });
      }
    } finally {
      off();
    }
    await dbg.remove('bench', undefined);
    return {
      hit_to_wait_ms: median(hit),
      pause_state_20_frames_ms: median(state),
      frames_read: frames,
      values_read: values,
      iterations: n,
    };
  } finally {
    await session.shutdown();
  }
}

/** Both clients, alternating which goes first, `rounds` times; each row's rounds. */
export const debug = {
  async run(fixture: FixtureProcess, o: Options): Promise<{ lines: Line[]; json: unknown }> {
    const port = fixture.sdbPort;
    const n = Math.max(10, Math.min(o.iterations, 60));
    const r = await alternate(
      'debug',
      o.rounds,
      () => runReference({ port, scenario: 'debug', iterations: n, timeoutMs: 240_000 }),
      () => measureDebug({ port, iterations: n }),
    );
    const ours = r.ours;
    const ref = r.reference;
    const rows: [string, string][] = [
      ['hit_to_wait_ms', 'breakpoint event delivered to debug_wait answering with the location'],
      [
        'pause_state_20_frames_ms',
        "debug_pause_state: 20 frames with parameters, locals, this; the reference reads each frame's parameters and locals in one StackFrame.GetValues",
      ],
    ];
    const lines: Line[] = rows.map(([name, what]) => ({
      name,
      what,
      ours: got(ours, name, 'our client'),
      reference: got(ref, name, 'the reference client'),
      unit: 'ms',
      target: { kind: 'ratio', value: 1 },
    }));
    for (const k of ['frames_read', 'values_read'])
      if (medians(ours)[k] !== medians(ref)[k])
        throw new Error(
          `the clients did different work: ${k} ours ${medians(ours)[k]}, reference ${medians(ref)[k]}`,
        );
    const json = {
      work: {
        frames_read: { ours: medians(ours)['frames_read'], reference: medians(ref)['frames_read'] },
        values_read: { ours: medians(ours)['values_read'], reference: medians(ref)['values_read'] },
        iterations_per_round: n,
        rounds: o.rounds,
      },
      rounds: r,
    };
    return { lines, json };
  },
};
