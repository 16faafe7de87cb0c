// What the debugger deals in: code locations, breakpoints and what they were asked for, stops
// (the pauses they make), steps, and the status a caller reads. Data only.

import type { EventKindValue } from '../../sdb-protocol/index.js';

export interface CodeLocation {
  method: string;
  methodId: number;
  ilOffset: number;
  file?: string;
  line?: number;
}

export interface BreakpointSpec {
  type?: string;
  method?: string;
  line?: number;
  ilOffset?: number;
  signature?: string;
  file?: string;
  condition?: string;
  hitCount?: number;
  /** A logpoint: record this message (C# `{holes}` evaluated in the frame) and run on. */
  log?: string;
}

export interface ExceptionSpec {
  /** Full or simple name of an exception type; absent: every exception. */
  type?: string;
  subclasses?: boolean;
}

export interface Breakpoint {
  id: number;
  owner: string;
  kind: 'line' | 'exception';
  locations: CodeLocation[];
  exceptionType?: string;
  subclasses?: boolean;
  condition?: string;
  hitCount?: number;
  /** A watch's sampling breakpoint (removed when the watch ends). */
  watch?: boolean;
  /** A logpoint's message: its hits are recorded (debug_trace), never paused at. */
  log?: string;
  /**
   * The stops this breakpoint made and gave back at once (a logpoint's hits, a false
   * condition): how long the game stood still for each, from the event's arrival to the
   * resume's reply.
   */
  stopCost?: { stops: number; totalMs: number; maxMs: number; recentMs?: number[] };
  /** Hits that passed the condition (and, with a hit count, the stop itself). */
  hits: number;
  /**
   * Hits let go undecided: they came while an evaluation ran with every thread resumed, which
   * cannot finish while a thread is kept stopped.
   */
  passed?: number;
  /** A hit-count breakpoint after its stop: the agent never reports it again. */
  spent?: boolean;
  /**
   * Not bound yet: its type (or any type of its file) is not in the game. A TYPE_LOAD request
   * binds it when that type's first method is compiled, before that method runs.
   */
  pending?: { waitingFor: string; suggestions?: string[] };
  /** Its type loaded but the location could not be bound there (why). */
  bindError?: string;
  requests: { kind: EventKindValue; requestId: number }[];
}

export type StopReason = 'breakpoint' | 'step' | 'exception';

export interface Stop {
  /** Increases with every stop this session reports. */
  seq: number;
  reason: StopReason;
  owner: string;
  threadId: number;
  breakpointId?: number;
  location?: CodeLocation;
  exception?: { type: string; objectId: number };
  /** The condition could not be evaluated: stopped so that a person can see why. */
  conditionError?: string;
  /** The thread stopped while another pause was current, and waited at its stop since. */
  queued?: boolean;
}

export type StepKind = 'over' | 'into' | 'out' | 'resume';

export interface DebugStatus {
  breakpoints: Breakpoint[];
  pause?: Stop;
  /** Other threads stopped at our requests, in line behind the pause (oldest first). */
  queued: Omit<Stop, 'seq'>[];
  stepping?: { owner: string };
  /** Stops reported so far. */
  stops: number;
}
