// TYPE (23) and FIELD (25): sdb-protocol.md §3.12, §3.14, §7.1, §7.6.

import { defineCommand, noReply } from '../command.js';
import { readValues, type Value } from '../values.js';
import { LEGACY_IGNORE_CASE_BITS, MethodListType } from '../vocabulary.js';
import { readCustomAttributes, type CustomAttribute } from './custom-attributes.js';
import { writeFieldWrites, type FieldWrite } from './object-ref.js';

export interface TypeInfo {
  namespace: string;
  name: string;
  /** Reflection full name: nested with `+`, closed generics with `[[...]]`. */
  fullName: string;
  assemblyId: number;
  moduleId: number;
  /** 0 for System.Object and interfaces. */
  baseTypeId: number;
  /** Arrays and pointers, else 0. */
  elementTypeId: number;
  token: number;
  rank: number;
  attributes: number;
  /** TypeInfoFlags bits. */
  flags: number;
  nestedTypeIds: number[];
  /** since 2.12: itself for a definition, its definition for an instance, else 0 */
  genericDefinitionId: number;
  /** since 2.15 */
  typeArgIds: number[];
}

export interface FieldInfo {
  fieldId: number;
  name: string;
  typeId: number;
  /** FieldAttributes bits (0x10 static, 0x40 literal). */
  attributes: number;
}

export interface PropertyInfo {
  propertyId: number;
  name: string;
  /** 0 when absent. */
  getterId: number;
  setterId: number;
  attributes: number;
}

const byType = (w: { typeId(id: number): unknown }, p: { typeId: number }): void =>
  void w.typeId(p.typeId);

function writeAttrFilter(
  w: { i32(n: number): unknown; typeId(id: number): unknown },
  id: number,
): void {
  if (id === 0) w.i32(0);
  else w.typeId(id);
}

