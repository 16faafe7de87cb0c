// A stopped thread's stack: frames with their source line, parameters, locals and `this`,
// formatted as eval formats values (bounded), and the raw slots a frame scope is made of.
// Frame ids are valid only while the thread stays stopped: read them again after every resume,
// step or invoke (STACK_FRAME answers INVALID_FRAMEID otherwise).

import {
  FrameFlags,
  MethodAttributes,
  type FieldInfo,
  type SdbConnection,
  type Value,
} from '../../sdb-protocol/index.js';
import { csharpName, formatValue } from '../../eval/index.js';
import type { OperationContext } from '../session/session.js';
import { fromWire, handleOf } from '../runtime/convert.js';
import { SessionGameAccess } from '../runtime/game-access.js';
import { metadataFor } from '../runtime/game-metadata.js';
import { messageOf } from '../errors.js';
import { hoistedName, isGeneratedHolder, isStateMachine } from './generated-code.js';
import { pointAt, type LocationCache } from './locations.js';

/** Frame flag: a managed-to-native wrapper (its locals cannot be read). */

export interface FrameVariable {
  name: string;
  type: string;
  value: string;
  /** Where it lives: `-(i+1)` for parameter i, `i` for local i (STACK_FRAME positions). */
  position: number;
  typeId: number;
  kind: 'param' | 'local' | 'this';
}

export interface FrameView {
  index: number;
  method: string;
  ilOffset: number;
  file?: string;
  line?: number;
  native?: boolean;
  variables?: FrameVariable[];
  /** Why the variables could not be read. */
  unreadable?: string;
  /** Variables left out past MAX_VARIABLES. */
  moreVariables?: number;
}

/** Variables shown per frame: a result must never flood an agent's context. */
export const MAX_VARIABLES = 40;

export interface RawFrame {
  frameId: number;
  methodId: number;
  ilOffset: number;
  flags: number;
}

export interface FrameSlot {
  name: string;
  position: number;
  typeId: number;
  kind: 'param' | 'local' | 'this';
  raw: Value;
  /**
   * A field of the frame's state machine or closure standing for the user's local, parameter or
   * `this` (generated-code.ts): read-only, and `position` is no stack position.
   */
  hoisted?: true;
}

/** A frame's slots without their values: what it holds where, fixed by its method and place. */
export interface SlotShape {
  /** In order: parameters, `this`, live locals (no `raw`). */
  slots: Omit<FrameSlot, 'raw'>[];
  /** The STACK_FRAME positions of the parameters and live locals, in their slots' order. */
  positions: number[];
  /** The method has a `this` (read by GET_THIS). */
  hasThis: boolean;
  /** The declaring type's C# name (generated code is unfolded by its values). */
  typeName: string;
  declaringTypeId: number;
}

/** The slots a frame of `methodId` stopped at `ilOffset` has (metadata only, cached). */
export async function slotShape(
  cache: LocationCache,
  methodId: number,
  ilOffset: number,
): Promise<SlotShape> {
  const [{ params, locals, info, declaringTypeId }, { typeName }] = await Promise.all([
    cache.methodFacts(methodId),
    cache.methodName(methodId),
  ]);
  // only locals whose live range covers where the frame is (scoped names can repeat)
  const live = locals.locals
    .map((l, i) => ({ ...l, position: i }))
    .filter((l) => l.liveStart <= ilOffset && ilOffset <= l.liveEnd);
  const hasThis = (info.attributes & MethodAttributes.Static) === 0;
  const slots: Omit<FrameSlot, 'raw'>[] = params.paramNames.map((name, i) => ({
    name,
    position: -(i + 1),
    typeId: params.paramTypeIds[i]!,
    kind: 'param' as const,
  }));
  if (hasThis) slots.push({ name: 'this', position: 0, typeId: declaringTypeId, kind: 'this' });
  for (const l of live)
    slots.push({ name: l.name, position: l.position, typeId: l.typeId, kind: 'local' });
  const positions = [...params.paramNames.map((_, i) => -(i + 1)), ...live.map((l) => l.position)];
  return { slots, positions, hasThis, typeName, declaringTypeId };
}

/**
 * Whether a frame's variables are its slots as they are: no state machine or closure to unfold
 * (whose fields, found by their values, stand for the user's variables), so the names and types
 * in scope are known before any value is read.
 */
export function isPlainShape(shape: SlotShape): boolean {
  return (
    !(shape.hasThis && isGeneratedHolder(shape.typeName)) &&
    !shape.slots.some((s) => isClosure(s.name, s.kind))
  );
}

