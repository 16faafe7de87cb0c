// The "observe" benchmark. A logpoint hit: how long the game stands still per hit (from the
// event set's arrival to the resume's reply: Breakpoint.stopCost), for the logpoint
// "frame={frame} wave={Wave}" on the first line of Game.ObserveTargets.Frame (every frame),
// against the reference client doing the same work by hand at the same breakpoint (RefBench.cs
// `observe`: top frame, the parameter, the static, resume; the message reads no Time.frameCount,
// so neither client invokes), over the steady hits after WARM_HITS (the first ones apart).
// Targets: under 2 ms, and at most the reference's. A 120-frame watch of 3 expressions: the game's median
// frame time while watched (Time.unscaledDeltaTime sampled per frame) against its frame time
// unwatched just before (wall time over frames); target within 20%. Through unity/, the layer
// the tools call.

import type { FixtureProcess } from '../fixtures/launch.js';
import { Debugger } from '../unity/debug/debugger.js';
import { FRAME_PROGRAMS } from '../unity/debug/frame-eval.js';
import { watch } from '../unity/observe/watch.js';
import { distribution } from '../unity/observe/stats.js';
import { GameSession } from '../unity/session/session.js';
import { runReference } from './reference.js';
import { alternate, got, median, medians, type Line, type Options } from './scenario.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Logpoint hits before the measured ones (about 5 s at the fixture's 60 fps): V8 optimises the
 * hit's code after a few hundred runs, as the server's would be after minutes of use; the
 * reference's code is compiled by Mono at its first hit. The first hits are reported apart.
 */
const WARM_HITS = 300;

export async function measureObserve(opts: {
  port: number;
  iterations: number;
}): Promise<Record<string, number>> {
  const session = new GameSession({ parkTimeoutMs: 5000 });
  const dbg = new Debugger(session);
  try {
    await session.attach({ kind: 'endpoint', host: '127.0.0.1', port: opts.port });
    const bp = (
      await dbg.setBreakpoint('bench', {
        type: 'Game.ObserveTargets',
        method: 'Frame',
        log: 'frame={frame} wave={Wave}',
      })
    ).value;
    const deadline = Date.now() + 60_000;
    const hits = async (n: number): Promise<void> => {
      while ((bp.stopCost?.stops ?? 0) < n) {
        if (Date.now() > deadline) throw new Error('the logpoint did not hit often enough in 60 s');
        await sleep(20);
      }
    };
    // the first hit binds the programs; the hits after it run code V8 has not optimised yet
    await hits(opts.iterations + 1);
    const cold = bp.stopCost!.recentMs!.slice(1, opts.iterations + 1);
    // a server is long-lived: what a logpoint costs is its steady hits, after WARM_HITS
    await hits(opts.iterations + 1 + WARM_HITS);
    const stops = bp.stopCost!.recentMs!.slice(-opts.iterations);
    await dbg.remove('bench', bp.id);
    const entries = dbg.traces.read({ breakpointId: bp.id, limit: 1000 }).entries;
    if (!entries.every((e) => /^frame=\d+ wave=\d+$/.test(e.message)))
      throw new Error(`a logpoint entry is not the message: ${entries[0]?.message}`);
    // the holes are bound once (per frame shape), then only run
    const programs = (
      await session.run(
        'bench: programs bound',
        'bench',
        (ctx) => Promise.resolve({ ...ctx.connection.part(FRAME_PROGRAMS).stats }),
        { window: false },
      )
    ).value;

    const w = await watch(session, dbg, 'bench', {
      codes: [
        'UnityEngine.Time.unscaledDeltaTime * 1000f',
        'Game.ObserveTargets.Wave',
        'Time.frameCount',
      ],
      frames: 120,
      baselineMs: 1000,
    });
    const dt = w.series[0]!.numbers.filter((n): n is number => n !== undefined);
    const watchedMedian = distribution(dt)!.median;
    const unwatched = w.cost.unwatchedFrameMs!;
    return {
      logpoint_stop_ms: median(stops),
      logpoint_cold_stop_ms: median(cold),
      logpoint_entries: entries.length,
      logpoint_programs_bound: programs.misses,
      logpoint_programs_reused: programs.hits,
      watch_samples: w.frames.length,
      watch_frame_ms_median: watchedMedian,
      unwatched_frame_ms: unwatched,
      watch_frame_ratio: watchedMedian / unwatched,
      watch_stop_mean_ms: w.cost.stopMeanMs,
      watch_wall_frame_ms: w.cost.watchedFrameMs ?? 0,
    };
  } finally {
    await session.shutdown();
  }
}

export const observe = {
  async run(fixture: FixtureProcess, o: Options): Promise<{ lines: Line[]; json: unknown }> {
    const port = fixture.sdbPort;
    const n = Math.max(20, Math.min(o.iterations, 90));
    const r = await alternate(
      'observe',
      o.rounds,
      () => runReference({ port, scenario: 'observe', iterations: n, timeoutMs: 120_000 }),
      () => measureObserve({ port, iterations: n }),
    );
    const ours = (k: string): number[] => got(r.ours, k, 'our client');
    const ref = (k: string): number[] => got(r.reference, k, 'the reference client');
    const lines: Line[] = [
      {
        name: 'logpoint_stop_ms',
        what: 'the game stopped per logpoint hit (2 holes: a parameter, a static); the reference: breakpoint hit, frame, parameter, static, resume by hand',
        ours: ours('logpoint_stop_ms'),
        reference: ref('logpoint_stop_ms'),
        unit: 'ms',
        target: { kind: 'ratio', value: 1 },
      },
      {
        name: 'logpoint_stop_ms_absolute',
        what: 'the same, held to 2 ms',
        ours: ours('logpoint_stop_ms'),
        reference: undefined,
        unit: 'ms',
        target: { kind: 'below', value: 2 },
      },
      {
        name: 'logpoint_cold_stop_ms',
        what: 'the same, over the first hits after the logpoint is set (code not yet optimised by V8)',
        ours: ours('logpoint_cold_stop_ms'),
        reference: undefined,
        unit: 'ms',
      },
      {
        name: 'watch_frame_ratio',
        what: "a 120-frame watch of 3 expressions: the game's median frame time watched / unwatched",
        ours: ours('watch_frame_ratio'),
        reference: undefined,
        unit: 'x',
        target: { kind: 'below', value: 1.2 },
      },
      {
        name: 'watch_stop_mean_ms',
        what: 'the game stopped per watch sample (3 expressions + Time.frameCount)',
        ours: ours('watch_stop_mean_ms'),
        reference: undefined,
        unit: 'ms',
      },
    ];
    const m = medians(r.ours);
    const json = {
      work: {
        iterations_per_round: n,
        rounds: o.rounds,
        logpoint_entries: m['logpoint_entries'],
        logpoint_programs_bound: m['logpoint_programs_bound'],
        logpoint_programs_reused: m['logpoint_programs_reused'],
        watch_samples: m['watch_samples'],
        watch_frame_ms_median: m['watch_frame_ms_median'],
        unwatched_frame_ms: m['unwatched_frame_ms'],
        watch_wall_frame_ms: m['watch_wall_frame_ms'],
      },
      rounds: r,
    };
    return { lines, json };
  },
};
