// Overload resolution (ECMA-334 §12.6.4): which of a method group's members a call binds to —
// applicable candidates in normal or expanded (`params`) form, named and optional arguments,
// generic type inference (§12.6.3, type-inference.ts), then the better function member
// (better-member.ts).

import type * as A from '../syntax/index.js';
import {
  InstantiationRefusedError,
  type MethodDescriptor,
  type ParameterDescriptor,
  type TypeHandle,
} from '../runtime.js';
import { BetterMember } from './better-member.js';
import { constraintViolation, refusedInstantiation } from './constraints.js';
import type { Conversion } from './conversions.js';
import { CompileError } from './errors.js';
import type { Interpreter } from './interpreter.js';
import type { Operand } from './operand.js';
import { TypeInference } from './type-inference.js';

/** An argument as binding sees it: its operand (type, constant), how it is passed, its name. */
export interface ArgInfo {
  readonly op: Operand;
  readonly name: string | undefined;
  readonly modifier: 'none' | 'ref' | 'out' | 'in';
  /** `out var x`: a local whose type comes from the parameter. */
  readonly outVar: boolean;
  readonly span: A.Span;
}

export interface Candidate {
  readonly method: MethodDescriptor;
  readonly expanded: boolean;
  /** For each argument, the index of its parameter. */
  readonly map: readonly number[];
  /** For each argument, the type it converts to (the params element type when expanded). */
  readonly targets: readonly TypeHandle[];
  readonly conversions: readonly (Conversion | undefined)[];
  /** Some optional parameter takes its default. */
  readonly usesDefaults: boolean;
  readonly generic: boolean;
}

export class Overloads {
  private readonly inference: TypeInference;
  private readonly betterMember: BetterMember;

  constructor(private readonly it: Interpreter) {
    this.inference = new TypeInference(it);
    this.betterMember = new BetterMember(it);
  }

  private get f() {
    return this.it.facts;
  }

