import { evaluate } from './eval/evaluate.js';
import { declareLinqTypes } from './eval/testing/fake-linq.js';
import { declareFakeList, fakeList } from './eval/testing/fake-list.js';
import { FakeRuntime, int } from './eval/testing/fake-runtime.js';
const fake = new FakeRuntime();
declareLinqTypes(fake); declareFakeList(fake);
fake.class('Game.C', { fields: { Hp: 'int' } });
fake.class('Game.W', { fields: { P: { type: 'System.Collections.Generic.List<Game.C>', static: true } } });
const items = Array.from({ length: 10000 }, (_, i) => fake.new('Game.C', { Hp: int(i % 100) }));
fake.setStatic('Game.W', 'P', fakeList(fake, 'Game.C', items));
for (const src of ['int t = 0; foreach (var c in Game.W.P) t += c.Hp; t', 'Game.W.P.Where(e => e.Hp > 10).Select(e => e.Hp).Sum()']) {
  const ts: number[] = [];
  for (let i = 0; i < 8; i++) {
    const t = performance.now();
    await evaluate(src, fake, { usings: ['System'], anyNamespace: false, budget: { freezeMs: 30000 } });
    ts.push(performance.now() - t);
  }
  console.log(src.slice(0, 20), ts.map((x) => x.toFixed(0)).join(' '));
}
