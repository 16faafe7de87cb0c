// A small model of a game's assemblies, types and members that answers the type catalogue's
// commands on a FakeAgent, encoded as Mono's agent encodes them. Assembly images are built from
// the same model (pe-builder.ts), so names, tokens and ids always agree.

import { PacketReader } from '../../../sdb-protocol/buffer-reader.js';
import { PacketWriter } from '../../../sdb-protocol/buffer-writer.js';
import type { FakeAgent, FakeReply } from '../../../sdb-protocol/testing/fake-agent.js';
import { ErrorCode, FieldAttributes, MethodAttributes } from '../../../sdb-protocol/vocabulary.js';
import { installMembers } from './fake-members.js';
import {
  buildImage,
  type SynthMemberRef,
  type SynthMethod,
  type SynthParam,
  type SynthTypeDef,
  type SynthTypeRef,
} from './pe-builder.js';
import { CallingConvention } from '../signature-blob.js';

/** The attribute constructor of `params` in every fake image (a Param's `attributes`). */
export const PARAM_ARRAY_CTOR = { memberRef: 1 } as const;

export interface FakeAssembly {
  id: number;
  fullName: string;
  location: string;
  /** 'dynamic': GET_METADATA_BLOB answers NOT_IMPLEMENTED, like Mono for a dynamic assembly. */
  blob: 'image' | 'dynamic';
  mvid: Uint8Array;
  types: FakeType[];
}

export interface FakeType {
  id: number;
  assembly: FakeAssembly;
  namespace: string;
  name: string;
  fullName: string;
  token: number;
  base: FakeType | undefined;
  enclosing: FakeType | undefined;
  flags: number;
  attributes: number;
  typeArgs: FakeType[];
  fields: { id: number; name: string; type: FakeType; attributes: number }[];
  properties: { id: number; name: string; getter: number; setter: number }[];
  methods: number[];
}

export interface FakeMethod {
  id: number;
  name: string;
  owner: FakeType;
  attributes: number;
  returnType: FakeType;
  params: { name: string; type: FakeType }[];
  genericParamCount: number;
  /** The method this one instantiates (a method of a closed generic type): its token is used. */
  definition: FakeMethod | undefined;
  /** Its MethodDef's signature blob and Param rows (default: every parameter an object). */
  metadata: { signature?: number[]; params?: SynthParam[] } | undefined;
  /** METHOD.GET_INFO's token when the runtime made the method (no MethodDef): usually 0. */
  runtimeToken?: number;
}

export class FakeGame {
  readonly assemblies: FakeAssembly[] = [];
  /** Assemblies GET_ASSEMBLIES reports (a test can add late ones). */
  readonly loaded: FakeAssembly[] = [];
  readonly types = new Map<number, FakeType>();
  readonly methods = new Map<number, FakeMethod>();
  /** Methods whose GET_PARAM_INFO fails (a parameter type that cannot be loaded). */
  readonly brokenMethods = new Set<number>();
  private nextId = 1;

  assembly(
    fullName: string,
    opts: Partial<Pick<FakeAssembly, 'blob' | 'location'>> & { loaded?: boolean } = {},
  ): FakeAssembly {
    const id = this.assemblies.length + 1;
    const mvid = Uint8Array.from({ length: 16 }, (_, i) => (id * 17 + i) & 0xff);
    const a: FakeAssembly = {
      id,
      fullName,
      location: opts.location ?? `/fake/${fullName.split(',')[0]!}.dll`,
      blob: opts.blob ?? 'image',
      mvid,
      types: [],
    };
    this.assemblies.push(a);
    if (opts.loaded !== false) this.loaded.push(a);
    return a;
  }

