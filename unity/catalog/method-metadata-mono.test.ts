// Method signatures read from real assemblies: named mscorlib methods, and every method of
// mscorlib, System, System.Core and an mcs-compiled assembly against System.Reflection.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { DefaultValue, MethodSignature } from './catalog-types.js';
import { MetadataImage } from './metadata-reader.js';
import { GenericParamAttributes } from './metadata-schema.js';
import { MethodDefinitions, ParamAttributes } from './method-metadata.js';
import { unmodified } from './signature-blob.js';

const MONO = '/usr/lib/mono/4.5';
const MSCORLIB = `${MONO}/mscorlib.dll`;
const haveMono = existsSync(MSCORLIB) && hasCommand('mcs') && hasCommand('mono');

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.runIf(existsSync(MSCORLIB))('mscorlib', () => {
  const image = existsSync(MSCORLIB) ? new MetadataImage(readFileSync(MSCORLIB)) : undefined;
  const defs = image ? new MethodDefinitions(image) : undefined;

  /** The overload of `Type::Method` whose parameter types are `types` (signature names). */
  function find(type: string, method: string, types: string[]): MethodSignature {
    const typeDef = image!.typeDefs().find((t) => t.fullName === type);
    if (!typeDef) throw new Error(`no ${type}`);
    const overloads = defs!.methodsOf(typeDef.token).map((t) => defs!.method(t));
    const m = overloads.find(
      (o) =>
        o.name === method &&
        JSON.stringify(o.params.map((p) => defs!.names.typeName(p.type))) === JSON.stringify(types),
    );
    if (!m) throw new Error(`no ${type}::${method}(${types.join(', ')})`);
    return defs!.signature(m.token);
  }
  const shape = (s: MethodSignature): string[] =>
    s.parameters.map(
      (p) =>
        `${p.refKind === 'none' ? '' : `${p.refKind} `}${p.isParams ? 'params ' : ''}${p.name}` +
        (p.optional ? ` = ${p.defaultValue ? show(p.defaultValue) : 'default'}` : ''),
    );

  it('Int32.TryParse(string, out int)', () => {
    const s = find('System.Int32', 'TryParse', ['System.String', 'System.Int32&']);
    expect(shape(s)).toEqual(['s', 'out result']);
  });

  it('String.Join(string, params object[]) and String.Split(params char[])', () => {
    expect(shape(find('System.String', 'Join', ['System.String', 'System.Object[]']))).toEqual([
      'separator',
      'params values',
    ]);
    expect(shape(find('System.String', 'Split', ['System.Char[]']))).toEqual(['params separator']);
    // the overload with a count is not params
    expect(shape(find('System.String', 'Split', ['System.Char[]', 'System.Int32']))).toEqual([
      'separator',
      'count',
    ]);
  });

  it('optional parameters with enum, byte, double, bool and null defaults', () => {
    expect(
      shape(find('System.String', 'Split', ['System.Char', 'System.StringSplitOptions'])),
    ).toEqual(['separator', 'options = int 0']);
    expect(
      shape(find('System.Buffers.StandardFormat', '.ctor', ['System.Char', 'System.Byte'])),
    ).toEqual(['symbol', 'precision = byte 255']);
    expect(
      shape(
        find('System.Diagnostics.Tracing.IncrementingEventCounter', 'Increment', ['System.Double']),
      ),
    ).toEqual(['increment = double 1']);
    expect(shape(find('System.Buffers.ArrayPool`1', 'Return', ['!0[]', 'System.Boolean']))).toEqual(
      ['array', 'clearArray = bool false'],
    );
    const bytes = 'System.Byte[]';
    expect(
      shape(
        find('System.Security.Cryptography.AesGcm', 'Encrypt', [bytes, bytes, bytes, bytes, bytes]),
      ),
    ).toEqual(['nonce', 'plaintext', 'ciphertext', 'tag', 'associatedData = null']);
  });

  it('a struct defaulted with `= default`: mcs wrote null, we report default(T)', () => {
    const token = 'System.Threading.CancellationToken';
    const s = find('System.IO.File', 'ReadAllTextAsync', ['System.String', token]);
    expect(shape(s)).toEqual(['path', 'cancellationToken = default']);
  });

  it('[In] ref and out on COM interop methods', () => {
    const s = find(
      'System.Runtime.InteropServices.ComTypes.IConnectionPointContainer',
      'FindConnectionPoint',
      ['System.Guid&', 'System.Runtime.InteropServices.ComTypes.IConnectionPoint&'],
    );
    expect(shape(s)).toEqual(['in riid', 'out ppCP']);
  });

  it('generic arity', () => {
    const s = find('System.Array', 'ConvertAll', ['!!0[]', 'System.Converter`2[!!0,!!1]']);
    expect(s.genericArity).toBe(2);
  });
});

function show(d: DefaultValue): string {
  return d.kind === 'null' ? 'null' : `${d.kind} ${String(d.value)}`;
}

