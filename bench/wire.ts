// Our side of the "wire" benchmark: the same six measurements RefBench.cs makes with the
// reference client, made with sdb-protocol/ against the same running fixture.

import {
  InvokeFlags,
  SdbConnection,
  Values,
  invokeWhenParked,
  readString,
  type Value,
} from '../sdb-protocol/index.js';

export interface WireFigures {
  static_field_read_us: number;
  object_field_read_us: number;
  array_10k_read_us: number;
  string_1mb_read_us: number;
  invoke_parked_us: number;
  burst_1000_reads_us: number;
  /** The same burst with read coalescing off: pipelining alone (compared with the same reference row). */
  burst_1000_reads_pipelined_only_us: number;
}

export interface WireOptions {
  port: number;
  /** Timed runs per row, as RefBench takes them (warm-up 50, or 5 for the heavy rows). */
  iterations?: number;
  /** Bursts averaged for the burst row (RefBench: min(iterations, 10)). */
  bursts?: number;
  /** Untimed calls before each light row; the reference client gets the same count. */
  warmup?: number;
}

/**
 * Microseconds per call of `op`: after `warmup` untimed calls, `n` timed calls in 10 batches and
 * the median of the batch means — exactly RefBench's Measure.MeanMicros. The debuggee's GC pauses
 * and the machine's scheduling swing single batches by half; the median batch is robust to it.
 */
async function timeIt(n: number, warmup: number, op: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < warmup; i++) await op();
  const batches = Math.min(10, n);
  const means: number[] = [];
  for (let b = 0; b < batches; b++) {
    const size = Math.floor(n / batches) + (b < n % batches ? 1 : 0);
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < size; i++) await op();
    means.push(Number(process.hrtime.bigint() - t0) / 1000 / size);
  }
  means.sort((x, y) => x - y);
  const mid = Math.floor(batches / 2);
  return batches % 2 ? means[mid]! : (means[mid - 1]! + means[mid]!) / 2;
}

function objectId(v: Value | undefined): number {
  if (v?.kind !== 'object' && v?.kind !== 'string')
    throw new Error(`expected an object, got ${JSON.stringify(v)}`);
  return v.objectId;
}

export async function measureWire(opts: WireOptions): Promise<WireFigures> {
  const n = opts.iterations ?? 200;
  const bursts = opts.bursts ?? Math.min(n, 10);
  const warmup = opts.warmup ?? 50;
  const conn = await SdbConnection.connect({ port: opts.port });
  try {
    const [probe] = await conn.send('VM.GET_TYPES', { name: 'Game.Probe', ignoreCase: false });
    if (!probe) throw new Error('Game.Probe not found in the debuggee');
    const fields = await conn.send('TYPE.GET_FIELDS', { typeId: probe });
    const field = (name: string): number => {
      const f = fields.find((x) => x.name === name);
      if (!f) throw new Error(`Game.Probe.${name} not found`);
      return f.fieldId;
    };
    const sInt = field('SInt');
    const [instance, bigInts, big] = await conn.send('TYPE.GET_VALUES', {
      typeId: probe,
      fieldIds: [field('Instance'), field('SBigInts'), field('SBig')],
    });
    const iInt = field('IInt');
    const readStatic = (): Promise<Value[]> =>
      conn.send('TYPE.GET_VALUES', { typeId: probe, fieldIds: [sInt] });

    const static_field_read_us = await timeIt(n, warmup, readStatic);
    const object_field_read_us = await timeIt(n, warmup, () =>
      conn.send('OBJECT_REF.GET_VALUES', { objectId: objectId(instance), fieldIds: [iInt] }),
    );

    const arrayId = objectId(bigInts);
    let checksum = 0;
    const array_10k_read_us = await timeIt(n, 5, async () => {
      const values = await conn.send('ARRAY_REF.GET_VALUES', { arrayId, index: 0, count: 10_000 });
      let sum = 0;
      for (const v of values) sum += (v as { value: number }).value;
      checksum = sum;
    });
    const expected = 7 * ((9999 * 10000) / 2) - 50000 * 10000;
    if (checksum !== expected) throw new Error(`array checksum ${checksum}, expected ${expected}`);

    let length = 0;
    const string_1mb_read_us = await timeIt(n, 5, async () => {
      length = (await readString(conn, objectId(big))).text.length;
    });
    if (length !== 1 << 20) throw new Error(`1 MB string read ${length} chars`);

    // The main thread: unnamed, not a pool thread, running the entry point (see wire-runtime.test.ts).
    const threads = await conn.send('VM.ALL_THREADS');
    const names = await Promise.all(
      threads.map((t) => conn.send('THREAD.GET_NAME', { threadId: t })),
    );
    const main = threads.find((_, i) => names[i] === '')!;
    const [add] = await conn.send('TYPE.GET_METHODS_BY_NAME_FLAGS', {
      typeId: probe,
      name: 'Add',
      flags: 8 | 16,
    });
    const params = {
      threadId: main,
      flags: InvokeFlags.DISABLE_BREAKPOINTS,
      methodId: add!,
      thisArg: Values.null(),
      args: [Values.i4(1), Values.i4(2)],
    };
    await conn.send('VM.SUSPEND');
    let invoke_parked_us: number;
    try {
      await invokeWhenParked(conn, params, { parkTimeoutMs: 5000 });
      invoke_parked_us = await timeIt(n, warmup, () => conn.send('VM.INVOKE_METHOD', params));
    } finally {
      await conn.send('VM.RESUME');
    }

    const burst_1000_reads_us = await timeIt(bursts, 5, () =>
      Promise.all(Array.from({ length: 1000 }, readStatic)),
    );

    return {
      static_field_read_us,
      object_field_read_us,
      array_10k_read_us,
      string_1mb_read_us,
      invoke_parked_us,
      burst_1000_reads_us,
      // One debugger at a time: measured on a second connection after this one closes.
      burst_1000_reads_pipelined_only_us: 0,
    };
  } finally {
    await conn.close();
  }
}

/** The burst row again with read coalescing off: what pipelining alone gives. */
export async function measurePipelinedBurst(opts: WireOptions): Promise<number> {
  const conn = await SdbConnection.connect({ port: opts.port, coalesceReads: false });
  try {
    const [probe] = await conn.send('VM.GET_TYPES', { name: 'Game.Probe', ignoreCase: false });
    const fields = await conn.send('TYPE.GET_FIELDS', { typeId: probe! });
    const sInt = fields.find((f) => f.name === 'SInt')!.fieldId;
    const read = (): Promise<Value[]> =>
      conn.send('TYPE.GET_VALUES', { typeId: probe!, fieldIds: [sInt] });
    return await timeIt(opts.bursts ?? 10, 5, () =>
      Promise.all(Array.from({ length: 1000 }, read)),
    );
  } finally {
    await conn.close();
  }
}
