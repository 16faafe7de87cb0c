// METHOD (22): sdb-protocol.md §3.11, §7.3–7.5.

import { defineCommand } from '../command.js';
import { ExceptionClauseKind, MethodInfoFlags } from '../vocabulary.js';
import { readCustomAttributes, type CustomAttribute } from './custom-attributes.js';

export interface SequencePoint {
  ilOffset: number;
  line: number;
  /** Index into `files`, -1 = none (since 2.13). */
  sourceIndex: number;
  /** since 2.19; -1 when unknown */
  column: number;
  /** since 2.32; -1 when unknown (mcs/.mdb symbols give -1) */
  endLine: number;
  endColumn: number;
}

export interface DebugInfo {
  codeSize: number;
  files: { path: string; hash?: Buffer }[];
  points: SequencePoint[];
}

export interface ParamInfo {
  callingConvention: number;
  paramCount: number;
  genericParamCount: number;
  returnTypeId: number;
  paramTypeIds: number[];
  paramNames: string[];
}

export interface LocalsInfo {
  /** since 2.43: absolute [start, start + length) IL ranges */
  scopes: { start: number; length: number }[];
  locals: { typeId: number; name: string; liveStart: number; liveEnd: number }[];
}

export interface MethodInfo {
  attributes: number;
  implAttributes: number;
  token: number;
  /** since 2.12 */
  isGenericDefinition: boolean;
  isGeneric: boolean;
  genericDefinitionId: number;
  /** since 2.15: instance → its type arguments; definition → its generic parameters */
  typeArgIds: number[];
}

export interface ExceptionClause {
  flags: number;
  tryOffset: number;
  tryLength: number;
  handlerOffset: number;
  handlerLength: number;
  catchTypeId?: number;
  filterOffset?: number;
}

const byMethod = (w: { methodId(id: number): unknown }, p: { methodId: number }): void =>
  void w.methodId(p.methodId);

