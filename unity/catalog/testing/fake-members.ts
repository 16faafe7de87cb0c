// The TYPE and METHOD commands of a FakeGame: type info, members, and method details encoded as
// Mono's agent encodes them.

import { PacketReader } from '../../../sdb-protocol/buffer-reader.js';
import { PacketWriter } from '../../../sdb-protocol/buffer-writer.js';
import type { FakeAgent, FakeReply } from '../../../sdb-protocol/testing/fake-agent.js';
import { ErrorCode, TypeInfoFlags } from '../../../sdb-protocol/vocabulary.js';
import type { FakeGame, FakeMethod, FakeType } from './fake-game.js';

export function installMembers(game: FakeGame, agent: FakeAgent): void {
  const ok = (w: PacketWriter): FakeReply => ({ body: w.body() });
  const reader = (b: Buffer): PacketReader => new PacketReader(b);
  const type = (b: Buffer): FakeType => game.types.get(reader(b).i32())!;
  const method = (b: Buffer): FakeMethod => game.methods.get(reader(b).i32())!;
  agent.on('TYPE.GET_INFO', (p) => {
    const t = type(p.body);
    const w = new PacketWriter().string(t.namespace).string(t.name).string(t.fullName);
    w.i32(t.assembly.id)
      .i32(t.assembly.id + 100)
      .i32(t.base?.id ?? 0)
      .i32(0);
    w.i32(t.token).u8(0).i32(t.attributes).u8(t.flags).i32(0);
    const definition = t.flags & TypeInfoFlags.GENERIC_TYPE_DEFINITION ? t.id : 0;
    w.i32(definition).i32(t.typeArgs.length);
    for (const a of t.typeArgs) w.i32(a.id);
    return ok(w);
  });
  agent.on('TYPE.GET_FIELDS', (p) => {
    const t = type(p.body);
    const w = new PacketWriter().i32(t.fields.length);
    for (const f of t.fields) w.i32(f.id).string(f.name).i32(f.type.id).i32(f.attributes);
    return ok(w);
  });
  agent.on('TYPE.GET_PROPERTIES', (p) => {
    const t = type(p.body);
    const w = new PacketWriter().i32(t.properties.length);
    for (const x of t.properties) w.i32(x.id).string(x.name).i32(x.getter).i32(x.setter).i32(0);
    return ok(w);
  });
  agent.on('TYPE.GET_METHODS', (p) => {
    const t = type(p.body);
    const w = new PacketWriter().i32(t.methods.length);
    for (const m of t.methods) w.i32(m);
    return ok(w);
  });
  agent.on('METHOD.GET_NAME', (p) => ok(new PacketWriter().string(method(p.body).name)));
  agent.on('METHOD.GET_DECLARING_TYPE', (p) => ok(new PacketWriter().i32(method(p.body).owner.id)));
  agent.on('METHOD.GET_INFO', (p) => {
    const m = method(p.body);
    const w = new PacketWriter().i32(m.attributes).i32(0).i32(game.tokenOf(m));
    return ok(
      w
        .u8(m.genericParamCount ? 3 : 0)
        .i32(0)
        .i32(0),
    );
  });
  agent.on('METHOD.GET_PARAM_INFO', (p) => {
    const m = method(p.body);
    if (game.brokenMethods.has(m.id)) return { error: ErrorCode.LOADER_ERROR };
    const w = new PacketWriter().i32(0).i32(m.params.length).i32(m.genericParamCount);
    w.i32(m.returnType.id);
    for (const x of m.params) w.i32(x.type.id);
    for (const x of m.params) w.string(x.name);
    return ok(w);
  });
}
