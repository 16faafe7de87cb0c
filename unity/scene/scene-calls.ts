// The game calls the scene tools make, with what never changes while a game runs cached per
// connection: type ids, method ids (generic instantiations by METHOD.MAKE_GENERIC_METHOD), the
// System.Type and MethodInfo objects (Mono caches reflection objects for the domain's life),
// and the open-instance delegates the bulk reads map arrays with, pinned once per connection.
//
// The bulk path: `Array.ConvertAll<TIn, TOut>(array, Converter)` with a Converter made by
// `Delegate.CreateDelegate(typeof(Converter<TIn, TOut>), getterMethodInfo)` runs one getter over
// every element in one invoke (activeSelf, parent, GetInstanceID...). The delegates would be
// collected between calls (the agent's object ids are weak), so they are kept in one object[]
// held by a GCHandle (with the Transform filter's predicate and the Join's separator): about a
// dozen small objects per attached game, made by the first call, so a warm call spends its
// invokes on the work alone.

import {
  Values,
  type InvokeCall,
  type SdbConnection,
  type Value,
} from '../../sdb-protocol/index.js';
import type { MethodDescriptor } from '../../eval/runtime.js';
import { UnityError } from '../errors.js';
import { GAME_METADATA, type GameMetadata } from '../runtime/game-metadata.js';
import { handleOf, typeIdOf } from '../runtime/convert.js';
import { connectionPart } from '../session/game-connection.js';
import type { OperationContext } from '../session/session.js';

/** A getter mapped over arrays: `declaring.method()` on each element of a `TIn[]`. */
export interface Getter {
  /** Full name of the array's element type (the Converter's TIn). */
  input: string;
  /** Full name of the type declaring `method` (TIn or a base of it). */
  declaring: string;
  method: string;
  /** Full name of the result type (the Converter's TOut; a base of the getter's for objects). */
  output: string;
}

/**
 * How `findAll` finds a type's loaded objects, the best this game's Unity has (chosen once per
 * connection from the metadata, no invoke): FindObjectsByType<T>(Include, None) (2021.3.18,
 * 2022.2+); FindObjectsOfType<T>(true) (2020.1+); before that Resources.FindObjectsOfTypeAll<T>()
 * kept to the objects in a scene (it finds assets too); FindObjectsOfType<T>() (active only) if
 * even that is missing.
 */
export type FindApi =
  'FindObjectsByType' | 'FindObjectsOfType(bool)' | 'FindObjectsOfTypeAll' | 'FindObjectsOfType()';

/** What a reply says when it was not found by FindObjectsByType (undefined: nothing to say). */
export function findNote(api: FindApi | undefined): string | undefined {
  switch (api) {
    case 'FindObjectsOfType(bool)':
      return 'this Unity has no Object.FindObjectsByType: objects found by FindObjectsOfType<T>(includeInactive: true), inactive ones included';
    case 'FindObjectsOfTypeAll':
      return 'this Unity (before 2020.1) has no FindObjectsByType nor FindObjectsOfType(bool): objects found by Resources.FindObjectsOfTypeAll<T>() kept to those in a scene (assets dropped), inactive ones included';
    case 'FindObjectsOfType()':
      return 'this Unity has no FindObjectsByType, FindObjectsOfType(bool) nor Resources.FindObjectsOfTypeAll: objects found by FindObjectsOfType<T>(), so INACTIVE OBJECTS ARE MISSING';
    case 'FindObjectsByType':
    case undefined:
      return undefined;
  }
}

const FIND_PROBES: readonly { api: FindApi; type: string; name: string; params: string[] }[] = [
  {
    api: 'FindObjectsByType',
    type: 'UnityEngine.Object',
    name: 'FindObjectsByType',
    params: ['UnityEngine.FindObjectsInactive', 'UnityEngine.FindObjectsSortMode'],
  },
  {
    api: 'FindObjectsOfType(bool)',
    type: 'UnityEngine.Object',
    name: 'FindObjectsOfType',
    params: ['System.Boolean'],
  },
  {
    api: 'FindObjectsOfTypeAll',
    type: 'UnityEngine.Resources',
    name: 'FindObjectsOfTypeAll',
    params: [],
  },
  { api: 'FindObjectsOfType()', type: 'UnityEngine.Object', name: 'FindObjectsOfType', params: [] },
];

const missing = (e: unknown): boolean =>
  e instanceof UnityError && (e.code === 'MEMBER_NOT_FOUND' || e.code === 'TYPE_NOT_FOUND');

class SceneCache {
  /** The find API chosen for this connection (see FindApi). */
  find: Promise<FindApi> | undefined;
  readonly types = new Map<string, Promise<number>>();
  readonly methods = new Map<string, Promise<MethodDescriptor>>();
  /** Component types by the name a call gave (see SceneCalls.component). */
  readonly components = new Map<string, Promise<{ typeId: number; fullName: string }>>();
  /** Delegates by getter key, pinned in the game (see the file comment). */
  readonly delegates = new Map<string, number>();
  /** Pinned object[]s (GCHandle) whose slots keep delegates and a call's arrays alive. */
  readonly holders: { id: number; free: number[] }[] = [];
  constructor(readonly md: GameMetadata) {}
}

