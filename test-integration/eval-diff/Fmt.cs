// The oracle's formatter: the same rules as eval/format (docs/eval-contract.md, "Formatting"),
// written in C# so that a program compiled by mcs and run in the fixture prints exactly what
// our evaluator must print for it.
using System;
using System.Collections;
using System.Globalization;
using System.Reflection;
using System.Text;

public static class Fmt
{
	public const int MaxChars = 200;
	public const int MaxElements = 10;
	public const int MaxMembers = 12;
	public const int MaxDepth = 2;

	public static string Format (object o)
	{
		return Value (o, 0);
	}

	/// The static type of the expression (T, as the compiler inferred it) as C# writes it, a
	/// U+0001, then the value as Format prints it.
	public static string Typed<T> (T x)
	{
		return TypeName (typeof (T)) + "\u0001" + Format (x);
	}

	/// The same for an expression without a type (the null literal): `<null>` as its type.
	public static string Untyped (object x)
	{
		return "<null>\u0001" + Format (x);
	}

	static string Value (object o, int depth)
	{
		if (o == null) return "null";
		if (o is bool) return (bool)o ? "True" : "False";
		if (o is char) return Char ((char)o);
		if (o is string) return Str ((string)o);
		if (o is Enum) return o.ToString ();
		if (o is IFormattable && o.GetType ().IsPrimitive || o is decimal)
			return ((IFormattable)o).ToString (null, CultureInfo.InvariantCulture);
		if (o is Type) return "typeof(" + TypeName ((Type)o) + ")";
		if (o is Array) return ArrayText ((Array)o, depth);
		Type t = o.GetType ();
		if (t.IsGenericType && t.GetGenericTypeDefinition () == typeof (System.Collections.Generic.List<>))
			return Sequence (TypeName (t) + "(" + ((IList)o).Count + ")", (IList)o, depth);
		if (o is IDictionary) return Dictionary (t, (IDictionary)o, depth);
		if (OverridesToString (t)) return o.ToString ();
		return Members (o, t, depth);
	}

	static bool OverridesToString (Type t)
	{
		MethodInfo m = t.GetMethod ("ToString", Type.EmptyTypes);
		return m != null && m.DeclaringType != typeof (object) && m.DeclaringType != typeof (ValueType) && m.DeclaringType != typeof (Enum);
	}

	static string Members (object o, Type t, int depth)
	{
		if (depth >= MaxDepth) return TypeName (t) + " { … }";
		var sb = new StringBuilder (TypeName (t) + " {");
		int n = 0;
		foreach (FieldInfo f in t.GetFields (BindingFlags.Public | BindingFlags.Instance)) {
			if (n == MaxMembers) { sb.Append (" …,"); break; }
			sb.Append (" " + f.Name + " = " + Value (f.GetValue (o), depth + 1) + ",");
			n++;
		}
		if (n > 0) sb.Length--;
		sb.Append (" }");
		return sb.ToString ();
	}

	static string ArrayText (Array a, int depth)
	{
		var dims = new StringBuilder ();
		for (int i = 0; i < a.Rank; i++) dims.Append ((i > 0 ? "," : "") + a.GetLength (i));
		return Sequence (TypeName (a.GetType ().GetElementType ()) + "[" + dims + "]", a, depth);
	}

	static string Sequence (string head, IEnumerable items, int depth)
	{
		if (depth >= MaxDepth) return head + " { … }";
		var sb = new StringBuilder (head + " {");
		int n = 0, total = 0;
		foreach (object x in items) {
			total++;
			if (n < MaxElements) { sb.Append ((n > 0 ? ", " : " ") + Value (x, depth + 1)); n++; }
		}
		if (total > n) sb.Append (", … (" + (total - n) + " more)");
		sb.Append (total == 0 ? "}" : " }");
		return sb.ToString ();
	}