/** Whether two shapes hold the same variables at the same places. */
export function sameShape(a: SlotShape, b: SlotShape): boolean {
  return (
    a.slots.length === b.slots.length &&
    a.slots.every((s, i) => {
      const t = b.slots[i]!;
      return s.name === t.name && s.position === t.position && s.typeId === t.typeId;
    })
  );
}

/** The values of a shape's slots in one stopped frame: one GET_VALUES, GET_THIS beside it. */
export async function slotValues(
  conn: SdbConnection,
  threadId: number,
  frameId: number,
  shape: SlotShape,
): Promise<FrameSlot[]> {
  const ref = { threadId, frameId };
  const [values, self] = await Promise.all([
    shape.positions.length > 0
      ? conn.send('STACK_FRAME.GET_VALUES', { ...ref, positions: shape.positions })
      : Promise.resolve([]),
    shape.hasThis ? conn.send('STACK_FRAME.GET_THIS', ref) : Promise.resolve(undefined),
  ]);
  let next = 0;
  return shape.slots.map((s) => ({ ...s, raw: s.kind === 'this' ? self! : values[next++]! }));
}

/** The raw values of a frame: parameters, locals, `this` (what evaluation binds). */
export async function frameSlots(
  cache: LocationCache,
  threadId: number,
  frame: RawFrame,
): Promise<FrameSlot[]> {
  const shape = await slotShape(cache, frame.methodId, frame.ilOffset);
  const slots = await slotValues(cache.conn, threadId, frame.frameId, shape);
  return shape.hasThis && isGeneratedHolder(shape.typeName)
    ? unhoist(cache, slots, shape.declaringTypeId, isStateMachine(shape.typeName))
    : unfoldClosures(cache, slots);
}

/**
 * Roslyn's closures in an ordinary frame (mcs, the fixtures' compiler, keeps captured locals in
 * its own closure objects, which unhoist reads): a local function receives the captured locals of
 * its outer method in a struct passed by reference as an unnamed parameter, and a method whose
 * locals a lambda or local function captures holds them in a local `CS$<>8__locals<N>` (a struct,
 * or a class when a lambda captures them), itself holding an enclosing scope's the same way.
 */
function isClosure(name: string, kind: FrameSlot['kind']): boolean {
  return (kind === 'param' && name === '') || DISPLAY_LOCAL.test(name);
}
const DISPLAY_LOCAL = /^CS\$<>8__locals\d+$/;

/** The frame's slots with each Roslyn closure replaced by the captured locals it holds. */
async function unfoldClosures(cache: LocationCache, slots: FrameSlot[]): Promise<FrameSlot[]> {
  if (!slots.some((s) => isClosure(s.name, s.kind))) return slots;
  const own = slots.filter((s) => !isClosure(s.name, s.kind));
  const taken = new Set(own.map((s) => s.name));
  const captured: FrameSlot[] = [];
  const unfold = async (raw: Value, typeId: number, depth: number): Promise<void> => {
    if (depth > 4) return;
    const read = await instanceFields(cache, raw, raw.kind === 'valuetype' ? raw.typeId : typeId);
    if (!read) return;
    const { fields, values } = read;
    for (const [i, f] of fields.entries()) {
      const value = values[i];
      if (!value) continue;
      if (DISPLAY_LOCAL.test(f.name)) {
        await unfold(value, f.typeId, depth + 1);
        continue;
      }
      const as = hoistedName(f.name);
      // a captured `this` is the frame's own (a local function of an instance method is one)
      if (!as || as === 'this' || taken.has(as.name)) continue;
      taken.add(as.name);
      captured.push({
        name: as.name,
        position: 0,
        typeId: f.typeId,
        kind: 'local',
        raw: value,
        hoisted: true,
      });
    }
  };
  for (const s of slots) if (isClosure(s.name, s.kind)) await unfold(s.raw, s.typeId, 0);
  return [
    ...own.filter((s) => s.kind !== 'local'),
    ...captured,
    ...own.filter((s) => s.kind === 'local'),
  ];
}

/**
 * The slots of code in a state machine or closure as the user wrote it: its `this` (the
 * machine) replaced by the fields that stand for hoisted locals, parameters and the declaring
 * object; the machine's own state and compiler temporaries left out.
 */