export const methodCommands = {
  'METHOD.GET_NAME': defineCommand<{ methodId: number }, string>({
    set: 'METHOD',
    command: 1,
    encode: byMethod,
    decode: (r) => r.string(),
  }),
  'METHOD.GET_DECLARING_TYPE': defineCommand<{ methodId: number }, number>({
    set: 'METHOD',
    command: 2,
    encode: byMethod,
    decode: (r) => r.typeId(),
  }),
  'METHOD.GET_DEBUG_INFO': defineCommand<{ methodId: number }, DebugInfo>({
    set: 'METHOD',
    command: 3,
    encode: byMethod,
    decode: (r, v) => {
      const codeSize = r.i32();
      const files: DebugInfo['files'] = [];
      if (v.atLeast(13)) {
        const n = r.count('source file count');
        for (let i = 0; i < n; i++) {
          const path = r.string();
          files.push(v.atLeast(14) ? { path, hash: Buffer.from(r.bytes(16)) } : { path });
        }
      } else {
        const path = r.string();
        if (path) files.push({ path });
      }
      const perEntry =
        8 + (v.atLeast(13) ? 4 : 0) + (v.atLeast(19) ? 4 : 0) + (v.atLeast(32) ? 8 : 0);
      const n = r.count('sequence point count', Math.floor(r.remaining / perEntry));
      const points: SequencePoint[] = [];
      for (let i = 0; i < n; i++) {
        const ilOffset = r.i32();
        const line = r.i32();
        const sourceIndex = v.atLeast(13) ? r.i32() : files.length > 0 ? 0 : -1;
        const column = v.atLeast(19) ? r.i32() : -1;
        const endLine = v.atLeast(32) ? r.i32() : -1;
        const endColumn = v.atLeast(32) ? r.i32() : -1;
        points.push({ ilOffset, line, sourceIndex, column, endLine, endColumn });
      }
      return { codeSize, files, points };
    },
  }),
  'METHOD.GET_PARAM_INFO': defineCommand<{ methodId: number }, ParamInfo>({
    set: 'METHOD',
    command: 4,
    encode: byMethod,
    decode: (r) => {
      const callingConvention = r.i32();
      const paramCount = r.count('parameter count');
      const genericParamCount = r.i32();
      const returnTypeId = r.typeId();
      const paramTypeIds = r.ids('type', paramCount);
      const paramNames: string[] = [];
      for (let i = 0; i < paramCount; i++) paramNames.push(r.string());
      return {
        callingConvention,
        paramCount,
        genericParamCount,
        returnTypeId,
        paramTypeIds,
        paramNames,
      };
    },
  }),
  'METHOD.GET_LOCALS_INFO': defineCommand<{ methodId: number }, LocalsInfo>({
    set: 'METHOD',
    command: 5,
    encode: byMethod,
    decode: (r, v) => {
      const scopes: LocalsInfo['scopes'] = [];
      if (v.atLeast(43)) {
        const s = r.count('scope count', Math.floor(r.remaining / 8));
        let start = 0;
        for (let i = 0; i < s; i++) {
          start += r.i32(); // each start is relative to the previous scope's start
          scopes.push({ start, length: r.i32() });
        }
      }
      const n = r.count('local count', Math.floor(r.remaining / 4));
      const typeIds = r.ids('type', n);
      const names: string[] = [];
      for (let i = 0; i < n; i++) names.push(r.string());
      const locals: LocalsInfo['locals'] = [];
      for (let i = 0; i < n; i++) {
        locals.push({ typeId: typeIds[i]!, name: names[i]!, liveStart: r.i32(), liveEnd: r.i32() });
      }
      return { scopes, locals };
    },
  }),
  'METHOD.GET_INFO': defineCommand<{ methodId: number }, MethodInfo>({
    set: 'METHOD',
    command: 6,
    encode: byMethod,
    decode: (r, v) => {
      const info: MethodInfo = {
        attributes: r.i32(),
        implAttributes: r.i32(),
        token: r.i32(),
        isGenericDefinition: false,
        isGeneric: false,
        genericDefinitionId: 0,
        typeArgIds: [],
      };
      if (v.atLeast(12)) {
        const bits = r.u8();
        info.isGenericDefinition = (bits & MethodInfoFlags.GENERIC_DEFINITION) !== 0;
        info.isGeneric = (bits & MethodInfoFlags.GENERIC) !== 0;
        info.genericDefinitionId = r.methodId();
      }
      if (v.atLeast(15)) info.typeArgIds = r.ids('type', r.count('type argument count'));
      return info;
    },
  }),
  'METHOD.GET_BODY': defineCommand<
    { methodId: number },
    { il: Buffer; clauses: ExceptionClause[] }
  >({
    set: 'METHOD',
    command: 7,
    encode: byMethod,
    decode: (r, v) => {
      const il = Buffer.from(r.bytes(r.count('IL length')));
      const clauses: ExceptionClause[] = [];
      if (v.atLeast(18)) {
        const n = r.count('clause count', Math.floor(r.remaining / 20));
        for (let i = 0; i < n; i++) {
          const c: ExceptionClause = {
            flags: r.i32(),
            tryOffset: r.i32(),
            tryLength: r.i32(),
            handlerOffset: r.i32(),
            handlerLength: r.i32(),
          };
          if (c.flags === ExceptionClauseKind.CATCH) c.catchTypeId = r.typeId();
          else if (c.flags === ExceptionClauseKind.FILTER) c.filterOffset = r.i32();
          clauses.push(c);
        }
      }
      return { il, clauses };
    },
  }),
  /** `attributeTypeId` 0 = all attributes. */
  'METHOD.GET_CATTRS': defineCommand<
    { methodId: number; attributeTypeId: number },
    CustomAttribute[]
  >({
    set: 'METHOD',
    command: 9,
    since: 21,
    encode: (w, p) => {
      w.methodId(p.methodId);
      if (p.attributeTypeId === 0) w.i32(0);
      else w.typeId(p.attributeTypeId);
    },
    decode: readCustomAttributes,
  }),
  /** Violated constraints or a type from another domain → INVALID_ARGUMENT. */
  'METHOD.MAKE_GENERIC_METHOD': defineCommand<
    { methodId: number; typeArgIds: readonly number[] },
    number
  >({
    set: 'METHOD',
    command: 10,
    since: 24,
    encode: (w, p) => {
      w.methodId(p.methodId).i32(p.typeArgIds.length);
      for (const t of p.typeArgIds) w.typeId(t);
    },
    decode: (r) => r.methodId(),
  }),
} as const;