const SCENE_CACHE = connectionPart('scene caches', (c) => new SceneCache(c.part(GAME_METADATA)));

export type Held = { holder: number; slot: number }[];

/** Slots per pinned holder: the delegates plus the arrays of a few calls at once. */
const HOLDER_SLOTS = 64;

const key = (g: Getter): string => `${g.input}>${g.declaring}.${g.method}>${g.output}`;

/** An INVALID_OBJECT from the agent: a cached object was collected (refetch and retry once). */
export function isCollected(e: unknown): boolean {
  return (
    e instanceof Error && /INVALID_OBJECT/.test(`${(e as { code?: string }).code} ${e.message}`)
  );
}

/** A call of SceneCalls.callAll: a method, its receiver (ignored when static), its arguments. */
export interface SceneCall {
  m: MethodDescriptor;
  thisArg: Value;
  args: readonly Value[];
  /**
   * The call runs the game's own code (a ConvertAll over a getter of the game's types): never
   * run twice, so it ends its command (the last result of a batch cannot be lost, see Levels).
   */
  once?: boolean;
}

/** Whether a getter is the game's own code, not the engine's or the framework's. */
export function gameCode(declaring: string): boolean {
  return !/^(UnityEngine|Unity|System|Mono|TMPro)\./.test(declaring);
}

/**
 * The commands a batch of calls is sent in: one, unless calls that must not run twice (`once`)
 * are in it; each of those ends a command, so its result is the command's last (never lost,
 * never asked again).
 */
export function commandsOf(once: readonly boolean[]): [start: number, end: number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 0; i < once.length; i++)
    if (once[i]) {
      out.push([start, i + 1]);
      start = i + 1;
    }
  if (start < once.length) out.push([start, once.length]);
  return out;
}

/** After this long with calls waiting, they leave even if a chain is still busy elsewhere. */
const LEVEL_WAIT_MS = 50;

/**
 * The barrier of `SceneCalls.together`: each running chain either works (wire commands, our
 * own code) or waits for its calls; when every chain waits, the waiting calls leave in one
 * VM.INVOKE_METHODS (one per virtual flag), in the order they were made, and each chain gets its
 * results. A chain that never calls again (it waits on something else) cannot hold the others:
 * after LEVEL_WAIT_MS the waiting calls leave anyway (a command more, nothing else).
 *
 * The agent keeps an object it names alive for the rest of the suspension only when it names it
 * while the VM is suspended (debugger-agent.c `get_objref`: `suspended_objs`). A lone invoke's
 * reply is written after the VM is suspended again; in a batch only the last one's is, the
 * others while the VM still runs the next calls, so a collection run by a later call of the
 * same batch can take an earlier call's result before `keep` pins it (measured: a scene's
 * GetRootGameObjects array, pinned as null). So after each batch every object it returned
 * but the last is asked for its type (one pipelined round trip, `secure`); if one is gone, the
 * live ones are pinned and its call runs again alone. The VM stays suspended from the batch's
 * end until the chains have pinned what they keep. So the calls given to a level must be
 * repeatable (the scene tools' are reads), except those marked `once` (a getter of the game's
 * own types, whose code could do anything): each of those ends its command (commandsOf), as its
 * last call, whose result is named with the VM suspended and never asked again.
 */