/** An mcs-compiled assembly with every parameter form C# has. */
const SAMPLE = `
using System;
using System.Runtime.InteropServices;
namespace Sample {
  public struct S { public int X; }
  public enum E : long { A = -5, B = 1L << 40 }
  public enum Small : byte { X = 200 }
  public class C<T> {
    public void M<U>(T t, U u, ref T rt, out U ou) { ou = default(U); }
    public class Inner { public void N(T t = default(T)) {} }
  }
  public static class D {
    public static void Refs(ref int a, out int b, [In] ref int d, [Out] int[] e, [In, Out] ref int f) { b = 0; }
    public static void Defaults(bool b = true, char c = 'x', sbyte sb = -5, byte by = 250,
      short s = -300, ushort us = 60000, int i = int.MinValue, uint ui = uint.MaxValue,
      long l = long.MinValue, ulong ul = ulong.MaxValue, float f = float.NaN, double d = -0.0,
      string str = "h\\u00e9\\uD800llo", string ns = null, object o = null, E e = E.B,
      Small sm = Small.X, S st = default(S), int? ni = null, int? ni5 = 5, decimal m = 1.5m,
      double inf = double.PositiveInfinity, string empty = "", char nul = '\\0') {}
    public static int Params(string fmt, params object[] args) { return 0; }
    public static int Jagged(params int[][] jag) { return 0; }
    public static unsafe void Arrays(int[,] md, int[][] jag, int* p, void* v, ref int[] r) {}
    public static void Generic<A, B, Cc>(A a, B b, Cc c) {}
    public static void Where<R, V, N, B, I, G>() where R : class where V : struct where N : new()
      where B : Exception, IDisposable where I : IComparable<I> where G : B {}
    public static void Opt([Optional] int x, [Optional, DefaultParameterValue(7)] int y,
      [DefaultParameterValue(3)] int z) {}
    public static void Varargs(int a, __arglist) {}
    public static ref int RefReturn(ref int x) { return ref x; }
    public static Func<int, int> Lambda() { return x => x + 1; }
  }
}`;

/** Prints, per method token, each parameter's name, flags, byref, params, IsReadOnly, default. */
const DUMP = `
using System; using System.Globalization; using System.Linq; using System.Reflection; using System.Text;
class P {
  static string Fmt(object v) {
    if (v == null) return "null";
    if (v is Enum) v = Convert.ChangeType(v, Enum.GetUnderlyingType(v.GetType()), CultureInfo.InvariantCulture);
    switch (Type.GetTypeCode(v.GetType())) {
      case TypeCode.Boolean: return "bool " + ((bool)v ? "true" : "false");
      case TypeCode.Char: return "char " + (int)(char)v;
      case TypeCode.SByte: return "sbyte " + v;
      case TypeCode.Byte: return "byte " + v;
      case TypeCode.Int16: return "short " + v;
      case TypeCode.UInt16: return "ushort " + v;
      case TypeCode.Int32: return "int " + v;
      case TypeCode.UInt32: return "uint " + v;
      case TypeCode.Int64: return "long " + v;
      case TypeCode.UInt64: return "ulong " + v;
      case TypeCode.Single: return "float " + BitConverter.ToInt32(BitConverter.GetBytes((float)v), 0);
      case TypeCode.Double: return "double " + BitConverter.DoubleToInt64Bits((double)v);
      case TypeCode.String: return "string " + string.Join(".", ((string)v).Select(c => ((int)c).ToString("x")));
      default: return "other " + v.GetType().FullName;
    }
  }
  static void Main(string[] args) {
    CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
    var all = BindingFlags.DeclaredOnly | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static;
    foreach (var file in args) {
      Type[] ts;
      try { ts = Assembly.LoadFrom(file).GetTypes(); } catch (ReflectionTypeLoadException e) { ts = e.Types; }
      foreach (var t in ts) {
        if (t == null) continue;
        MethodBase[] ms;
        try { ms = t.GetMethods(all).Cast<MethodBase>().Concat(t.GetConstructors(all)).ToArray(); } catch { continue; }
        foreach (var m in ms) {
          var sb = new StringBuilder();
          try {
            sb.Append(file).Append(' ').Append(m.MetadataToken.ToString("x8")).Append(' ');
            sb.Append(m.IsGenericMethodDefinition ? m.GetGenericArguments().Length : 0);
            if (m.IsGenericMethodDefinition)
              foreach (var g in m.GetGenericArguments())
                sb.Append('<').Append((int)(g.GenericParameterAttributes & GenericParameterAttributes.SpecialConstraintMask)).Append(':')
                  .Append(string.Join(",", g.GetGenericParameterConstraints().Where(c => c.FullName != null && !c.IsGenericType)
                    .Select(c => c.FullName).OrderBy(x => x, StringComparer.Ordinal)));
            sb.Append('|');
            foreach (var p in m.GetParameters()) {
              bool ro = CustomAttributeData.GetCustomAttributes(p).Any(a => a.Constructor.DeclaringType.FullName == "System.Runtime.CompilerServices.IsReadOnlyAttribute");
              string def = (p.Attributes & ParameterAttributes.HasDefault) != 0 ? Fmt(p.RawDefaultValue) : "-";
              sb.Append(p.Name ?? "").Append(':').Append((int)p.Attributes).Append(':').Append(p.ParameterType.IsByRef ? 1 : 0)
                .Append(':').Append(p.IsDefined(typeof(ParamArrayAttribute), false) ? 1 : 0).Append(':').Append(ro ? 1 : 0)
                .Append(':').Append(def).Append(';');
            }
          } catch (Exception) { continue; } // a parameter type that does not load
          Console.WriteLine(sb.ToString());
        }
      }
    }
  }
}`;

