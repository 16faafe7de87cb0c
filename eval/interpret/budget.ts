// The bounds a program runs within (iterations, invokes, time the game is held), checked at
// statement boundaries and loop iterations; exceeding one stops the program with the bound's
// name, after the statements before it took effect. The game access is wrapped here to count
// invokes and the calls and writes that may change a collection being enumerated.

import type { GameAccess } from '../runtime.js';
import type { Span } from '../syntax/index.js';

export type BudgetBound = 'iterations' | 'invokes' | 'freeze';

export interface BudgetLimits {
  /** Loop iterations and lambda calls, all loops together. */
  readonly iterations: number;
  /** Methods, getters, setters and constructors invoked in the game. */
  readonly invokes: number;
  /** Milliseconds the game is held in one window. */
  readonly freezeMs: number;
}

/** Defaults: one call holds the game under about 2 s on a player. */
export const DEFAULT_BUDGET: BudgetLimits = {
  iterations: 100_000,
  invokes: 1_000,
  freezeMs: 2_000,
};
/** What a caller may raise the bounds to, at most. */
export const MAX_BUDGET: BudgetLimits = {
  iterations: 10_000_000,
  invokes: 20_000,
  freezeMs: 30_000,
};

export interface BudgetOptions extends Partial<BudgetLimits> {
  /**
   * Let the game run between statements (each statement's window then counts for `freezeMs`
   * on its own). Default false: the whole program runs in one window.
   */
  readonly releaseBetweenStatements?: boolean;
  /** The clock (ms); tests pass a fake one. */
  readonly now?: () => number;
}

/** A bound was reached: the program stops at a statement boundary. */
export class BudgetExceeded extends Error {
  override name = 'BudgetExceeded';
  constructor(
    readonly bound: BudgetBound,
    readonly limit: number,
    readonly span: Span | undefined,
  ) {
    super(
      `the program exceeded its ${bound} budget (${limit}${bound === 'freeze' ? ' ms' : ''}): ` +
        `it stopped at a statement boundary; raise the bound (budget.${bound === 'freeze' ? 'freeze_ms' : bound}) ` +
        'or do less per call',
    );
  }
}

/** Clamps asked-for limits to the hard ones; a bound below 1 is refused. */
export function budgetLimits(asked: Partial<BudgetLimits> = {}): BudgetLimits {
  const pick = (k: keyof BudgetLimits): number => {
    const v = asked[k] ?? DEFAULT_BUDGET[k];
    if (!Number.isFinite(v) || v < 1) throw new RangeError(`budget ${k} must be at least 1`);
    return Math.min(Math.floor(v), MAX_BUDGET[k]);
  };
  return { iterations: pick('iterations'), invokes: pick('invokes'), freezeMs: pick('freezeMs') };
}

/** Checks between two readings of the clock when nothing was invoked in between. */
const CLOCK_EVERY = 16;

export class Budget {
  iterations = 0;
  invokes = 0;
  /** Invokes and writes: anything that may have changed a collection being enumerated. */
  gameEffects = 0;
  /**
   * Invokes and array element writes: what may have changed an array's elements (a field
   * write cannot).
   */
  elementEffects = 0;
  readonly limits: BudgetLimits;
  private readonly now: () => number;
  private windowStart: number;

  constructor(
    private readonly options: BudgetOptions = {},
    private readonly release?: () => Promise<void>,
  ) {
    this.limits = budgetLimits(options);
    this.now = options.now ?? (() => performance.now());
    this.windowStart = this.now();
  }

  /**
   * A statement is about to run. A promise only when the game is released between statements
   * (else the check is synchronous: no promise per statement of a loop's body).
   */
  statement(span: Span): Promise<void> | undefined {
    if (this.options.releaseBetweenStatements && this.release) return this.released(span);
    this.check(span);
    return undefined;
  }

  private async released(span: Span): Promise<void> {
    await this.release!();
    // the game ran: whatever was read before may have changed, as after a call
    this.gameEffects++;
    this.elementEffects++;
    this.windowStart = this.now();
    this.check(span);
  }

  /**
   * A loop is about to run its body once more (or a lambda is called). Synchronous: an await
   * here costs a promise per element, and a loop's body awaits anyway.
   */
  iteration(span: Span): void {
    this.iterations++;
    this.check(span);
  }

  /**
   * `n` lambda calls or loop passes at once (the row paths': the row pull's for the elements it
   * hands on, a row foreach's for a chunk), checked once, the clock read (a chunk is many
   * passes): the caller made sure they fit the iterations bound (`fits`), or it would have made
   * them one by one, each checked, to stop at the one that does not.
   */
  iterationsDone(n: number, span: Span): void {
    this.iterations += n;
    this.unclocked = CLOCK_EVERY - 1;
    this.check(span);
  }

  /** The game runs between statements: nothing read is good for the next statement. */
  get releases(): boolean {
    return !!(this.options.releaseBetweenStatements && this.release);
  }

  /** Whether `n` more iterations stay within the bound. */
  fits(n: number): boolean {
    return this.iterations + n <= this.limits.iterations;
  }

  /** A bound was reached: nothing more runs (not even finally blocks). */
  stopped = false;

  check(span: Span | undefined): void {
    try {
      this.checkBounds(span);
    } catch (e) {
      this.stopped = true;
      throw e;
    }
  }

  /** Checks since the clock was last read, and the invokes counted then. */
  private unclocked = 0;
  private invokesClocked = 0;

  private checkBounds(span: Span | undefined): void {
    if (this.iterations > this.limits.iterations)
      throw new BudgetExceeded('iterations', this.limits.iterations, span);
    if (this.invokes > this.limits.invokes)
      throw new BudgetExceeded('invokes', this.limits.invokes, span);
    // the clock costs more than a compiled loop's step: read at every 16th check, or at once
    // after an invoke (what takes time); a loop of reads and arithmetic passes the freeze
    // bound by at most 15 steps of microseconds
    if (++this.unclocked < CLOCK_EVERY && this.invokes === this.invokesClocked) return;
    this.unclocked = 0;
    this.invokesClocked = this.invokes;
    if (this.now() - this.windowStart > this.limits.freezeMs)
      throw new BudgetExceeded('freeze', this.limits.freezeMs, span);
  }

  /** The game access, counting what the budget bounds. */
  counting(game: GameAccess): GameAccess {
    const effect =
      <A extends unknown[], R>(fn: (...a: A) => Promise<R>, kind: 'invoke' | 'element' | 'field') =>
      (...a: A): Promise<R> => {
        this.gameEffects++;
        if (kind !== 'field') this.elementEffects++;
        if (kind === 'invoke') this.invokes++;
        return fn(...a);
      };
    const counted: Partial<Record<keyof GameAccess, unknown>> = {
      invoke: effect(game.invoke.bind(game), 'invoke'),
      writeField: effect(game.writeField.bind(game), 'field'),
      writeStatic: effect(game.writeStatic.bind(game), 'field'),
      writeElement: effect(game.writeElement.bind(game), 'element'),
    };
    return new Proxy(game, {
      get: (target, prop, receiver) => {
        const own = counted[prop as keyof GameAccess];
        if (own) return own;
        const v: unknown = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }
}