export class Levels {
  /** Chains running (working or waiting). */
  active = 0;
  private waiting: {
    calls: InvokeCall[];
    /** Per call: it must not run twice (see commandsOf). */
    once: boolean[];
    virtual: boolean;
    resolve: (v: Value[]) => void;
    reject: (e: unknown) => void;
  }[] = [];
  /** Chains whose calls were sent and are not answered yet. */
  private sent = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly run: (
      calls: readonly InvokeCall[],
      virtual: boolean,
    ) => Promise<{ result: Value }[]>,
    private readonly secure: (
      out: { result: Value }[],
      calls: InvokeCall[],
      virtual: boolean,
    ) => Promise<void>,
  ) {}

  /**
   * What a batch returned, made safe (see the class comment): every object it named but the
   * last is asked for its type, all at once; the live ones are pinned (`keep`), then each one
   * found gone is asked for again by its own call (its reply written with the VM suspended).
   * The calls of a batch are reads, so a repeat changes nothing.
   */
  static async secure(
    out: { result: Value }[],
    calls: readonly InvokeCall[],
    conn: SdbConnection,
    keep: (v: Value) => Promise<Value>,
    again: (call: InvokeCall) => Promise<{ result: Value }>,
  ): Promise<void> {
    const gone: number[] = [];
    await Promise.all(
      out.slice(0, -1).map(async ({ result: v }, i) => {
        if (v.kind !== 'object' && v.kind !== 'string') return;
        try {
          await conn.send('OBJECT_REF.GET_TYPE', { objectId: v.objectId });
        } catch (e) {
          if (!isCollected(e)) throw e;
          gone.push(i);
        }
      }),
    );
    if (gone.length === 0) return;
    await Promise.all(out.filter((_, i) => !gone.includes(i)).map(({ result: v }) => keep(v)));
    for (const i of gone.sort((x, y) => x - y)) {
      out[i] = await again(calls[i]!);
      await keep(out[i].result);
    }
  }

  call(calls: InvokeCall[], virtual: boolean, once: boolean[] = []): Promise<Value[]> {
    return new Promise<Value[]>((resolve, reject) => {
      const flags = calls.map((_, i) => once[i] ?? false);
      this.waiting.push({ calls, once: flags, virtual, resolve, reject });
      this.check();
    });
  }

  ended(): void {
    this.active--;
    this.check();
  }

  private check(): void {
    if (this.waiting.length === 0) return;
    if (this.waiting.length + this.sent >= this.active) {
      this.flush();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      if (this.waiting.length) this.flush();
    }, LEVEL_WAIT_MS);
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting.splice(0);
    this.sent += batch.length;
    void (async () => {
      // one command per flag, in order (a virtual call cannot share the static calls' flags)
      for (const virtual of [false, true]) {
        const group = batch.filter((w) => w.virtual === virtual);
        if (group.length === 0) continue;
        try {
          const calls = group.flatMap((w) => w.calls);
          // a call that must not run twice ends its command (commandsOf)
          const out: { result: Value }[] = [];
          for (const [from, to] of commandsOf(group.flatMap((w) => w.once))) {
            const part = calls.slice(from, to);
            const got = await this.run(part, virtual);
            await this.secure(got, part, virtual);
            out.push(...got);
          }
          let at = 0;
          for (const w of group) {
            w.resolve(out.slice(at, at + w.calls.length).map((o) => o.result));
            at += w.calls.length;
          }
        } catch (e) {
          for (const w of group) w.reject(e);
        } finally {
          this.sent -= group.length;
        }
      }
    })();
  }
}

export class SceneCalls {
  readonly conn: SdbConnection;
  readonly md: GameMetadata;
  private readonly cache: SceneCache;

  constructor(readonly ctx: OperationContext) {
    this.conn = ctx.conn;
    this.cache = ctx.connection.part(SCENE_CACHE);
    this.md = this.cache.md;
  }

  /** Drops the cached game objects (after INVALID_OBJECT: something was collected). */
  forgetObjects(): void {
    this.md.forgetTypeObjects(); // delegates and holders are pinned: never collected
  }

  /** Objects this call pinned (kept or for the connection's life). */
  private readonly stored = new Set<number>();

  /** Slots this call holds (kept alive by a pinned holder until `release`). */
  private readonly held: Held = [];

  /**
   * Keeps `v` (an object this call made) alive until `release`: stored in a free slot of a
   * pinned holder (one ARRAY_REF.SET_VALUES; a new holder, two invokes, when all are taken).
   * Without it a collection run by a later invoke could take it (the agent's ids are weak).
   */
  async keep(v: Value): Promise<Value> {
    return this.store(v, true);
  }

  /** `keep` for the connection's life: the slot is never released (delegates, separators). */
  private async pin(v: Value): Promise<Value> {
    return this.store(v, false);
  }

  private async store(v: Value, untilRelease: boolean): Promise<Value> {
    if (v.kind !== 'object' && v.kind !== 'string') return v;
    // once per object (a batch's results may be pinned before their chain keeps them)
    if (this.stored.has(v.objectId)) return v;
    this.stored.add(v.objectId);
    let h = this.cache.holders.find((x) => x.free.length > 0);
    if (!h) h = await this.newHolder();
    const slot = h.free.pop()!;
    if (untilRelease) this.held.push({ holder: h.id, slot });
    // Awaited until written, not answered (a round trip per array in the window): the agent
    // runs commands in the order they arrive, so the slot is set before any later invoke can
    // run a collection. `settle` and `release` wait for the answers.
    let written!: () => void;
    const sent = new Promise<void>((resolve) => (written = resolve));
    const set = this.conn.send(
      'ARRAY_REF.SET_VALUES',
      { arrayId: h.id, index: slot, values: [v] },
      { onSent: () => written() },
    );
    this.pending.push(set);
    await Promise.race([sent, set.then(written, written)]);
    return v;
  }

  /** The answers of `keep`'s writes not yet awaited. */
  private readonly pending: Promise<void>[] = [];

  /** Waits for `keep`'s writes to be answered: their errors (a lost connection...) surface here. */
  async settle(): Promise<void> {
    await Promise.all(this.pending.splice(0));
  }

  /** The slots taken so far, handed to `release` (perhaps by another operation's SceneCalls). */
  takeHeld(): Held {
    return this.held.splice(0);
  }