	static string Dictionary (Type t, IDictionary d, int depth)
	{
		string head = TypeName (t) + "(" + d.Count + ")";
		if (depth >= MaxDepth) return head + " { … }";
		var sb = new StringBuilder (head + " {");
		int n = 0;
		foreach (DictionaryEntry e in d) {
			if (n == MaxElements) { sb.Append (", … (" + (d.Count - n) + " more)"); break; }
			sb.Append ((n > 0 ? ", " : " ") + "[" + Value (e.Key, depth + 1) + "] = " + Value (e.Value, depth + 1));
			n++;
		}
		sb.Append (n == 0 ? "}" : " }");
		return sb.ToString ();
	}

	public static string TypeName (Type t)
	{
		if (t == typeof (int)) return "int";
		if (t == typeof (uint)) return "uint";
		if (t == typeof (long)) return "long";
		if (t == typeof (ulong)) return "ulong";
		if (t == typeof (short)) return "short";
		if (t == typeof (ushort)) return "ushort";
		if (t == typeof (byte)) return "byte";
		if (t == typeof (sbyte)) return "sbyte";
		if (t == typeof (char)) return "char";
		if (t == typeof (bool)) return "bool";
		if (t == typeof (float)) return "float";
		if (t == typeof (double)) return "double";
		if (t == typeof (decimal)) return "decimal";
		if (t == typeof (string)) return "string";
		if (t == typeof (object)) return "object";
		if (t.IsArray) return TypeName (t.GetElementType ()) + "[" + new string (',', t.GetArrayRank () - 1) + "]";
		if (t.IsGenericType && t.GetGenericTypeDefinition () == typeof (Nullable<>)) return TypeName (t.GetGenericArguments () [0]) + "?";
		if (IsAnonymous (t)) {
			// Roslyn's display form: the members in declaration order with their types
			var props = t.GetProperties ();
			var members = new string [props.Length];
			for (int i = 0; i < props.Length; i++) members [i] = TypeName (props [i].PropertyType) + " " + props [i].Name;
			return "<anonymous type: " + string.Join (", ", members) + ">";
		}
		string name = t.IsNested ? TypeName (t.DeclaringType) + "." + t.Name : (t.Namespace == null ? "" : t.Namespace + ".") + t.Name;
		int tick = name.IndexOf ('`');
		if (tick >= 0) name = name.Substring (0, tick);
		if (t.IsGenericType) {
			var args = t.GetGenericArguments ();
			var parts = new string [args.Length];
			for (int i = 0; i < args.Length; i++) parts [i] = TypeName (args [i]);
			name += "<" + string.Join (", ", parts) + ">";
		}
		return name;
	}

	/// An anonymous type: mcs names it <>__AnonType0`n, Roslyn <>f__AnonymousType0`n.
	static bool IsAnonymous (Type t)
	{
		return t.IsDefined (typeof (System.Runtime.CompilerServices.CompilerGeneratedAttribute), false)
			&& (t.Name.Contains ("AnonType") || t.Name.Contains ("AnonymousType"));
	}

	public static string Char (char c)
	{
		return "'" + Escape (c, '\'') + "'";
	}

	public static string Str (string s)
	{
		var sb = new StringBuilder ("\"");
		int n = Math.Min (s.Length, MaxChars);
		for (int i = 0; i < n; i++) sb.Append (Escape (s [i], '"'));
		sb.Append ('"');
		if (s.Length > n) sb.Append ("… (" + s.Length + " chars)");
		return sb.ToString ();
	}

	static string Escape (char c, char quote)
	{
		switch (c) {
		case '\\': return "\\\\";
		case '\0': return "\\0";
		case '\a': return "\\a";
		case '\b': return "\\b";
		case '\f': return "\\f";
		case '\n': return "\\n";
		case '\r': return "\\r";
		case '\t': return "\\t";
		case '\v': return "\\v";
		}
		if (c == quote) return "\\" + c;
		if (c < ' ' || c == '\u007f') return "\\u" + ((int)c).ToString ("x4");
		return c.ToString ();
	}
}