  type(
    assembly: FakeAssembly,
    fullName: string,
    opts: {
      base?: FakeType;
      enclosing?: FakeType;
      flags?: number;
      attributes?: number;
      /** Not in the assembly's metadata (generic instances and parameters): give the names. */
      runtimeOnly?: { namespace: string; name: string };
    } = {},
  ): FakeType {
    const plus = fullName.lastIndexOf('+');
    const dot = fullName.lastIndexOf('.');
    const t: FakeType = {
      id: this.nextId++,
      assembly,
      namespace:
        opts.runtimeOnly?.namespace ?? (opts.enclosing || dot < 0 ? '' : fullName.slice(0, dot)),
      name: opts.runtimeOnly?.name ?? fullName.slice(Math.max(plus, dot) + 1),
      fullName,
      token: opts.runtimeOnly ? 0 : 0x02000002 + assembly.types.length,
      base: opts.base,
      enclosing: opts.enclosing,
      flags: opts.flags ?? 0,
      attributes: opts.attributes ?? 0x100001,
      typeArgs: [],
      fields: [],
      properties: [],
      methods: [],
    };
    if (!opts.runtimeOnly) assembly.types.push(t);
    this.types.set(t.id, t);
    return t;
  }

  method(
    owner: FakeType,
    name: string,
    returnType: FakeType,
    params: { name: string; type: FakeType }[] = [],
    opts: Partial<
      Pick<FakeMethod, 'attributes' | 'genericParamCount' | 'definition' | 'metadata'>
    > = {},
  ): FakeMethod {
    const m: FakeMethod = {
      id: this.nextId++,
      name,
      owner,
      attributes: opts.attributes ?? MethodAttributes.Public,
      returnType,
      params,
      genericParamCount: opts.genericParamCount ?? 0,
      definition: opts.definition,
      metadata: opts.metadata,
    };
    this.methods.set(m.id, m);
    owner.methods.push(m.id);
    return m;
  }

  field(
    owner: FakeType,
    name: string,
    type: FakeType,
    attributes: number = FieldAttributes.Public,
  ): void {
    owner.fields.push({ id: this.nextId++, name, type, attributes });
  }

  property(owner: FakeType, name: string, getter?: FakeMethod, setter?: FakeMethod): void {
    owner.properties.push({
      id: this.nextId++,
      name,
      getter: getter?.id ?? 0,
      setter: setter?.id ?? 0,
    });
  }

  /** The assembly's PE image, as GET_METADATA_BLOB or its file would give it. */
  image(a: FakeAssembly): Uint8Array {
    const refs: SynthTypeRef[] = [];
    const refOf = (t: { namespace: string; name: string }): number => {
      const at = refs.findIndex((r) => r.namespace === t.namespace && r.name === t.name);
      if (at >= 0) return at + 1;
      refs.push({ namespace: t.namespace, name: t.name });
      return refs.length;
    };
    const paramArray = refOf({ namespace: 'System', name: 'ParamArrayAttribute' });
    const types = a.types.map((t): SynthTypeDef => {
      const def: SynthTypeDef = {
        namespace: t.namespace,
        name: t.name,
        flags: t.attributes,
        methods: t.methods.map((id) => synthMethod(this.methods.get(id)!)),
      };
      if (t.enclosing) def.nestedIn = a.types.indexOf(t.enclosing) + 1;
      if (t.base?.assembly === a) def.extendsDef = a.types.indexOf(t.base) + 1;
      else if (t.base) def.extendsRef = refOf(t.base);
      return def;
    });
    // PARAM_ARRAY_CTOR: the first MemberRef is ParamArrayAttribute's constructor
    const memberRefs: SynthMemberRef[] = [
      { parent: { typeRef: paramArray }, name: '.ctor', signature: [0x20, 0, 0x01] },
    ];
    return buildImage({ types, typeRefs: refs, mvid: a.mvid, memberRefs });
  }

  /**
   * The full names Assembly.GetTypes() gives for an assembly: what an IL2CPP player's catalogue
   * lists from (it keeps no metadata image).
   */
  reflectionNames(assemblyId: number): string[] {
    return (this.assemblies[assemblyId - 1]?.types ?? []).map((t) => t.fullName);
  }

  /** METHOD.GET_INFO's token: the MethodDef row of the method (or of its definition). */
  tokenOf(m: FakeMethod): number {
    if (m.definition) return this.tokenOf(m.definition);
    if (m.runtimeToken !== undefined) return m.runtimeToken;
    let row = 1;
    for (const t of m.owner.assembly.types) {
      const at = t.methods.indexOf(m.id);
      if (at >= 0) return 0x06000000 | (row + at);
      row += t.methods.length;
    }
    return 0;
  }