  /** Empties the slots (wire writes only: no window needed). */
  async release(held: Held = this.takeHeld()): Promise<void> {
    // the slots' writes first (a slot is emptied after it was set), their errors after the clear
    const sets = await Promise.allSettled(this.pending.splice(0));
    await Promise.all(
      held.map((x) =>
        this.conn.send('ARRAY_REF.SET_VALUES', {
          arrayId: x.holder,
          index: x.slot,
          values: [Values.null()],
        }),
      ),
    );
    for (const x of held) this.cache.holders.find((h) => h.id === x.holder)?.free.push(x.slot);
    this.stored.clear();
    const failed = sets.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async newHolder(): Promise<{ id: number; free: number[] }> {
    const a = await this.newArray(
      'System.Object',
      new Array<Value>(HOLDER_SLOTS).fill(Values.null()),
    );
    const alloc = await this.method('System.Runtime.InteropServices.GCHandle', 'Alloc', [
      'System.Object',
    ]);
    await this.call(alloc, Values.null(), [a]);
    if (a.kind !== 'object') throw new UnityError('INTERNAL', 'no holder array');
    const h = {
      id: a.objectId,
      free: Array.from({ length: HOLDER_SLOTS }, (_, i) => HOLDER_SLOTS - 1 - i),
    };
    this.cache.holders.push(h);
    return h;
  }

  /**
   * The Component type a tool names (the catalogue's resolution: a full name, or a unique
   * simple name), cached per connection: found types stay found, as the metadata keeps them
   * (a search of every loaded type name costs milliseconds, in the window). Not a Component:
   * INVALID_ARGUMENT; unknown or ambiguous: the catalogue's errors, not cached.
   */
  component(name: string): Promise<{ typeId: number; fullName: string }> {
    let p = this.cache.components.get(name);
    if (!p) {
      p = (async () => {
        const typeId = await this.ctx.catalog.resolveType(name);
        const fullName = await this.md.fullName(typeId);
        const component = await this.type('UnityEngine.Component');
        if (!(await this.md.isAssignable(handleOf(component), handleOf(typeId))))
          throw new UnityError(
            'INVALID_ARGUMENT',
            `${fullName} is not a Component: scene_query reads components of GameObjects`,
          );
        return { typeId, fullName };
      })();
      p.catch(() => this.cache.components.delete(name));
      this.cache.components.set(name, p);
    }
    return p;
  }

  type(name: string): Promise<number> {
    let p = this.cache.types.get(name);
    if (!p) {
      p = this.md.findType(name).then((t) => {
        if (!t) throw new UnityError('TYPE_NOT_FOUND', `${name} is not loaded in this game`);
        return typeIdOf(t);
      });
      p.catch(() => this.cache.types.delete(name));
      this.cache.types.set(name, p);
    }
    return p;
  }

  async hasType(name: string): Promise<boolean> {
    return (await this.md.findType(name)) !== undefined;
  }

  /** A method of `typeName` by name and parameter full names (`*` matches any). */
  method(
    typeName: string,
    name: string,
    params: readonly string[],
    arity = 0,
  ): Promise<MethodDescriptor> {
    const k = `${typeName}.${name}(${params.join(',')})\`${arity}`;
    let p = this.cache.methods.get(k);
    if (!p) {
      p = (async () => {
        const typeId = await this.type(typeName);
        const { methods } = await this.md.members(handleOf(typeId), name);
        for (const m of methods) {
          if (m.parameters.length !== params.length || m.genericArity !== arity) continue;
          let ok = true;
          for (let i = 0; i < params.length && ok; i++) {
            if (params[i] === '*') continue;
            ok = (await this.md.describe(m.parameters[i]!.type)).fullName === params[i];
          }
          if (ok) return m;
        }
        throw new UnityError(
          'MEMBER_NOT_FOUND',
          `${typeName}.${name}(${params.join(', ')}) is not in this game's Unity version`,
        );
      })();
      p.catch(() => this.cache.methods.delete(k));
      this.cache.methods.set(k, p);
    }
    return p;
  }

  /** A generic method closed over `typeArgs` (full names), cached. */
  generic(
    typeName: string,
    name: string,
    params: readonly string[],
    typeArgs: readonly string[],
  ): Promise<MethodDescriptor> {
    const k = `${typeName}.${name}(${params.join(',')})<${typeArgs.join(',')}>`;
    let p = this.cache.methods.get(k);
    if (!p) {
      p = (async () => {
        const def = await this.method(typeName, name, params, typeArgs.length);
        const ids = await Promise.all(typeArgs.map((t) => this.type(t)));
        return this.md.instantiateMethod(def, ids.map(handleOf));
      })();
      p.catch(() => this.cache.methods.delete(k));
      this.cache.methods.set(k, p);
    }
    return p;
  }

  async call(
    m: MethodDescriptor,
    thisArg: Value,
    args: readonly Value[],
    virtual = false,
  ): Promise<Value> {
    const [out] = await this.callAll([{ m, thisArg, args }], virtual);
    return out!;
  }

  /**
   * Calls in order, in one command (VM.INVOKE_METHODS: the game resumed and suspended once for
   * all); inside `together`, in the command of the current level with the other chains' calls.
   * A call cannot take an earlier one's result (arguments are fixed when sent).
   */
  async callAll(calls: readonly SceneCall[], virtual = false): Promise<Value[]> {
    const wire = calls.map((c) => ({
      methodId: c.m.handle as number,
      thisArg: c.m.isStatic ? Values.null() : c.thisArg,
      args: c.args,
    }));
    const once = calls.map((c) => c.once ?? false);
    if (this.level) return this.level.call(wire, virtual, once);
    if (wire.length === 1) {
      const c = wire[0]!;
      return [(await this.ctx.invoke(c.methodId, c.thisArg, c.args, { virtual })).result];
    }
    const out: Value[] = [];
    for (const [from, to] of commandsOf(once)) {
      const part = wire.slice(from, to);
      const got =
        part.length === 1
          ? [await this.ctx.invoke(part[0]!.methodId, part[0]!.thisArg, part[0]!.args, { virtual })]
          : await this.ctx.invokeMany(part, { virtual });
      if (part.length > 1) await this.secure(got, part, virtual);
      out.push(...got.map((o) => o.result));
    }
    return out;
  }

  /** Levels.secure over this call's keep and a lone invoke. */
  private secure(out: { result: Value }[], calls: readonly InvokeCall[], virtual: boolean) {
    return Levels.secure(
      out,
      calls,
      this.conn,
      (v) => this.keep(v),
      (c) => this.ctx.invoke(c.methodId, c.thisArg, c.args, { virtual }),
    );
  }

  /** The levels of the running `together` (undefined: each call is sent at once). */
  private level: Levels | undefined;

  /**
   * Runs `chains` side by side, their calls gathered by level: once every running chain waits
   * for a call, all of them leave in one command (see Levels), so chains of k calls each cost
   * about k commands together instead of k per chain. Chains must not depend on each other's
   * effects in the game within a level, and their calls must be repeatable (reads: see
   * Levels). Nested `together`s share the levels.
   */
  async together<T extends readonly (() => Promise<unknown>)[]>(
    ...chains: T
  ): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
    type Out = { -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> };
    if (chains.length === 0) return [] as unknown as Out;
    const outer = this.level;
    const levels =
      outer ??
      new Levels(
        (calls, virtual) => this.ctx.invokeMany(calls, { virtual }),
        (out, calls, virtual) => this.secure(out, calls, virtual),
      );
    this.level = levels;
    // the caller's chain becomes these chains (it waits for them); the last one to end gives
    // its place back to the caller
    levels.active += chains.length - (outer ? 1 : 0);
    let left = chains.length;
    const end = (): void => {
      left--;
      if (left > 0 || !outer) levels.ended();
    };
    try {
      // every chain ends before this returns (no call of a failed one's siblings after it)
      const settled = await Promise.allSettled(
        chains.map(async (chain) => {
          try {
            return await chain();
          } finally {
            end();
          }
        }),
      );
      const failed = settled.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as Out;
    } finally {
      if (!outer) this.level = undefined;
    }
  }