/** Our line for a method, in DUMP's format. */
function ours(file: string, defs: MethodDefinitions, token: number): string {
  const m = defs.method(token);
  const params = m.params.map((p) => {
    const def =
      p.flags & ParamAttributes.HasDefault
        ? p.defaultValue
          ? reflectionFormat(p.defaultValue)
          : 'null' // HasDefault without a Constant row
        : '-';
    const byRef = unmodified(p.type).kind === 'byref' ? 1 : 0;
    return `${p.name}:${p.flags}:${byRef}:${p.isParamArray ? 1 : 0}:${p.isReadOnly ? 1 : 0}:${def};`;
  });
  const hex = token.toString(16).padStart(8, '0');
  // each generic parameter's special constraints and the constraint types that have a name
  const generics = (defs.signature(token).genericParameters ?? []).map((g) => {
    const flags =
      (g.referenceType ? GenericParamAttributes.ReferenceTypeConstraint : 0) |
      (g.valueType ? GenericParamAttributes.NotNullableValueTypeConstraint : 0) |
      (g.defaultConstructor ? GenericParamAttributes.DefaultConstructorConstraint : 0);
    const named = g.constraints.filter((n) => !/[[!]/.test(n)).sort();
    return `<${flags}:${named.join(',')}`;
  });
  return `${file} ${hex} ${m.signature.genericArity}${generics.join('')}|${params.join('')}`;
}

function reflectionFormat(d: DefaultValue): string {
  switch (d.kind) {
    case 'null':
      return 'null';
    case 'bool':
      return `bool ${String(d.value)}`;
    case 'float': {
      const v = new DataView(new ArrayBuffer(4));
      v.setFloat32(0, d.value);
      return `float ${v.getInt32(0)}`;
    }
    case 'double': {
      const v = new DataView(new ArrayBuffer(8));
      v.setFloat64(0, d.value);
      return `double ${v.getBigInt64(0)}`;
    }
    case 'string':
      return `string ${[...Array(d.value.length).keys()].map((i) => d.value.charCodeAt(i).toString(16)).join('.')}`;
    case 'char':
    case 'sbyte':
    case 'byte':
    case 'short':
    case 'ushort':
    case 'int':
    case 'uint':
    case 'long':
    case 'ulong':
      return `${d.kind} ${String(d.value)}`;
  }
}

describe.runIf(haveMono)('against System.Reflection', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-methods-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives every method the parameters reflection gives it', { timeout: 120_000 }, () => {
    const sample = path.join(dir, 'Sample.dll');
    const dump = path.join(dir, 'Dump.exe');
    writeFileSync(path.join(dir, 'Sample.cs'), SAMPLE);
    writeFileSync(path.join(dir, 'Dump.cs'), DUMP);
    execFileSync(
      'mcs',
      [
        '-langversion:experimental',
        '-unsafe',
        '-target:library',
        `-out:${sample}`,
        path.join(dir, 'Sample.cs'),
      ],
      { stdio: 'pipe' },
    );
    execFileSync('mcs', [`-out:${dump}`, path.join(dir, 'Dump.cs')], { stdio: 'pipe' });
    const files = [MSCORLIB, `${MONO}/System.dll`, `${MONO}/System.Core.dll`, sample].filter((f) =>
      existsSync(f),
    );
    const reflected = execFileSync('mono', [dump, ...files], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    })
      .trim()
      .split('\n');
    const opened = new Map(
      files.map((f) => [f, new MethodDefinitions(new MetadataImage(readFileSync(f)))]),
    );
    const mine = reflected.map((line) => {
      const [file, token] = line.split(' ');
      return ours(file!, opened.get(file!)!, parseInt(token!, 16));
    });
    expect(reflected.length).toBeGreaterThan(50_000);
    expect(reflected.filter((l) => l.startsWith(sample))).toHaveLength(16);
    // the constraints of Sample.D.Where<R, V, N, B, I, G> as reflection reads them
    expect(reflected.find((l) => l.startsWith(sample) && l.includes(' 6<'))).toContain(
      ' 6<4:<24:System.ValueType<16:<0:System.Exception,System.IDisposable<0:<0:|',
    );
    expect(mine).toEqual(reflected);
  });
});