export const typeCommands = {
  'TYPE.GET_INFO': defineCommand<{ typeId: number }, TypeInfo>({
    set: 'TYPE',
    command: 1,
    encode: byType,
    decode: (r, v) => {
      const info: TypeInfo = {
        namespace: r.string(),
        name: r.string(),
        fullName: r.string(),
        assemblyId: r.id('assembly'),
        moduleId: r.id('module'),
        baseTypeId: r.typeId(),
        elementTypeId: r.typeId(),
        token: r.i32(),
        rank: r.u8(),
        attributes: r.i32(),
        flags: r.u8(),
        nestedTypeIds: [],
        genericDefinitionId: 0,
        typeArgIds: [],
      };
      info.nestedTypeIds = r.ids('type', r.count('nested type count'));
      if (v.atLeast(12)) info.genericDefinitionId = r.typeId();
      if (v.atLeast(15)) info.typeArgIds = r.ids('type', r.count('type argument count'));
      return info;
    },
  }),
  /** Declared methods only (no inherited), including constructors and accessors. */
  'TYPE.GET_METHODS': defineCommand<{ typeId: number }, number[]>({
    set: 'TYPE',
    command: 2,
    encode: byType,
    decode: (r) => r.ids('method', r.count('method count')),
  }),
  /** Declared fields only, statics included. */
  'TYPE.GET_FIELDS': defineCommand<{ typeId: number }, FieldInfo[]>({
    set: 'TYPE',
    command: 3,
    encode: byType,
    decode: (r) =>
      r.list('field', 16, (x) => ({
        fieldId: x.fieldId(),
        name: x.string(),
        typeId: x.typeId(),
        attributes: x.i32(),
      })),
  }),
  /** Static fields only; thread-static → INVALID_FIELDID (use GET_VALUES_2). */
  'TYPE.GET_VALUES': defineCommand<{ typeId: number; fieldIds: readonly number[] }, Value[]>({
    set: 'TYPE',
    command: 4,
    encode: (w, p) => {
      w.typeId(p.typeId).i32(p.fieldIds.length);
      for (const f of p.fieldIds) w.fieldId(f);
    },
    decode: (r, v, p) => readValues(r, v, p.fieldIds.length),
  }),
  /** The System.Type object. */
  'TYPE.GET_OBJECT': defineCommand<{ typeId: number }, number>({
    set: 'TYPE',
    command: 5,
    encode: byType,
    decode: (r) => r.objectId(),
  }),
  'TYPE.GET_SOURCE_FILES': defineCommand<{ typeId: number }, string[]>({
    set: 'TYPE',
    command: 6,
    encode: byType,
    decode: (r) => r.list('file', 4, (x) => x.string()),
  }),
  'TYPE.SET_VALUES': defineCommand<{ typeId: number; writes: readonly FieldWrite[] }>({
    set: 'TYPE',
    command: 7,
    encode: (w, p, v) => {
      w.typeId(p.typeId);
      writeFieldWrites(w, p.writes, v);
    },
    decode: noReply,
  }),
  /** Whether a value of `otherTypeId` can be assigned to `typeId`. */
  'TYPE.IS_ASSIGNABLE_FROM': defineCommand<{ typeId: number; otherTypeId: number }, boolean>({
    set: 'TYPE',
    command: 8,
    encode: (w, p) => void w.typeId(p.typeId).typeId(p.otherTypeId),
    decode: (r) => r.bool(),
  }),
  /** Declared properties only. */
  'TYPE.GET_PROPERTIES': defineCommand<{ typeId: number }, PropertyInfo[]>({
    set: 'TYPE',
    command: 9,
    encode: byType,
    decode: (r) =>
      r.list('property', 20, (x) => ({
        propertyId: x.id('property'),
        name: x.string(),
        getterId: x.methodId(),
        setterId: x.methodId(),
        attributes: x.i32(),
      })),
  }),
  'TYPE.GET_CATTRS': defineCommand<{ typeId: number; attributeTypeId: number }, CustomAttribute[]>({
    set: 'TYPE',
    command: 10,
    since: 21,
    encode: (w, p) => {
      w.typeId(p.typeId);
      writeAttrFilter(w, p.attributeTypeId);
    },
    decode: readCustomAttributes,
  }),
  'TYPE.GET_FIELD_CATTRS': defineCommand<
    { typeId: number; fieldId: number; attributeTypeId: number },
    CustomAttribute[]
  >({
    set: 'TYPE',
    command: 11,
    since: 21,
    encode: (w, p) => {
      w.typeId(p.typeId).fieldId(p.fieldId);
      writeAttrFilter(w, p.attributeTypeId);
    },
    decode: readCustomAttributes,
  }),
  'TYPE.GET_PROPERTY_CATTRS': defineCommand<
    { typeId: number; propertyId: number; attributeTypeId: number },
    CustomAttribute[]
  >({
    set: 'TYPE',
    command: 12,
    since: 21,
    encode: (w, p) => {
      w.typeId(p.typeId).id('property', p.propertyId);
      writeAttrFilter(w, p.attributeTypeId);
    },
    decode: readCustomAttributes,
  }),
  'TYPE.GET_SOURCE_FILES_2': defineCommand<{ typeId: number }, string[]>({
    set: 'TYPE',
    command: 13,
    encode: byType,
    decode: (r) => r.list('file', 4, (x) => x.string()),
  }),
  /** Thread-static fields as seen by `threadId`. */
  'TYPE.GET_VALUES_2': defineCommand<
    { typeId: number; threadId: number; fieldIds: readonly number[] },
    Value[]
  >({
    set: 'TYPE',
    command: 14,
    since: 3,
    encode: (w, p) => {
      w.typeId(p.typeId).threadId(p.threadId).i32(p.fieldIds.length);
      for (const f of p.fieldIds) w.fieldId(f);
    },
    decode: (r, v, p) => readValues(r, v, p.fieldIds.length),
  }),
  /**
   * Methods by name with BindingFlags. The list type (since 2.48) matters: with an older
   * declared version Mono 6.8 ignores the name and returns every method.
   */
  'TYPE.GET_METHODS_BY_NAME_FLAGS': defineCommand<
    { typeId: number; name: string; flags: number; ignoreCase?: boolean },
    number[]
  >({
    set: 'TYPE',
    command: 15,
    since: 6,
    encode: (w, p) => {
      // Agents before 2.48 take ignore-case from these high bits and read no list type.
      w.typeId(p.typeId)
        .string(p.name)
        .i32(p.flags | (p.ignoreCase ? LEGACY_IGNORE_CASE_BITS : 0));
      w.i32(p.ignoreCase ? MethodListType.CASE_INSENSITIVE : MethodListType.CASE_SENSITIVE);
    },
    decode: (r) => r.ids('method', r.count('method count')),
  }),
  'TYPE.GET_INTERFACES': defineCommand<{ typeId: number }, number[]>({
    set: 'TYPE',
    command: 16,
    since: 11,
    encode: byType,
    decode: (r) => r.ids('type', r.count('interface count')),
  }),
  'TYPE.GET_INTERFACE_MAP': defineCommand<
    { typeId: number; interfaceIds: readonly number[] },
    { interfaceMethodIds: number[]; implementationIds: number[] }[]
  >({
    set: 'TYPE',
    command: 17,
    since: 11,
    encode: (w, p) => {
      w.typeId(p.typeId).i32(p.interfaceIds.length);
      for (const t of p.interfaceIds) w.typeId(t);
    },
    decode: (r, _v, p) =>
      p.interfaceIds.map(() => {
        const m = r.count('interface method count');
        return { interfaceMethodIds: r.ids('method', m), implementationIds: r.ids('method', m) };
      }),
  }),
  /** 1 also when the static constructor failed. */
  'TYPE.IS_INITIALIZED': defineCommand<{ typeId: number }, boolean>({
    set: 'TYPE',
    command: 18,
    since: 23,
    encode: byType,
    decode: (r) => r.i32() !== 0,
  }),
  /** Allocates without running any constructor (fields zero). */
  'TYPE.CREATE_INSTANCE': defineCommand<{ typeId: number }, number>({
    set: 'TYPE',
    command: 19,
    since: 31,
    encode: byType,
    decode: (r) => r.objectId(),
  }),
  'TYPE.GET_VALUE_SIZE': defineCommand<{ typeId: number }, number>({
    set: 'TYPE',
    command: 20,
    since: 46,
    encode: byType,
    decode: (r) => r.i32(),
  }),
} as const;

export const fieldCommands = {
  'FIELD.GET_INFO': defineCommand<
    { fieldId: number },
    { name: string; declaringTypeId: number; typeId: number; attributes: number }
  >({
    set: 'FIELD',
    command: 1,
    encode: (w, p) => void w.fieldId(p.fieldId),
    decode: (r) => ({
      name: r.string(),
      declaringTypeId: r.typeId(),
      typeId: r.typeId(),
      attributes: r.i32(),
    }),
  }),
} as const;