  /** The System.Type object of a type (TYPE.GET_OBJECT: no invoke; the metadata's, per connection). */
  typeObject(typeId: number): Promise<number> {
    return this.md.typeObjectId(handleOf(typeId));
  }

  async enumValue(typeName: string, value: number): Promise<Value> {
    return Values.struct(await this.type(typeName), [Values.i4(value)]);
  }

  async string(text: string): Promise<Value> {
    const domainId =
      this.conn.vmStart?.rootDomainId ?? (await this.conn.send('APPDOMAIN.GET_ROOT_DOMAIN'));
    return Values.string(await this.conn.send('APPDOMAIN.CREATE_STRING', { domainId, text }));
  }

  /** `Array.CreateInstance(type, n)` filled with `values` (one invoke). */
  async newArray(elementType: string, values: readonly Value[]): Promise<Value> {
    const create = await this.method('System.Array', 'CreateInstance', [
      'System.Type',
      'System.Int32',
    ]);
    const a = await this.call(create, Values.null(), [
      Values.object(await this.typeObject(await this.type(elementType))),
      Values.i4(values.length),
    ]);
    if (a.kind !== 'object')
      throw new UnityError('INTERNAL', 'Array.CreateInstance returned no array');
    if (values.length)
      await this.conn.send('ARRAY_REF.SET_VALUES', { arrayId: a.objectId, index: 0, values });
    return a;
  }