  /** The best candidate, or the compiler's error for none (CS1501/CS1503) or many (CS0121). */
  async resolve(
    methods: readonly MethodDescriptor[],
    args: readonly ArgInfo[],
    typeArgs: readonly TypeHandle[],
    what: string,
    span: A.Span,
  ): Promise<Candidate> {
    const names = args.filter((a) => a.name !== undefined).map((a) => a.name!);
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice) {
      throw new CompileError(
        'CS1740',
        `named argument '${twice}' cannot be specified multiple times`,
        span,
      );
    }
    const named = args.findIndex((a) => a.name !== undefined);
    const positionalAfter =
      named >= 0 ? args.slice(named).find((a) => a.name === undefined) : undefined;
    if (positionalAfter) {
      throw new CompileError(
        'CS1738',
        'named arguments must appear after the positional arguments',
        positionalAfter.span,
      );
    }
    const applicable: Candidate[] = [];
    const violations: CompileError[] = [];
    for (const m of methods)
      applicable.push(...(await this.applicable(m, args, typeArgs, violations, span)));
    // a candidate whose type arguments break its constraints is not applicable; when that
    // leaves none, the constraint is what the compiler reports (CS0452, CS0311...)
    if (applicable.length === 0 && violations[0]) throw violations[0];
    if (applicable.length === 0)
      throw await this.noneApplicable(methods, args, typeArgs, what, span);
    const narrowed = await this.mostDerived(applicable);
    const best = await this.betterMember.best(narrowed, args);
    if (!best) {
      const names = await Promise.all(narrowed.slice(0, 2).map((c) => this.signature(c.method)));
      throw new CompileError(
        'CS0121',
        `the call is ambiguous between ${names.map((n) => `'${n}'`).join(' and ')}`,
        span,
      );
    }
    return best;
  }

  async signature(m: MethodDescriptor): Promise<string> {
    const params = await Promise.all(
      m.parameters.map(
        async (p) =>
          `${p.refKind === 'none' ? '' : `${p.refKind} `}${p.isParams ? 'params ' : ''}${await this.f.name(p.type)}`,
      ),
    );
    return `${await this.f.name(m.declaringType)}.${m.isConstructor ? (await this.f.describe(m.declaringType)).name.replace(/`\d+$/, '') : m.name}(${params.join(', ')})`;
  }

  private async noneApplicable(
    methods: readonly MethodDescriptor[],
    args: readonly ArgInfo[],
    typeArgs: readonly TypeHandle[],
    what: string,
    span: A.Span,
  ): Promise<CompileError> {
    const byCount = methods.filter((m) => {
      const required = m.parameters.filter((p) => !p.optional && !p.isParams).length;
      const params = m.parameters.at(-1)?.isParams ?? false;
      return args.length >= required && (params || args.length <= m.parameters.length);
    });
    if (byCount.length === 0) {
      return new CompileError(
        'CS1501',
        `no overload for '${what}' takes ${args.length} argument${args.length === 1 ? '' : 's'}`,
        span,
      );
    }
    // a named argument for a parameter a positional argument already gave (CS1744)
    const positional = args.filter((a) => a.name === undefined).length;
    const givenTwice = args.find(
      (a) =>
        a.name &&
        byCount.every((m) => {
          const i = m.parameters.findIndex((p) => p.name === a.name);
          return i >= 0 && i < positional;
        }),
    );
    if (givenTwice) {
      return new CompileError(
        'CS1744',
        `named argument '${givenTwice.name}' specifies a parameter for which a positional argument has already been given`,
        givenTwice.span,
      );
    }
    const unknownName = args.find(
      (a) => a.name && !byCount.some((m) => m.parameters.some((p) => p.name === a.name)),
    );
    if (unknownName) {
      return new CompileError(
        'CS1739',
        `the best overloaded method match for '${await this.signature(byCount[0]!)}' does not contain a parameter named '${unknownName.name}'`,
        unknownName.span,
      );
    }
    if (typeArgs.length === 0 && byCount.every((m) => m.genericArity > 0)) {
      return new CompileError(
        'CS0411',
        `the type arguments for '${what}' cannot be inferred from the usage; specify them explicitly`,
        span,
      );
    }
    const m = byCount[0]!;
    for (let i = 0; i < args.length && i < m.parameters.length; i++) {
      const a = args[i]!;
      if (a.name) break;
      const p = m.parameters[i]!;
      if (p.isParams || m.genericArity > 0) break;
      if (!(await this.argumentFits(a, p, p.type))) {
        // mcs reports CS1502 and then CS1503 for the argument
        const passed = a.modifier === 'none' ? '' : `${a.modifier} `;
        return new CompileError(
          'CS1502',
          `the best overloaded method match for '${await this.signature(m)}' has some invalid arguments: argument ${i + 1} cannot convert from '${passed}${await this.f.name(a.op.type)}' to '${p.refKind === 'none' ? '' : `${p.refKind} `}${await this.f.name(p.type)}' (CS1503)`,
          a.span,
        );
      }
    }
    return new CompileError(
      'CS1502',
      `the best overloaded match for '${await this.signature(m)}' has some invalid arguments`,
      span,
    );
  }

  /** The method's applicable forms for these arguments (§12.6.4.2). */
  private async applicable(
    m0: MethodDescriptor,
    args: readonly ArgInfo[],
    typeArgs: readonly TypeHandle[],
    violations: CompileError[],
    span: A.Span,
  ): Promise<Candidate[]> {
    let m = m0;
    // constraints are checked before the game is asked to instantiate (it refuses bad ones)
    const violates = async (given: readonly TypeHandle[]) => {
      const v = await constraintViolation(this.f, this.it.md, m0, given, span);
      if (v) violations.push(v);
      return !!v;
    };
    // a constraint the runtime could not describe (`where T : IComparable<T>`) is its refusal
    const instantiate = async (given: readonly TypeHandle[]) => {
      try {
        return await this.it.md.instantiateMethod(m0, given);
      } catch (e) {
        if (!(e instanceof InstantiationRefusedError)) throw e;
        violations.push(await refusedInstantiation(this.f, m0, given, span));
        return undefined;
      }
    };
    if (typeArgs.length > 0) {
      if (m.genericArity !== typeArgs.length) return [];
      if (await violates(typeArgs)) return [];
      const made = await instantiate(typeArgs);
      if (!made) return [];
      m = made;
    } else if (m.genericArity > 0) {
      const inferred = await this.inference.infer(m, args);
      if (!inferred) return [];
      if (await violates(inferred)) return [];
      const made = await instantiate(inferred);
      if (!made) return [];
      m = made;
    }
    const generic = m0.genericArity > 0;
    const normal = await this.form(m, args, false, generic);
    if (normal) return [normal];
    if (m.parameters.at(-1)?.isParams) {
      const expanded = await this.form(m, args, true, generic);
      if (expanded) return [expanded];
    }
    return [];
  }

  private async form(
    m: MethodDescriptor,
    args: readonly ArgInfo[],
    expanded: boolean,
    generic: boolean,
  ): Promise<Candidate | undefined> {
    const params = m.parameters;
    const fixed = expanded ? params.length - 1 : params.length;
    const map: number[] = [];
    const used = new Set<number>();
    let positional = true;
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      let j: number;
      if (a.name) {
        positional = false;
        j = params.findIndex((p) => p.name === a.name);
        if (j < 0 || (expanded && j === params.length - 1)) return undefined;
      } else {
        if (!positional) return undefined; // C# 7: no positional argument after a named one
        j = i < fixed ? i : expanded ? params.length - 1 : -1;
        if (j < 0) return undefined;
      }
      if (used.has(j) && !(expanded && j === params.length - 1)) return undefined;
      used.add(j);
      map.push(j);
    }
    let usesDefaults = false;
    for (let j = 0; j < fixed; j++) {
      if (used.has(j)) continue;
      if (!params[j]!.optional) return undefined;
      usesDefaults = true;
    }
    const targets: TypeHandle[] = [];
    const conversions: (Conversion | undefined)[] = [];
    for (let i = 0; i < args.length; i++) {
      const p = params[map[i]!]!;
      let target = p.type;
      if (expanded && map[i] === params.length - 1) {
        const element = (await this.f.describe(p.type)).elementType;
        if (!element) return undefined;
        target = element;
        if (args[i]!.modifier !== 'none') return undefined;
        const c = await this.it.conversions.implicit(args[i]!.op, target);
        if (!c) return undefined;
        targets.push(target);
        conversions.push(c);
        continue;
      }
      if (!(await this.argumentFits(args[i]!, p, target))) return undefined;
      targets.push(target);
      conversions.push(
        args[i]!.modifier === 'none' || args[i]!.modifier === 'in'
          ? await this.it.conversions.implicit(args[i]!.op, target)
          : undefined,
      );
    }
    return { method: m, expanded, map, targets, conversions, usesDefaults, generic };
  }

  private async argumentFits(
    a: ArgInfo,
    p: ParameterDescriptor,
    target: TypeHandle,
  ): Promise<boolean> {
    const ref = p.refKind === 'ref' || p.refKind === 'out';
    if (a.modifier === 'ref' || a.modifier === 'out') {
      if (p.refKind !== a.modifier) return false;
      return a.outVar || (a.op.type !== 'null' && this.f.same(a.op.type, target));
    }
    if (ref) return false;
    if (a.modifier === 'in' && p.refKind !== 'in') return false;
    return !!(await this.it.conversions.implicit(a.op, target));
  }

  /** §12.6.4.1: candidates from a derived type hide the base type's applicable ones. */
  private async mostDerived(cs: Candidate[]): Promise<Candidate[]> {
    if (cs.length < 2) return cs;
    const out: Candidate[] = [];
    for (const c of cs) {
      let hidden = false;
      for (const d of cs) {
        if (d === c || this.f.same(d.method.declaringType, c.method.declaringType)) continue;
        const dk = (await this.f.describe(d.method.declaringType)).kind;
        if (dk === 'interface') continue;
        if (await this.it.md.isAssignable(c.method.declaringType, d.method.declaringType)) {
          hidden = true;
          break;
        }
      }
      if (!hidden) out.push(c);
    }
    return out;
  }
}
