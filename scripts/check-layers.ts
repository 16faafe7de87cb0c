// Fails when a source file imports across the layer arrows declared in docs/architecture.md
// (the fenced `layers` block is the single source of truth), or when socket code appears above
// the wire layer.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Rules {
  allowed: Map<string, Set<string>>;
  /** Node built-ins allowed only inside these folders. */
  restrictedBuiltins: Map<string, Set<string>>;
}

export function parseRules(markdown: string): Rules {
  const block = /```layers\n([\s\S]*?)```/.exec(markdown);
  if (!block) throw new Error('docs/architecture.md has no ```layers block');
  const allowed = new Map<string, Set<string>>();
  const restrictedBuiltins = new Map<string, Set<string>>();
  for (const raw of block[1]!.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const builtin = /^only (\S+) may use (node:\S+)$/.exec(line);
    if (builtin) {
      const set = restrictedBuiltins.get(builtin[2]!) ?? new Set();
      set.add(builtin[1]!);
      restrictedBuiltins.set(builtin[2]!, set);
      continue;
    }
    const arrow = /^(\S+)\s*->\s*(.*)$/.exec(line);
    if (!arrow) throw new Error(`cannot read layer rule: ${line}`);
    const targets = arrow[2]!
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    allowed.set(arrow[1]!, new Set(targets.includes('*') ? ['*'] : targets));
  }
  return { allowed, restrictedBuiltins };
}

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) yield full;
  }
}

const importRe =
  /(?:^|[\s;])(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

/** `files`: paths relative to the repository root (with `/`), and their text. */
export function checkLayers(
  rules: Rules,
  files: Iterable<{ rel: string; text: string }>,
): string[] {
  const problems: string[] = [];
  for (const { rel, text } of files) {
    const layer = layerOf(rules, rel);
    if (layer === undefined) continue;
    const allowed = rules.allowed.get(layer)!;
    for (const m of text.matchAll(importRe)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      if (spec.startsWith('.')) {
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
        if (resolved.startsWith('..')) continue;
        const target = layerOf(rules, resolved) ?? resolved.split('/')[0]!;
        if (target === layer || allowed.has('*') || mayImport(allowed, target)) continue;
        problems.push(`${rel}: imports ${spec} (${layer} may not import ${target})`);
      } else {
        const owners = rules.restrictedBuiltins.get(spec);
        if (owners && !owners.has(layer) && !allowed.has('*')) {
          problems.push(`${rel}: imports ${spec}, which only ${[...owners].join(', ')} may use`);
        }
      }
    }
  }
  return problems;
}

/**
 * The layer a path belongs to: the longest rule name that is the path or a folder above it, so
 * `unity/ecs/x.ts` is in `unity/ecs` when that has a rule of its own, else in `unity`.
 */
function layerOf(rules: Rules, rel: string): string | undefined {
  let best: string | undefined;
  for (const name of rules.allowed.keys()) {
    if ((rel === name || rel.startsWith(`${name}/`)) && (!best || name.length > best.length))
      best = name;
  }
  return best;
}

/** `unity/*` allows every inner layer of `unity` (and `unity` itself). */
function mayImport(allowed: Set<string>, target: string): boolean {
  if (allowed.has(target)) return true;
  for (const a of allowed) {
    if (a.endsWith('/*') && (target === a.slice(0, -2) || target.startsWith(a.slice(0, -1))))
      return true;
  }
  return false;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const rules = parseRules(readFileSync(path.join(root, 'docs/architecture.md'), 'utf8'));
  const tops = new Set([...rules.allowed.keys()].map((k) => k.split('/')[0]!));
  const files = [...tops].flatMap((layer) => {
    try {
      return [...sourceFiles(path.join(root, layer))].map((file) => ({
        rel: path.relative(root, file).split(path.sep).join('/'),
        text: readFileSync(file, 'utf8'),
      }));
    } catch {
      return []; // a layer folder that does not exist yet
    }
  });
  const problems = checkLayers(rules, files);
  for (const p of problems) console.error(p);
  if (problems.length > 0) {
    console.error(`\n${problems.length} import(s) against the layers of docs/architecture.md`);
    process.exit(1);
  }
}
