// One attached game: the SDB connection and everything that lives and dies with it. The session
// builds one when it connects and ends it when the connection ends (closed, dropped, replaced),
// so nothing learned from one game process is ever used on another.
//
// It owns the type catalogue and the main-thread invoker itself; the layers above the session
// (the evaluator's metadata and `_`, the ECS caches, the debugger's locations, the bound-programs
// memo) keep their state in typed parts: each layer defines its key with a factory
// (`connectionPart`), and `part(key)` makes the value on first use and keeps it until the end.
// The session never imports those layers.

import type { SdbConnection } from '../../sdb-protocol/index.js';
import { TypeCatalog, classNamesByAssembly, replayLoadedClasses } from '../catalog/index.js';
import { messageOf } from '../errors.js';
import { MainThreadInvoker, findMainThread } from '../invoker.js';
import { typeNamesByInvoke } from '../type-names-by-invoke.js';
import type { PlayerEndpoint } from './target.js';

/** A kind of per-connection state a layer keeps on the GameConnection (see `part`). */
export interface ConnectionPart<T> {
  /** For people: what the part is. */
  readonly name: string;
  readonly create: (connection: GameConnection) => T;
}

/** Defines a part: one value per connection, made by `create` on first use. */
export function connectionPart<T>(
  name: string,
  create: (connection: GameConnection) => T,
): ConnectionPart<T> {
  return { name, create };
}

export interface GameConnectionOptions {
  endpoint: string;
  /** Who the game is (see gameIdentity in session.ts). */
  identity: string;
  player?: PlayerEndpoint;
  parkTimeoutMs?: number;
  invokeTimeoutMs?: number;
  log?: (message: string) => void;
  /** Asked at each invoke: must the other threads stay suspended during it? */
  singleThreaded?: (mainThreadId: number) => boolean;
}

export class GameConnection {
  readonly endpoint: string;
  readonly identity: string;
  readonly player: PlayerEndpoint | undefined;
  private readonly parts = new Map<ConnectionPart<unknown>, unknown>();
  private catalogValue: TypeCatalog | undefined;
  private invokerPromise: Promise<MainThreadInvoker> | undefined;
  private invokerValue: MainThreadInvoker | undefined;
  private endedValue = false;
  private readonly log: (message: string) => void;
  /** IL2CPP: the classes loaded before the attach, replayed by the agent (see replayClasses). */
  private loadedClassesValue: readonly number[] | undefined;

  constructor(
    readonly conn: SdbConnection,
    private readonly opts: GameConnectionOptions,
  ) {
    this.endpoint = opts.endpoint;
    this.identity = opts.identity;
    this.player = opts.player;
    this.log = opts.log ?? (() => undefined);
  }

  /** The connection ended: its parts are forgotten. */
  get ended(): boolean {
    return this.endedValue;
  }

  /**
   * The game's types and members. On loopback the game's assembly files are this machine's
   * files, cheaper to read than their metadata over the wire (checked by module id); where
   * neither works the types are listed by asking the game.
   */
  get catalog(): TypeCatalog {
    if (!this.catalogValue) {
      const listTypeNames = typeNamesByInvoke(this.conn);
      const loaded = this.loadedClassesValue;
      const replayedNames = loaded && classNamesByAssembly(this.conn, loaded);
      this.catalogValue = new TypeCatalog(this.conn, {
        preferLocalFiles: isLoopback(this.endpoint),
        listTypeNames: async (assemblyId) => {
          try {
            return await listTypeNames(await this.invoker(), assemblyId);
          } catch (e) {
            // IL2CPP keeps no metadata image: the classes the player had loaded still name the
            // types of an assembly the game cannot list now (fewer: only loaded ones)
            if (!replayedNames) throw e;
            const names = (await replayedNames()).get(assemblyId) ?? [];
            this.log(
              `catalog: assembly ${assemblyId} listed from ${names.length} replayed loaded classes (Assembly.GetTypes() failed: ${messageOf(e)})`,
            );
            return names;
          }
        },
      });
    }
    return this.catalogValue;
  }

  /** The classes the agent replayed at attach (IL2CPP), undefined where none were asked. */
  get loadedClasses(): readonly number[] | undefined {
    return this.loadedClassesValue;
  }

  /**
   * On a runtime that counts the classes loaded before the attach as announced (IL2CPP), has
   * them replayed once (replayed-classes.ts). A failure is logged: types are then listed by
   * invoking in the game only.
   */
  async replayClasses(): Promise<void> {
    if (!this.conn.runtime.replayTypeLoadsOnAttach) return;
    try {
      this.loadedClassesValue = await replayLoadedClasses(this.conn);
      this.catalogValue = undefined; // made again with the replayed names
      this.log(`session: ${this.loadedClassesValue.length} loaded classes replayed by the agent`);
    } catch (e) {
      this.log(`session: the agent did not replay its loaded classes: ${messageOf(e)}`);
    }
  }

  /** The main-thread invoker, made on first use (finding the main thread may invoke). */
  invoker(): Promise<MainThreadInvoker> {
    this.invokerPromise ??= (async () => {
      const parkTimeoutMs = this.opts.parkTimeoutMs ?? 2000;
      const thread = await findMainThread(this.conn, {
        parkTimeoutMs,
        endpoint: this.endpoint,
        log: this.log,
      });
      const singleThreaded = this.opts.singleThreaded;
      return (this.invokerValue = new MainThreadInvoker(this.conn, thread, {
        endpoint: this.endpoint,
        parkTimeoutMs,
        invokeTimeoutMs: this.opts.invokeTimeoutMs ?? 10_000,
        log: this.log,
        ...(singleThreaded ? { singleThreaded } : {}),
      }));
    })();
    // a failed search is tried again next time
    this.invokerPromise.catch(() => (this.invokerPromise = undefined));
    return this.invokerPromise;
  }

  /** The invoker once made (read synchronously by event handling), else undefined. */
  get invokerNow(): MainThreadInvoker | undefined {
    return this.invokerValue;
  }

  /** This connection's value of `key`, made on first use. After the end, made but not kept. */
  part<T>(key: ConnectionPart<T>): T {
    if (this.parts.has(key)) return this.parts.get(key) as T;
    const value = key.create(this);
    if (!this.endedValue) this.parts.set(key, value);
    return value;
  }

  /** The value of `key` if it was made on this connection, without making it. */
  peek<T>(key: ConnectionPart<T>): T | undefined {
    return this.parts.get(key) as T | undefined;
  }

  /** Called by the session once the connection is gone: everything learned on it is dropped. */
  end(): void {
    this.endedValue = true;
    this.parts.clear();
    this.catalogValue = undefined;
    this.invokerPromise = undefined;
    this.invokerValue = undefined;
  }
}

function isLoopback(endpoint: string): boolean {
  return /^(127\.|localhost:|\[::1\]:)/.test(endpoint);
}