async function unhoist(
  cache: LocationCache,
  slots: FrameSlot[],
  machineTypeId: number,
  /** A state machine keeps parameters under their names; a closure, captured locals too. */
  stateMachine: boolean,
): Promise<FrameSlot[]> {
  const machine = slots.find((s) => s.kind === 'this')!;
  const read = await instanceFields(cache, machine.raw, machineTypeId);
  if (!read) return slots;
  const { fields, values } = read;
  const own = slots.filter((s) => s.kind !== 'this' && /^[A-Za-z_]\w*$/.test(s.name));
  const taken = new Set(own.map((s) => s.name));
  const out: FrameSlot[] = [...own.filter((s) => s.kind === 'param')];
  const hoisted: FrameSlot[] = [];
  fields.forEach((f, i) => {
    const raw = values[i];
    const as = hoistedName(f.name);
    if (!raw || !as) return;
    if (as === 'this') {
      out.push({ name: 'this', position: 0, typeId: f.typeId, kind: 'this', raw, hoisted: true });
      return;
    }
    if (taken.has(as.name)) return;
    taken.add(as.name);
    const kind = stateMachine && !f.name.startsWith('<') ? 'param' : 'local';
    const slot: FrameSlot = {
      name: as.name,
      position: 0,
      typeId: f.typeId,
      kind,
      raw,
      hoisted: true,
    };
    if (kind === 'param') out.push(slot);
    else hoisted.push(slot);
  });
  return [...out, ...hoisted, ...own.filter((s) => s.kind === 'local')];
}

/**
 * The instance fields of type `typeId` and their values in `raw` (a struct's own, an object's in
 * one OBJECT_REF.GET_VALUES); undefined for anything else (null).
 */
async function instanceFields(
  cache: LocationCache,
  raw: Value,
  typeId: number,
): Promise<{ fields: FieldInfo[]; values: readonly Value[] } | undefined> {
  const fields = (await cache.fields(typeId)).filter((f) => (f.attributes & FIELD_STATIC) === 0);
  if (raw.kind === 'valuetype') return { fields, values: raw.fields };
  if (raw.kind !== 'object') return undefined;
  const values = await cache.conn.send('OBJECT_REF.GET_VALUES', {
    objectId: raw.objectId,
    fieldIds: fields.map((f) => f.fieldId),
  });
  return { fields, values };
}

/** FieldAttributes.Static. */
const FIELD_STATIC = 0x10;

/** The frames of a stopped thread, top first. */
export async function readFrames(conn: SdbConnection, threadId: number): Promise<RawFrame[]> {
  return conn.send('THREAD.GET_FRAME_INFO', { threadId });
}

/** A readable stack: `maxFrames` frames, variables for the first `withVariables`. */
export async function readStack(
  ctx: OperationContext,
  cache: LocationCache,
  threadId: number,
  maxFrames: number,
  withVariables: number,
): Promise<{ frames: FrameView[]; total: number }> {
  const raw = await readFrames(ctx.conn, threadId);
  const metadata = metadataFor(ctx);
  const runtime = { metadata, game: new SessionGameAccess(ctx, metadata) };
  const frames = await Promise.all(
    raw.slice(0, maxFrames).map(async (f, index): Promise<FrameView> => {
      const view: FrameView = {
        index,
        method: await cache.displayName(f.methodId),
        ilOffset: f.ilOffset,
      };
      const native = (f.flags & FrameFlags.NATIVE_TRANSITION) !== 0;
      if (native) view.native = true;
      else {
        const at = pointAt(await cache.points(f.methodId).catch(() => []), f.ilOffset);
        if (at) {
          view.line = at.line;
          if (at.file) view.file = at.file;
        }
      }
      if (native || index >= withVariables) return view;
      try {
        const all = await frameSlots(cache, threadId, f);
        // in order parameters, `this`, locals: locals are what a cut leaves out first
        const slots = all.slice(0, MAX_VARIABLES);
        if (all.length > slots.length) view.moreVariables = all.length - slots.length;
        view.variables = await Promise.all(
          slots.map(async (s): Promise<FrameVariable> => ({
            name: s.name,
            kind: s.kind,
            position: s.position,
            typeId: s.typeId,
            type: await csharpName(metadata, handleOf(s.typeId)).catch(() => '?'),
            value: await formatValue(runtime, await fromWire(s.raw, metadata)).catch(
              (e: unknown) => `<unreadable: ${messageOf(e)}>`,
            ),
          })),
        );
      } catch (e) {
        view.unreadable = messageOf(e);
      }
      return view;
    }),
  );
  return { frames, total: raw.length };
}