  /**
   * Makes (first call on this connection) and pins the delegates of `getters`: each an
   * open-instance `Converter<TIn, TOut>` over the getter (see `pinDelegate`). Later calls cost
   * nothing.
   */
  async prepareDelegates(getters: readonly Getter[]): Promise<void> {
    for (const g of getters)
      await this.pinDelegate(key(g), {
        delegate: 'System.Converter`2',
        typeArgs: [g.input, g.output],
        declaring: g.declaring,
        method: g.method,
      });
  }

  /**
   * A delegate made once per connection and pinned for its life, by `k`: the MethodInfo
   * (`declaring.GetMethod(method)`), the closed delegate type (`delegate` over `typeArgs`, by
   * MakeGenericType; one Type[] per arity refilled over the wire for the next) and
   * `Delegate.CreateDelegate`, open-instance or closed over `target` when given. Its object id.
   */
  private async pinDelegate(
    k: string,
    d: {
      delegate: string;
      typeArgs: readonly string[];
      declaring: string;
      method: string;
      target?: () => Promise<Value>;
    },
  ): Promise<number> {
    const pinned = this.cache.delegates.get(k);
    if (pinned !== undefined) return pinned;
    const getMethod = await this.method('System.Type', 'GetMethod', ['System.String']);
    const info = await this.call(
      getMethod,
      Values.object(await this.typeObject(await this.type(d.declaring))),
      [await this.string(d.method)],
      true,
    );
    if (info.kind !== 'object')
      throw new UnityError('MEMBER_NOT_FOUND', `${d.declaring}.${d.method} is not in this game`);
    const typeArgs = await Promise.all(
      d.typeArgs.map(async (t) => Values.object(await this.typeObject(await this.type(t)))),
    );
    // a Type[] of this call not in use by another chain's pin, refilled; else a new one
    const free = this.typeArrays.get(typeArgs.length) ?? [];
    this.typeArrays.set(typeArgs.length, free);
    let args = free.pop();
    if (!args) args = await this.keep(await this.newArray('System.Type', typeArgs));
    else if (args.kind === 'object')
      await this.conn.send('ARRAY_REF.SET_VALUES', {
        arrayId: args.objectId,
        index: 0,
        values: typeArgs,
      });
    const makeGeneric = await this.method('System.Type', 'MakeGenericType', ['System.Type[]']);
    const type = await this.call(
      makeGeneric,
      Values.object(await this.typeObject(await this.type(d.delegate))),
      [args],
      true,
    );
    free.push(args);
    const target = d.target ? await d.target() : undefined;
    const made = target
      ? await this.call(
          await this.method('System.Delegate', 'CreateDelegate', [
            'System.Type',
            'System.Object',
            'System.Reflection.MethodInfo',
          ]),
          Values.null(),
          [type, target, info],
        )
      : await this.call(
          await this.method('System.Delegate', 'CreateDelegate', [
            'System.Type',
            'System.Reflection.MethodInfo',
          ]),
          Values.null(),
          [type, info],
        );
    if (made.kind !== 'object') throw new UnityError('INTERNAL', `no delegate for ${k}`);
    await this.pin(made);
    this.cache.delegates.set(k, made.objectId);
    return made.objectId;
  }

  /** This call's Type[]s for MakeGenericType not in use, by length (kept until `release`). */
  private readonly typeArrays = new Map<number, Value[]>();

  /**
   * A field's value of every element as text, in two invokes: `ConvertAll` with a delegate
   * closed over the field's FieldInfo (`Converter<TIn, object>` calling `FieldInfo.GetValue`,
   * made and pinned once per connection), then `string.Join` of the boxed values. For fields
   * whose ToString() is their value (numbers, bool, enums); the caller parses the text.
   */
  async fieldTexts(array: Value, input: string, declaring: string, field: string): Promise<Value> {
    const d = await this.pinDelegate(`field:${input}>${declaring}.${field}`, {
      delegate: 'System.Converter`2',
      typeArgs: [input, 'System.Object'],
      declaring: 'System.Reflection.FieldInfo',
      method: 'GetValue',
      target: async () => {
        const getField = await this.method('System.Type', 'GetField', [
          'System.String',
          'System.Reflection.BindingFlags',
        ]);
        const info = await this.call(
          getField,
          Values.object(await this.typeObject(await this.type(declaring))),
          [
            await this.string(field),
            await this.enumValue('System.Reflection.BindingFlags', 4 | 16 | 32),
          ],
          true,
        );
        if (info.kind !== 'object')
          throw new UnityError(
            'MEMBER_NOT_FOUND',
            `${declaring}.${field} is not an instance field`,
          );
        return info;
      },
    });
    const convert = await this.generic(
      'System.Array',
      'ConvertAll',
      ['*', '*'],
      [input, 'System.Object'],
    );
    const boxed = await this.keep(
      await this.call(convert, Values.null(), [array, Values.object(d)]),
    );
    return this.join(boxed, '\u001e');
  }