  /** Registers the catalogue's commands on the agent. */
  install(agent: FakeAgent): void {
    const ok = (w: PacketWriter): FakeReply => ({ body: w.body() });
    const reader = (body: Buffer): PacketReader => new PacketReader(body);
    const assemblyOf = (body: Buffer): FakeAssembly | undefined =>
      this.assemblies[reader(body).i32() - 1];
    const none = { error: ErrorCode.INVALID_ARGUMENT };

    agent.on('APPDOMAIN.GET_ROOT_DOMAIN', () => ok(new PacketWriter().i32(1)));
    agent.on('APPDOMAIN.GET_ASSEMBLIES', () => {
      const w = new PacketWriter().i32(this.loaded.length);
      for (const a of this.loaded) w.i32(a.id);
      return ok(w);
    });
    agent.on('ASSEMBLY.GET_NAME', (p) =>
      ok(new PacketWriter().string(assemblyOf(p.body)!.fullName)),
    );
    agent.on('ASSEMBLY.GET_LOCATION', (p) =>
      ok(new PacketWriter().string(assemblyOf(p.body)!.location)),
    );
    agent.on('ASSEMBLY.GET_MANIFEST_MODULE', (p) =>
      ok(new PacketWriter().i32(assemblyOf(p.body)!.id + 100)),
    );
    agent.on('MODULE.GET_INFO', (p) => {
      const a = this.assemblies[reader(p.body).i32() - 101]!;
      const guid = readGuidText(a.mvid);
      const w = new PacketWriter().string('m').string('m').string(a.location).string(guid);
      return ok(w.i32(a.id).string(''));
    });
    agent.on('ASSEMBLY.GET_METADATA_BLOB', (p) => {
      const a = assemblyOf(p.body)!;
      if (a.blob === 'dynamic') return { error: ErrorCode.NOT_IMPLEMENTED };
      const image = this.image(a);
      return ok(new PacketWriter().i32(image.length).bytes(image));
    });
    agent.on('ASSEMBLY.GET_TYPE_FROM_TOKEN', (p) => {
      const r = reader(p.body);
      const a = this.assemblies[r.i32() - 1]!;
      const token = r.i32();
      const t = a.types.find((x) => x.token === token);
      return t ? ok(new PacketWriter().i32(t.id)) : none;
    });
    agent.on('ASSEMBLY.GET_TYPE', (p) => {
      const r = reader(p.body);
      const a = this.assemblies[r.i32() - 1]!;
      const name = r.string();
      return ok(new PacketWriter().i32(a.types.find((t) => t.fullName === name)?.id ?? 0));
    });
    agent.on('VM.GET_TYPES', (p) => {
      const name = reader(p.body).string();
      const found = [...this.types.values()].filter((t) => t.fullName === name);
      const w = new PacketWriter().i32(found.length);
      for (const t of found) w.i32(t.id);
      return ok(w);
    });
    installMembers(this, agent);
  }
}

function readGuidText(mvid: Uint8Array): string {
  const h = (...i: number[]): string =>
    i.map((k) => mvid[k]!.toString(16).padStart(2, '0')).join('');
  return `${h(3, 2, 1, 0)}-${h(5, 4)}-${h(7, 6)}-${h(8, 9)}-${h(10, 11, 12, 13, 14, 15)}`.toUpperCase();
}

function synthMethod(m: FakeMethod): SynthMethod {
  const params =
    m.metadata?.params ?? m.params.map((p, i): SynthParam => ({ name: p.name, sequence: i + 1 }));
  // by default every parameter an object: enough for a catalogue that only reads Param rows
  const signature = m.metadata?.signature ?? [
    (m.attributes & MethodAttributes.Static ? 0 : CallingConvention.HasThis) |
      (m.genericParamCount ? CallingConvention.Generic : 0),
    ...(m.genericParamCount ? [m.genericParamCount] : []),
    m.params.length,
    0x1c,
    ...m.params.map(() => 0x1c),
  ];
  return { name: m.name, flags: m.attributes, signature, params };
}
