import { describe, expect, it } from 'vitest';

import {
  buildTree,
  find,
  globToRegExp,
  hierarchy,
  pathOf,
  resolveObject,
  type RawObject,
} from './scene-tree.js';
import { splitToString } from './scene-snapshot.js';

/** A made-up scene: A/{B/{D, E}, C}, F (inactive)/{G}, H; ids are -(index+1). */
function tree() {
  const spec: [string, number, boolean, string[]][] = [
    ['A', -1, true, []],
    ['B', 0, true, ['Enemy']],
    ['C', 0, true, []],
    ['D', 1, true, ['Enemy', 'UnityEngine.Camera']],
    ['E', 1, false, []],
    ['F', -1, false, []],
    ['G', 5, true, ['Enemy']],
    ['H', -1, true, []],
  ];
  const objects: RawObject[] = spec.map(([name, parent, active, comps], i) => ({
    objectId: 100 + i,
    transformId: 200 + i,
    id: -(i + 1),
    name,
    activeSelf: active,
    parentTransformId: parent < 0 ? 0 : 200 + parent,
    // siblings listed in reverse creation order: the tree must sort by sibling index
    sibling: 10 - i,
    components: ['UnityEngine.Transform', ...comps],
    tag: name === 'G' ? 'Boss' : 'Untagged',
    layer: i % 2,
  }));
  return buildTree(objects, [{ name: 'S', index: 0, roots: [100, 105, 107] }]);
}

describe('buildTree', () => {
  it('links parents, orders children by sibling index, computes activeInHierarchy', () => {
    const t = tree();
    const a = t.nodes[0]!;
    expect(a.children.map((i) => t.nodes[i]!.name)).toEqual(['C', 'B']);
    expect(t.nodes[6]!).toMatchObject({ name: 'G', activeSelf: true, activeInHierarchy: false });
    expect(pathOf(t, t.nodes[3]!)).toBe('A/B/D');
    expect(t.nodes[3]!.depth).toBe(2);
  });

  it('puts roots no loaded scene lists under DontDestroyOnLoad', () => {
    const t = tree();
    const partial = buildTree(
      t.nodes.map((n) => ({ ...n })),
      [{ name: 'S', index: 0, roots: [100] }],
    );
    expect(partial.scenes.map((s) => s.info.name)).toEqual(['S', 'DontDestroyOnLoad']);
    expect(partial.nodes[5]!.scene).toBe('DontDestroyOnLoad');
  });
});

describe('globToRegExp', () => {
  it.each([
    ['Enemy*', 'Enemy (3)', true],
    ['Enemy*', 'enemy', false],
    ['Room (?)', 'Room (7)', true],
    ['Room (?)', 'Room (12)', false],
    ['a.b', 'axb', false],
    ['[x]', '[x]', true],
  ])('%s against %s: %s', (glob, name, ok) => {
    expect(globToRegExp(glob).test(name)).toBe(ok);
  });
});

describe('hierarchy', () => {
  it('pages a depth-bounded listing and says where the next page starts', () => {
    const t = tree();
    const p1 = hierarchy(t, { depth: 1, limit: 3 });
    expect(p1.lines.map((l) => l.node.name)).toEqual(['A', 'C', 'B']);
    expect(p1.lines[2]!.hiddenChildren).toBe(2);
    expect(p1.next).toBe(3);
    const p2 = hierarchy(t, { depth: 1, limit: 3, offset: 3 });
    expect(p2.lines.map((l) => l.node.name)).toEqual(['F', 'G', 'H']);
    expect(p2.next).toBeUndefined();
    expect(p2.total).toBe(6);
  });

  it('shows matches with their ancestors as context, at any depth', () => {
    const t = tree();
    const p = hierarchy(t, { component: 'Enemy' });
    expect(p.lines.map((l) => `${l.node.name}${l.match ? '' : '·'}`)).toEqual([
      'A·',
      'B',
      'D',
      'F·',
      'G',
    ]);
    expect(p.matches).toBe(3);
    expect(
      hierarchy(t, { active: false })
        .lines.filter((l) => l.match)
        .map((l) => l.node.name),
    ).toEqual(['E', 'F', 'G']);
    expect(hierarchy(t, { tag: 'Boss' }).matches).toBe(1);
    expect(hierarchy(t, { layer: 1, name: '?' }).matches).toBe(4);
  });

  it('refuses a component type no object has, with close names', () => {
    expect(() => hierarchy(tree(), { component: 'Enemmy' })).toThrow(/did you mean Enemy/);
  });
});

describe('resolveObject and find', () => {
  it('resolves paths and ids, with close names for a miss', () => {
    const t = tree();
    expect(resolveObject(t, 'A/B/D').name).toBe('D');
    expect(resolveObject(t, -7).name).toBe('G');
    expect(resolveObject(t, '-7').name).toBe('G');
    expect(() => resolveObject(t, 'A/X')).toThrow(/did you mean "C", "B"/);
    expect(() => resolveObject(t, 'A/Xylophone')).toThrow(/there: "C", "B"/);
    expect(() => resolveObject(t, -99)).toThrow(/no GameObject has instance id -99/);
  });

  it('finds in hierarchy order and pages', () => {
    const t = tree();
    expect(find(t, { component: 'Enemy' }).found.map((n) => n.name)).toEqual(['B', 'D', 'G']);
    const page = find(t, { name: '*', limit: 2, offset: 2 });
    expect(page.found.map((n) => n.name)).toEqual(['B', 'E']); // B's children by sibling index: E, D
    expect(page.total).toBe(8);
  });
});

describe('splitToString', () => {
  it('splits "name (Type)" at the last " (", names with parentheses included', () => {
    expect(splitToString('Enemy (3) (UnityEngine.Transform)')).toEqual([
      'Enemy (3)',
      'UnityEngine.Transform',
    ]);
    expect(splitToString('x')).toEqual(['x', '']);
  });
});