  /**
   * The elements of `array` (a `TElem[]`) that are a `type` (or derive from it), as a new
   * `TElem[]` in the same order: `Array.FindAll(array, match)` with a `Predicate<TElem>` closed
   * over `typeof(type)`'s `Type.IsInstanceOfType` (made and pinned once per connection). One
   * invoke, no getter per element.
   */
  async filterByType(array: Value, elementType: string, type: string): Promise<Value> {
    const d = await this.pinDelegate(`isType:${elementType}>${type}`, {
      delegate: 'System.Predicate`1',
      typeArgs: [elementType],
      declaring: 'System.Type',
      method: 'IsInstanceOfType',
      target: async () => Values.object(await this.typeObject(await this.type(type))),
    });
    const findAll = await this.generic('System.Array', 'FindAll', ['*', '*'], [elementType]);
    return this.keep(await this.call(findAll, Values.null(), [array, Values.object(d)]));
  }

  /** `Array.CreateInstance(elementType, n)`, kept (one invoke). */
  async typedArray(elementType: string, n: number): Promise<Value> {
    const create = await this.method('System.Array', 'CreateInstance', [
      'System.Type',
      'System.Int32',
    ]);
    return this.keep(
      await this.call(create, Values.null(), [
        Values.object(await this.typeObject(await this.type(elementType))),
        Values.i4(n),
      ]),
    );
  }

  /** The call `Array.Copy(from, to, n)` (a cast per reference when `to` is a derived type's). */
  async copyCall(from: Value, to: Value, n: number): Promise<SceneCall> {
    const copy = await this.method('System.Array', 'Copy', [
      'System.Array',
      'System.Array',
      'System.Int32',
    ]);
    return { m: copy, thisArg: Values.null(), args: [from, to, Values.i4(n)] };
  }

  /**
   * `Array.ConvertAll(array, getter)`: the getter's value for every element (one invoke), kept
   * alive until `release`.
   */
  async convertAll(array: Value, g: Getter): Promise<Value> {
    const [out] = await this.callAll([await this.convertAllCall(array, g)]);
    return this.keep(out!);
  }

  /** The call of `convertAll` (its delegate made first), to send with others (`callAll`). */
  async convertAllCall(array: Value, g: Getter): Promise<SceneCall> {
    await this.prepareDelegates([g]);
    const convert = await this.generic(
      'System.Array',
      'ConvertAll',
      ['*', '*'],
      [g.input, g.output],
    );
    return {
      m: convert,
      thisArg: Values.null(),
      args: [array, Values.object(this.cache.delegates.get(key(g))!)],
      ...(gameCode(g.declaring) ? { once: true } : {}),
    };
  }

  /** The find API this game has (the first call probes the metadata; cached per connection). */
  findApi(): Promise<FindApi> {
    let p = this.cache.find;
    if (!p) {
      p = (async () => {
        for (const probe of FIND_PROBES) {
          try {
            await this.method(probe.type, probe.name, probe.params, 1);
            return probe.api;
          } catch (e) {
            if (!missing(e)) throw e;
          }
        }
        throw new UnityError(
          'MEMBER_NOT_FOUND',
          `this game's UnityEngine has none of Object.FindObjectsByType<T>, FindObjectsOfType<T>(bool), Resources.FindObjectsOfTypeAll<T>, FindObjectsOfType<T>(): the scene tools cannot list its objects`,
        );
      })();
      p.catch(() => (this.cache.find = undefined));
      this.cache.find = p;
    }
    return p;
  }

  /** The API the last `findAll` of this call used (for the reply's note). */
  usedFind: FindApi | undefined;

  /**
   * Every loaded T in the scenes (a Component or GameObject type), inactive ones too unless
   * the game's Unity cannot find them (see FindApi; `usedFind` says which API). A fixed number
   * of invokes: one, or for FindObjectsOfTypeAll four (the objects, their GameObjects, the
   * GameObjects' scenes, read over the wire: an asset's Scene is invalid, handle 0, and a new
   * T[] of the others).
   */
  async findAll(typeName: string): Promise<Value> {
    const api = await this.findApi();
    this.usedFind = api;
    const T = [typeName];
    switch (api) {
      case 'FindObjectsByType': {
        const m = await this.generic(
          'UnityEngine.Object',
          'FindObjectsByType',
          ['UnityEngine.FindObjectsInactive', 'UnityEngine.FindObjectsSortMode'],
          T,
        );
        return this.keep(
          await this.call(m, Values.null(), [
            await this.enumValue('UnityEngine.FindObjectsInactive', 1),
            await this.enumValue('UnityEngine.FindObjectsSortMode', 0),
          ]),
        );
      }
      case 'FindObjectsOfType(bool)': {
        const m = await this.generic(
          'UnityEngine.Object',
          'FindObjectsOfType',
          ['System.Boolean'],
          T,
        );
        return this.keep(await this.call(m, Values.null(), [Values.bool(true)]));
      }
      case 'FindObjectsOfType()': {
        const m = await this.generic('UnityEngine.Object', 'FindObjectsOfType', [], T);
        return this.keep(await this.call(m, Values.null(), []));
      }
      case 'FindObjectsOfTypeAll':
        return this.findInScenes(typeName);
    }
  }

  /** Resources.FindObjectsOfTypeAll<T>() without the assets (objects whose scene is invalid). */
  private async findInScenes(typeName: string): Promise<Value> {
    const GO = 'UnityEngine.GameObject';
    const m = await this.generic('UnityEngine.Resources', 'FindObjectsOfTypeAll', [], [typeName]);
    const all = await this.keep(await this.call(m, Values.null(), []));
    const owners =
      typeName === GO
        ? all
        : await this.convertAll(all, {
            input: typeName,
            declaring: 'UnityEngine.Component',
            method: 'get_gameObject',
            output: GO,
          });
    const scenes = await this.convertAll(owners, {
      input: GO,
      declaring: GO,
      method: 'get_scene',
      output: 'UnityEngine.SceneManagement.Scene',
    });
    const [objects, sceneValues] = await Promise.all([
      this.arrayValues(all),
      this.arrayValues(scenes),
    ]);
    if (sceneValues.length !== objects.length)
      throw new UnityError(
        'INTERNAL',
        `${sceneValues.length} scenes were read for ${objects.length} objects`,
      );
    const inScene = objects.filter((_, i) => {
      const v = sceneValues[i]!;
      const handle = v.kind === 'valuetype' ? v.fields[0] : undefined;
      if (handle?.kind !== 'i4')
        throw new UnityError('INTERNAL', `GameObject.scene read as ${v.kind}, not a Scene`);
      return handle.value !== 0;
    });
    return this.keep(await this.newArray(typeName, inScene));
  }

  /** `string.Join(separator, object[])`: the elements' ToString() in one string (one invoke). */
  async join(array: Value, separator: string): Promise<Value> {
    const m = await this.method('System.String', 'Join', ['System.String', 'System.Object[]']);
    return this.keep(
      await this.call(m, Values.null(), [await this.pinnedString(separator), array]),
    );
  }

  /**
   * A string made once per connection and kept for its life in a pinned slot (a separator: one
   * APPDOMAIN.CREATE_STRING fewer per call, in the window).
   */
  private async pinnedString(text: string): Promise<Value> {
    const k = `string:${text}`;
    const id = this.cache.delegates.get(k);
    if (id !== undefined) return Values.string(id);
    const v = await this.string(text);
    await this.pin(v);
    if (v.kind === 'string') this.cache.delegates.set(k, v.objectId);
    return v;
  }

  async arrayLength(array: Value): Promise<number> {
    if (array.kind !== 'object') return 0;
    const { dimensions } = await this.conn.send('ARRAY_REF.GET_LENGTH', {
      arrayId: array.objectId,
    });
    return dimensions[0]?.length ?? 0;
  }

  /**
   * Each object's runtime type full name, given its System.Type object's id (`typeObjects[i]`,
   * from a ConvertAll of GetType: Mono keeps one Type object per type, so a few distinct ids):
   * per distinct Type object, OBJECT_REF.GET_TYPE of one object having it and the type's name
   * (TYPE.GET_INFO, cached by the catalogue). Wire commands only, no invoke.
   */
  async typeNames(objectIds: readonly number[], typeObjects: readonly number[]): Promise<string[]> {
    if (typeObjects.length !== objectIds.length)
      throw new UnityError(
        'INTERNAL',
        `${typeObjects.length} types were read for ${objectIds.length} objects`,
      );
    const first = new Map<number, number>();
    typeObjects.forEach((t, i) => {
      if (!first.has(t)) first.set(t, objectIds[i]!);
    });
    const names = new Map<number, string>();
    await Promise.all(
      [...first].map(async ([t, objectId]) => {
        const typeId = await this.conn.send('OBJECT_REF.GET_TYPE', { objectId });
        names.set(t, await this.md.fullName(typeId));
      }),
    );
    return typeObjects.map((t) => names.get(t)!);
  }

  /** The whole array in one ARRAY_REF.GET_VALUES. */
  async arrayValues(array: Value): Promise<Value[]> {
    const n = await this.arrayLength(array);
    if (n === 0 || array.kind !== 'object') return [];
    return this.conn.send('ARRAY_REF.GET_VALUES', { arrayId: array.objectId, index: 0, count: n });
  }

  /** A string's text (STRING_REF.GET_VALUE; GET_CHARS for one the agent cannot give as UTF-8). */
  async text(v: Value): Promise<string> {
    if (v.kind !== 'string') return '';
    try {
      return await this.conn.send('STRING_REF.GET_VALUE', { objectId: v.objectId });
    } catch (e) {
      if (!/INVALID_ARGUMENT/.test(String(e))) throw e;
      const length = await this.conn.stringLength(v.objectId);
      return this.conn.send('STRING_REF.GET_CHARS', {
        objectId: v.objectId,
        index: 0,
        count: length,
      });
    }
  }
}
