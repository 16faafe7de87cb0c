// RefBench: the reference side of the SDB benchmarks.
//
// Attaches to a running Mono debuggee with the reference C# client (Mono.Debugger.Soft.dll, the
// one Debian ships with Mono 6.8, client protocol 2.54), runs one named scenario, prints exactly
// one line `RESULT <json>` on stdout, resumes whatever it suspended and detaches (VM DISPOSE) so
// the debuggee accepts the next debugger.
//
// Build:  mcs -r:/usr/lib/mono/4.5/Mono.Debugger.Soft.dll -out:RefBench.exe RefBench.cs
// Run:    mono RefBench.exe --port 56000 --scenario wire [--iterations 200]
//                           [--burst-iterations 10] [--timeout-ms 60000]
//         (scenarios: info, wire, session, eval, mcp; --iterations defaults to 200, for session
//         to 30)
//
// Exit codes: 0 ok, 1 failure (message on stderr), 2 bad usage, 124 watchdog fired.
//
// Notes on the library (checked against the IL of the installed 6.8 DLL):
// - Connection's receiver thread ("SDB Receiver") writes unexpected exceptions to stdout with
//   Console.WriteLine. We therefore point Console.Out at stderr and keep the real stdout for the
//   RESULT line only.
// - Every request is synchronous: SendReceive writes the packet, then waits on a monitor until the
//   receiver thread hands over the reply. There is no pipelining.
// - Value reads are not cached on the client: TypeMirror.GetValue, ObjectMirror.GetValue,
//   ArrayMirror.GetValues and StringMirror.Value each make exactly one request. Only metadata is
//   cached (type info, field lists, an array's lengths, a string's length).

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Net;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;
using Mono.Debugger.Soft;
using StackFrame = Mono.Debugger.Soft.StackFrame;

namespace RefBench
{
	sealed class Options
	{
		public int Port = -1;
		public string Scenario;
		public int Iterations = 200;
		public bool IterationsGiven; // session uses its own default (30) when --iterations is absent
		public int BurstIterations = -1; // -1: min(Iterations, 10)
		public int TimeoutMs = 60000;
		public int Warmup = 50; // untimed calls before each light row (heavy rows: 5)

		public static Options Parse (string[] args)
		{
			var o = new Options ();
			for (int i = 0; i < args.Length; i++) {
				string a = args [i];
				if (i + 1 >= args.Length)
					throw new UsageException ("missing value for " + a);
				string v = args [++i];
				switch (a) {
				case "--port": o.Port = ParseInt (a, v, 1, 65535); break;
				case "--scenario": o.Scenario = v; break;
				case "--iterations": o.Iterations = ParseInt (a, v, 1, 10000000); o.IterationsGiven = true; break;
				case "--burst-iterations": o.BurstIterations = ParseInt (a, v, 1, 100000); break;
				case "--timeout-ms": o.TimeoutMs = ParseInt (a, v, 1000, 24 * 3600 * 1000); break;
				case "--warmup": o.Warmup = ParseInt (a, v, 0, 10000000); break;
				default: throw new UsageException ("unknown option " + a);
				}
			}
			if (o.Port < 0)
				throw new UsageException ("--port is required");
			if (string.IsNullOrEmpty (o.Scenario))
				throw new UsageException ("--scenario is required");
			if (o.BurstIterations < 0)
				o.BurstIterations = Math.Min (o.Iterations, 10);
			return o;
		}

		static int ParseInt (string name, string v, int min, int max)
		{
			int n;
			if (!int.TryParse (v, NumberStyles.Integer, CultureInfo.InvariantCulture, out n) || n < min || n > max)
				throw new UsageException (name + " must be an integer in [" + min + ", " + max + "], got '" + v + "'");
			return n;
		}
	}

	sealed class UsageException : Exception
	{
		public UsageException (string m) : base (m) { }
	}

	sealed class BenchException : Exception
	{
		public BenchException (string m) : base (m) { }
	}

	// The RESULT object: numbers (the measured rows) and strings (versions, diagnostics), in
	// insertion order. Serialized as one flat JSON object.
	sealed class Result
	{
		readonly List<KeyValuePair<string, object>> entries = new List<KeyValuePair<string, object>> ();

		public void Num (string key, double value)
		{
			if (double.IsNaN (value) || double.IsInfinity (value))
				throw new BenchException ("non-finite value for " + key);
			Set (key, value);
		}

		public void Str (string key, string value)
		{
			Set (key, value ?? "");
		}

		void Set (string key, object value)
		{
			for (int i = 0; i < entries.Count; i++) {
				if (entries [i].Key == key) {
					entries [i] = new KeyValuePair<string, object> (key, value);
					return;
				}
			}
			entries.Add (new KeyValuePair<string, object> (key, value));
		}

		public string ToJson ()
		{
			var sb = new StringBuilder ("{");
			for (int i = 0; i < entries.Count; i++) {
				if (i > 0)
					sb.Append (',');
				Quote (sb, entries [i].Key);
				sb.Append (':');
				object v = entries [i].Value;
				if (v is double)
					sb.Append (((double)v).ToString ("R", CultureInfo.InvariantCulture));
				else
					Quote (sb, (string)v);
			}
			return sb.Append ('}').ToString ();
		}

		static void Quote (StringBuilder sb, string s)
		{
			sb.Append ('"');
			foreach (char c in s) {
				switch (c) {
				case '"': sb.Append ("\\\""); break;
				case '\\': sb.Append ("\\\\"); break;
				case '\n': sb.Append ("\\n"); break;
				case '\r': sb.Append ("\\r"); break;
				case '\t': sb.Append ("\\t"); break;
				default:
					if (c < 0x20)
						sb.Append ("\\u").Append (((int)c).ToString ("x4", CultureInfo.InvariantCulture));
					else
						sb.Append (c);
					break;
				}
			}
			sb.Append ('"');
		}
	}

	// One attached debugger session. Owns the suspend count it created, so cleanup resumes exactly
	// what this program suspended and nothing else.
	sealed class Session
	{
		public readonly VirtualMachine Vm;
		public readonly Options Options;
		readonly object gate = new object ();
		int suspends;
		bool detached;
		ThreadMirror vmStartThread;
		ThreadMirror mainThread;
		public string MainThreadSource = "";

		Session (VirtualMachine vm, Options options)
		{
			Vm = vm;
			Options = options;
		}

		public static Session Attach (Options o)
		{
			// Blocks until the agent completes the handshake; the watchdog bounds it (the agent
			// serves one client at a time, so a busy agent leaves us hanging here).
			VirtualMachine vm = VirtualMachineManager.Connect (new IPEndPoint (IPAddress.Loopback, o.Port));
			var s = new Session (vm, o);
			try {
				s.TakeStartEvent ();
			} catch {
				s.Cleanup ();
				throw;
			}
			return s;
		}

		// Mono's agent greets every client that attaches to a running VM with a VM_START event whose
		// thread is mono_thread_get_main(), i.e. the process entry thread. Its suspend policy is
		// NONE for suspend=n debuggees; if some agent sends it with a suspending policy we resume
		// once right away so the debuggee runs as before.
		void TakeStartEvent ()
		{
			EventSet es = Vm.GetNextEventSet (2000);
			if (es == null)
				return;
			foreach (Event e in es.Events) {
				if (e.EventType == EventType.VMStart && vmStartThread == null)
					vmStartThread = e.Thread;
			}
			if (es.SuspendPolicy != SuspendPolicy.None) {
				try {
					Vm.Resume ();
				} catch (VMNotSuspendedException) {
				}
			}
		}

		public void Suspend ()
		{
			lock (gate) {
				Vm.Suspend ();
				suspends++;
			}
		}

		// An event set with a suspending policy raised the VM's suspend count once: ours to resume.
		public void TookEventSuspend ()
		{
			lock (gate)
				suspends++;
		}

		public void Resume ()
		{
			lock (gate) {
				if (suspends == 0)
					throw new BenchException ("Resume without a matching Suspend");
				suspends--;
				Vm.Resume ();
			}
		}

		// Idempotent: resumes everything this session suspended, then detaches (VM DISPOSE).
		// Throws if the detach itself fails. Waits at most 2 s for the session lock (the watchdog
		// may call this while the main thread is stuck inside Suspend/Resume) and then goes ahead
		// without it: a clean detach matters more than an exact count.
		public void Cleanup ()
		{
			bool locked = Monitor.TryEnter (gate, 2000);
			try {
				if (detached)
					return;
				Exception first = null;
				while (suspends > 0) {
					suspends--;
					try {
						Vm.Resume ();
					} catch (VMNotSuspendedException) {
					} catch (Exception ex) {
						if (first == null)
							first = ex;
					}
				}
				detached = true;
				try {
					Vm.Detach ();
				} catch (Exception ex) {
					if (first == null)
						first = ex;
				}
				if (first != null)
					throw new BenchException ("cleanup failed: " + first.GetType ().Name + ": " + first.Message);
			} finally {
				if (locked)
					Monitor.Exit (gate);
			}
		}

		// The debuggee's main thread (managed id 1, the process entry thread; its SDB name is "").
		// SDB does not expose managed thread ids (THREAD.GET_ID returns an internal pointer), so:
		// 1. the thread of the VM_START event the agent sent on attach (mono_thread_get_main());
		// 2. else the thread whose bottom frame is a method named "Main" (needs a suspended VM, so
		//    we suspend briefly if not already suspended);
		// 3. else the first thread the agent lists.
		public ThreadMirror MainThread ()
		{
			if (mainThread != null)
				return mainThread;
			IList<ThreadMirror> threads = Vm.GetThreads ();
			if (threads.Count == 0)
				throw new BenchException ("debuggee reports no threads");
			if (vmStartThread != null) {
				foreach (ThreadMirror t in threads) {
					if (t.Id == vmStartThread.Id) {
						MainThreadSource = "vm_start_event";
						return mainThread = t;
					}
				}
			}
			bool suspendedHere = false;
			lock (gate) {
				if (suspends == 0) {
					Suspend ();
					suspendedHere = true;
				}
			}
			try {
				foreach (ThreadMirror t in threads) {
					StackFrame[] frames;
					try {
						frames = t.GetFrames ();
					} catch (Exception) {
						continue;
					}
					if (frames.Length > 0 && frames [frames.Length - 1].Method.Name == "Main") {
						MainThreadSource = "bottom_frame_main";
						return mainThread = t;
					}
				}
			} finally {
				if (suspendedHere)
					Resume ();
			}
			MainThreadSource = "first_thread";
			return mainThread = threads [0];
		}
	}

	// Small lookups that scenarios share.
	static class Sdb
	{
		// Finds a type by full name (namespace.Name, nested types as Outer/Inner), preferring the
		// given assembly (by simple name) when there are several. VM.GET_TYPES (protocol >= 2.9)
		// searches every loaded assembly of every domain.
		public static TypeMirror FindType (VirtualMachine vm, string fullName, string assemblyName)
		{
			IList<TypeMirror> found = vm.GetTypes (fullName, false);
			TypeMirror any = null;
			foreach (TypeMirror t in found) {
				if (assemblyName == null || t.Assembly.GetName ().Name == assemblyName)
					return t;
				if (any == null)
					any = t;
			}
			if (any != null)
				throw new BenchException ("type " + fullName + " found, but not in assembly " + assemblyName + " (it is in " + any.Assembly.GetName ().Name + ")");
			throw new BenchException ("type " + fullName + " not found in the debuggee (not loaded yet?)");
		}

		public static FieldInfoMirror FindStaticField (TypeMirror type, string name)
		{
			FieldInfoMirror f = type.GetField (name);
			if (f == null)
				throw new BenchException ("field " + type.FullName + "." + name + " not found");
			if (!f.IsStatic)
				throw new BenchException ("field " + type.FullName + "." + name + " is not static");
			return f;
		}

		public static FieldInfoMirror FindInstanceField (TypeMirror type, string name)
		{
			FieldInfoMirror f = type.GetField (name);
			if (f == null)
				throw new BenchException ("field " + type.FullName + "." + name + " not found");
			if (f.IsStatic)
				throw new BenchException ("field " + type.FullName + "." + name + " is static");
			return f;
		}

		public static MethodMirror FindStaticMethod (TypeMirror type, string name, int paramCount)
		{
			foreach (MethodMirror m in type.GetMethods ()) {
				if (m.Name == name && m.IsStatic && m.GetParameters ().Length == paramCount)
					return m;
			}
			throw new BenchException ("static method " + type.FullName + "." + name + "/" + paramCount + " not found");
		}

		public static T ReadStatic<T> (TypeMirror type, FieldInfoMirror field) where T : Value
		{
			Value v = type.GetValue (field);
			var t = v as T;
			if (t == null)
				throw new BenchException (type.FullName + "." + field.Name + ": expected " + typeof (T).Name + ", got " + (v == null ? "null" : v.GetType ().Name));
			return t;
		}

		public static object ReadStaticPrimitive (TypeMirror type, FieldInfoMirror field)
		{
			return ReadStatic<PrimitiveValue> (type, field).Value;
		}

		public static void WriteStaticPrimitive (VirtualMachine vm, TypeMirror type, FieldInfoMirror field, object value)
		{
			type.SetValue (field, vm.CreateValue (value));
		}

		// Polls a static primitive until it equals `expected` (e.g. the fixture's main loop writing
		// Hitch.ResetRequested back to 0). Returns the milliseconds waited.
		public static double WaitForStatic (TypeMirror type, FieldInfoMirror field, object expected, int boundMs)
		{
			var sw = Stopwatch.StartNew ();
			while (true) {
				if (Equals (ReadStaticPrimitive (type, field), expected))
					return sw.Elapsed.TotalMilliseconds;
				if (sw.ElapsedMilliseconds > boundMs)
					throw new BenchException ("timed out after " + boundMs + " ms waiting for " + type.FullName + "." + field.Name + " == " + expected);
				Thread.Sleep (1);
			}
		}

		// Static invoke on a thread of a suspended VM, retrying while the agent answers
		// NOT_SUSPENDED: after VM.SUSPEND a thread that is inside native code (e.g. the main loop's
		// 16 ms sleep) only really parks when it next enters managed code, and the agent refuses to
		// invoke on it until then. Returns the invoke's value; `waitedMs` is how long parking took.
		public static Value InvokeWhenParked (ThreadMirror thread, TypeMirror type, MethodMirror method, IList<Value> args, InvokeOptions options, int boundMs, out double waitedMs, out int attempts)
		{
			var sw = Stopwatch.StartNew ();
			attempts = 0;
			while (true) {
				attempts++;
				try {
					Value v = type.InvokeMethod (thread, method, args, options);
					waitedMs = sw.Elapsed.TotalMilliseconds;
					return v;
				} catch (VMNotSuspendedException) {
					if (sw.ElapsedMilliseconds > boundMs)
						throw new BenchException ("thread " + thread.Id + " did not park within " + boundMs + " ms (" + attempts + " invoke attempts answered NOT_SUSPENDED)");
					Thread.Sleep (1);
				}
			}
		}

		// Suspends the VM and waits until the main thread is really parked in managed code, using
		// a static invoke of corlib's Environment.CurrentManagedThreadId getter as the probe (it
		// needs no game type and tells which managed thread ran it). The caller must call
		// session.Resume() afterwards (or rely on Session.Cleanup). Returns the probe's value,
		// i.e. the parked thread's managed id; `waitedMs` is how long parking took.
		public static int ParkMainThread (Session s, int boundMs, out double waitedMs)
		{
			ThreadMirror main = s.MainThread ();
			TypeMirror env = s.Vm.RootDomain.Corlib.GetType ("System.Environment");
			if (env == null)
				throw new BenchException ("System.Environment not found in corlib");
			MethodMirror probe = FindStaticMethod (env, "get_CurrentManagedThreadId", 0);
			s.Suspend ();
			int attempts;
			Value v = InvokeWhenParked (main, env, probe, new Value[0], InvokeOptions.DisableBreakpoints, boundMs, out waitedMs, out attempts);
			return AsInt (v, "Environment.CurrentManagedThreadId");
		}

		public static int AsInt (Value v, string what)
		{
			var p = v as PrimitiveValue;
			if (p == null || !(p.Value is int))
				throw new BenchException (what + ": expected an int, got " + (v == null ? "null" : (p == null ? v.GetType ().Name : (p.Value == null ? "null" : p.Value.GetType ().Name))));
			return (int)p.Value;
		}
	}

	static class Measure
	{
		// Set from --warmup; the same count is given to our client, so both are measured warm.
		public static int Warmup = 50;
		public const int HeavyWarmup = 5;

		// Microseconds per call of `op`: after `warmup` untimed calls, `n` timed calls in
		// Batches batches (one Stopwatch around each), and the median of the batch means. The
		// debuggee's GC pauses and the 2-core machine's scheduling make single batches swing by
		// half; the median batch is robust to that, and our client is measured the same way.
		public const int Batches = 10;

		public static double MeanMicros (int warmup, int n, Action op)
		{
			for (int i = 0; i < warmup; i++)
				op ();
			int batches = Math.Min (Batches, n);
			var means = new double[batches];
			for (int b = 0; b < batches; b++) {
				int size = n / batches + (b < n % batches ? 1 : 0);
				var sw = Stopwatch.StartNew ();
				for (int i = 0; i < size; i++)
					op ();
				sw.Stop ();
				means [b] = sw.Elapsed.Ticks / (double)TimeSpan.TicksPerMillisecond * 1000.0 / size;
			}
			Array.Sort (means);
			return batches % 2 == 1 ? means [batches / 2] : (means [batches / 2 - 1] + means [batches / 2]) / 2;
		}
	}

	delegate void Scenario (Session s, Result r);

	static class Scenarios
	{
		public static readonly Dictionary<string, Scenario> All = new Dictionary<string, Scenario> {
			{ "info", Info },
			{ "wire", Wire },
			{ "session", SessionScenario },
			{ "eval", EvalScenario },
			{ "mcp", McpScenario },
			{ "debug", DebugScenario },
			{ "observe", ObserveScenario },
		};

		const string GameAssembly = "Assembly-CSharp";
		const int InvokeParkBoundMs = 5000;

		// Attach, find and park the main thread (reporting its managed id, which should be 1),
		// resume, detach. A smoke test for the plumbing and for Session.MainThread.
		static void Info (Session s, Result r)
		{
			ThreadMirror main = s.MainThread ();
			r.Num ("threads", s.Vm.GetThreads ().Count);
			r.Str ("main_thread_name", main.Name);
			r.Str ("main_thread_source", s.MainThreadSource);
			double waited;
			int managedId = Sdb.ParkMainThread (s, InvokeParkBoundMs, out waited);
			s.Resume ();
			r.Num ("main_thread_managed_id", managedId);
			r.Str ("park_wait_ms", waited.ToString ("0.###", CultureInfo.InvariantCulture));
		}

		static void Wire (Session s, Result r)
		{
			VirtualMachine vm = s.Vm;
			int n = s.Options.Iterations;
			TypeMirror probe = Sdb.FindType (vm, "Game.Probe", GameAssembly);
			FieldInfoMirror sInt = Sdb.FindStaticField (probe, "SInt");
			FieldInfoMirror instanceField = Sdb.FindStaticField (probe, "Instance");
			FieldInfoMirror iInt = Sdb.FindInstanceField (probe, "IInt");
			FieldInfoMirror sBigInts = Sdb.FindStaticField (probe, "SBigInts");
			FieldInfoMirror sBig = Sdb.FindStaticField (probe, "SBig");
			MethodMirror add = Sdb.FindStaticMethod (probe, "Add", 2);

			// static_field_read_us: TypeMirror.GetValue(field) -> GetValues(new[]{field}, null) ->
			// Connection.Type_GetValues with thread 0 -> one TYPE.GET_VALUES (23/4) request; the
			// reply is decoded to a PrimitiveValue locally. No value cache on the client. This is
			// the lowest public API: Connection and VirtualMachine.conn are internal.
			Sdb.AsInt (probe.GetValue (sInt), "Game.Probe.SInt");
			r.Num ("static_field_read_us", Measure.MeanMicros (Measure.Warmup, n, () => {
				probe.GetValue (sInt);
			}));

			// object_field_read_us: ObjectMirror.GetValue(field) -> one OBJECT_REF.GET_VALUES (9/2).
			var instance = Sdb.ReadStatic<ObjectMirror> (probe, instanceField);
			Sdb.AsInt (instance.GetValue (iInt), "Game.Probe.Instance.IInt");
			r.Num ("object_field_read_us", Measure.MeanMicros (Measure.Warmup, n, () => {
				instance.GetValue (iInt);
			}));

			// array_10k_read_us: ArrayMirror.GetValues(0, 10000) -> one ARRAY_REF.GET_VALUES (13/2)
			// per call, decoded into 10,000 PrimitiveValues which we sum. The bounds check reads
			// ArrayMirror.Length, which is fetched once (ARRAY_REF.GET_LENGTH) and cached by the
			// mirror; we touch it before timing.
			var arr = Sdb.ReadStatic<ArrayMirror> (probe, sBigInts);
			if (arr.Length != 100000)
				throw new BenchException ("Game.Probe.SBigInts: expected length 100000, got " + arr.Length);
			const int arrayCount = 10000;
			long expectedSum = 7L * arrayCount * (arrayCount - 1) / 2 - 50000L * arrayCount;
			long sum = SumInts (arr.GetValues (0, arrayCount));
			if (sum != expectedSum)
				throw new BenchException ("Game.Probe.SBigInts[0..10000): expected sum " + expectedSum + ", got " + sum);
			long sink = 0;
			r.Num ("array_10k_read_us", Measure.MeanMicros (Measure.HeavyWarmup, n, () => {
				sink += SumInts (arr.GetValues (0, arrayCount));
			}));

			// string_1mb_read_us: StringMirror.Value -> one STRING_REF.GET_VALUE (10/1) per read.
			// In this library StringMirror.Value is not cached (it calls Connection.String_GetValue
			// every time; only StringMirror.Length is cached), so one mirror is reused.
			var str = Sdb.ReadStatic<StringMirror> (probe, sBig);
			string first = str.Value;
			if (first.Length != 1048576)
				throw new BenchException ("Game.Probe.SBig: expected 1048576 chars, got " + first.Length);
			r.Num ("string_1mb_read_us", Measure.MeanMicros (Measure.HeavyWarmup, n, () => {
				sink += str.Value.Length;
			}));

			// invoke_parked_us: VM.SUSPEND, wait until the main thread parks (retrying the invoke
			// while the agent answers NOT_SUSPENDED), then time TypeMirror.InvokeMethod(main, Add,
			// [1, 2], DisableBreakpoints): one VM.INVOKE_METHOD (1/7) request whose reply arrives
			// when the invoke finished. Without SingleThreaded the agent resumes the other threads
			// for the duration of each invoke and suspends them again afterwards.
			ThreadMirror main = s.MainThread ();
			var addArgs = new Value[] { vm.CreateValue (1), vm.CreateValue (2) };
			s.Suspend ();
			double parkMs;
			int parkAttempts;
			int three = Sdb.AsInt (Sdb.InvokeWhenParked (main, probe, add, addArgs, InvokeOptions.DisableBreakpoints, InvokeParkBoundMs, out parkMs, out parkAttempts), "Game.Probe.Add(1, 2)");
			if (three != 3)
				throw new BenchException ("Game.Probe.Add(1, 2) returned " + three);
			r.Num ("invoke_parked_us", Measure.MeanMicros (Measure.Warmup, n, () => {
				probe.InvokeMethod (main, add, addArgs, InvokeOptions.DisableBreakpoints);
			}));
			s.Resume ();
			r.Str ("main_thread_source", s.MainThreadSource);
			r.Str ("park_wait_ms", parkMs.ToString ("0.###", CultureInfo.InvariantCulture));
			r.Str ("park_attempts", parkAttempts.ToString (CultureInfo.InvariantCulture));

			// burst_1000_reads_us: total time of 1,000 back-to-back static reads (the reference
			// client sends one request and waits for its reply before the next). Mean over
			// --burst-iterations bursts after 5 warm-up bursts.
			r.Num ("burst_1000_reads_us", Measure.MeanMicros (Measure.HeavyWarmup, s.Options.BurstIterations, () => {
				for (int i = 0; i < 1000; i++)
					probe.GetValue (sInt);
			}));

			// burst_1000_reads_batched_us: the reference client at its best for the same 1,000 reads:
			// TypeMirror.GetValues(IList<FieldInfoMirror>) with the field 1,000 times, one
			// TYPE.GET_VALUES request carrying 1,000 field ids, one reply with 1,000 values.
			var thousand = new List<FieldInfoMirror> (1000);
			for (int i = 0; i < 1000; i++)
				thousand.Add (sInt);
			Value[] batch = probe.GetValues (thousand);
			if (batch.Length != 1000)
				throw new BenchException ("TypeMirror.GetValues of 1,000 fields returned " + batch.Length + " values");
			for (int i = 0; i < batch.Length; i++)
				Sdb.AsInt (batch [i], "Game.Probe.SInt (batched)");
			r.Num ("burst_1000_reads_batched_us", Measure.MeanMicros (Measure.HeavyWarmup, s.Options.BurstIterations, () => {
				sink += probe.GetValues (thousand).Length;
			}));

			r.Num ("iterations", n);
			r.Num ("burst_iterations", s.Options.BurstIterations);
			GC.KeepAlive (sink);
		}

		// ---- eval: what three evaluator programs do, written by hand against the client -------
		//
		// One op = VM.SUSPEND; the reads and invokes the program needs; VM.RESUME: what one
		// evaluation does in its session window. Every mirror is resolved before timing (the
		// evaluator's repeated evaluations have their lookups memoized too). The first invoke of
		// each op retries while the agent answers NOT_SUSPENDED (the main thread parks when it
		// next enters managed code), as both clients must.
		//   field_chain:    Game.Probe.SChain.Next.Next.Value: TYPE.GET_VALUES + 3 OBJECT_REF.GET_VALUES
		//   property_chain: Game.Shop.Featured.Name.Length: 1 read, 2 getter invokes
		//   ecs_read:       World.DefaultGameObjectInjectionWorld.EntityManager
		//                   .GetComponentData<LocalTransform>(entity 12, version 1).Position: 3 invokes
		// Rows in ms per op: the median of n ops, each timed alone after a 20 ms pause.
		static void EvalScenario (Session s, Result r)
		{
			VirtualMachine vm = s.Vm;
			int n = Math.Max (10, Math.Min (s.Options.Iterations, 100));
			ThreadMirror main = s.MainThread ();
			TypeMirror probe = Sdb.FindType (vm, "Game.Probe", GameAssembly);
			TypeMirror node = Sdb.FindType (vm, "Game.Node", GameAssembly);
			FieldInfoMirror sChain = Sdb.FindStaticField (probe, "SChain");
			FieldInfoMirror next = Sdb.FindInstanceField (node, "Next");
			FieldInfoMirror value = Sdb.FindInstanceField (node, "Value");
			Func<int> fieldChain = () => {
				var a = Sdb.ReadStatic<ObjectMirror> (probe, sChain);
				var b = (ObjectMirror)a.GetValue (next);
				var c = (ObjectMirror)b.GetValue (next);
				return Sdb.AsInt (c.GetValue (value), "Game.Probe.SChain.Next.Next.Value");
			};

			TypeMirror shop = Sdb.FindType (vm, "Game.Shop", GameAssembly);
			TypeMirror item = Sdb.FindType (vm, "Game.Item", GameAssembly);
			FieldInfoMirror featured = Sdb.FindStaticField (shop, "Featured");
			MethodMirror getName = item.GetProperty ("Name").GetGetMethod ();
			MethodMirror getLength = vm.RootDomain.Corlib.GetType ("System.String").GetProperty ("Length").GetGetMethod ();
			Func<int> propertyChain = () => {
				var f = Sdb.ReadStatic<ObjectMirror> (shop, featured);
				var name = (StringMirror)Parked (() => f.InvokeMethod (main, getName, new Value[0], InvokeOptions.DisableBreakpoints));
				return Sdb.AsInt (name.InvokeMethod (main, getLength, new Value[0], InvokeOptions.DisableBreakpoints), "Featured.Name.Length");
			};

			TypeMirror world = Sdb.FindType (vm, "Unity.Entities.World", "Unity.Entities");
			TypeMirror manager = Sdb.FindType (vm, "Unity.Entities.EntityManager", "Unity.Entities");
			TypeMirror entity = Sdb.FindType (vm, "Unity.Entities.Entity", "Unity.Entities");
			TypeMirror transform = Sdb.FindType (vm, "Unity.Transforms.LocalTransform", "Unity.Transforms");
			MethodMirror getWorld = world.GetProperty ("DefaultGameObjectInjectionWorld").GetGetMethod ();
			MethodMirror getManager = world.GetProperty ("EntityManager").GetGetMethod ();
			MethodMirror getData = null;
			foreach (MethodMirror m in manager.GetMethods ())
				if (m.Name == "GetComponentData" && m.GetParameters ().Length == 1 && m.GetParameters () [0].ParameterType == entity)
					getData = m.MakeGenericMethod (new[] { transform });
			if (getData == null)
				throw new BenchException ("EntityManager.GetComponentData<T>(Entity) not found");
			StructMirror theEntity = null;
			Func<string> ecsRead = () => {
				var w = (ObjectMirror)Parked (() => world.InvokeMethod (main, getWorld, new Value[0], InvokeOptions.DisableBreakpoints));
				var em = (StructMirror)w.InvokeMethod (main, getManager, new Value[0], InvokeOptions.DisableBreakpoints);
				if (theEntity == null) {
					theEntity = (StructMirror)entity.InvokeMethod (main, entity.GetProperty ("Null").GetGetMethod (), new Value[0], InvokeOptions.DisableBreakpoints);
					theEntity ["Index"] = vm.CreateValue (12);
					theEntity ["Version"] = vm.CreateValue (1);
				}
				var t = (StructMirror)em.InvokeMethod (main, getData, new Value[] { theEntity }, InvokeOptions.DisableBreakpoints);
				return t ["Position"].ToString ();
			};

			// a check of each op, which also compiles the game's methods on first use; first, run
			// Game.Shop's static constructor (reading a static does not; a static call does)
			MethodMirror touch = Sdb.FindStaticMethod (shop, "Touch", 0);
			WhileSuspended (s, () => Parked (() => shop.InvokeMethod (main, touch, new Value[0], InvokeOptions.DisableBreakpoints)));
			WhileSuspended (s, () => {
				if (fieldChain () != 3)
					throw new BenchException ("Game.Probe.SChain.Next.Next.Value is not 3");
				if (propertyChain () != 4)
					throw new BenchException ("Game.Shop.Featured.Name.Length is not 4");
				ecsRead ();
			});
			// each op timed alone, after a pause that lets the game run a frame or so: an agent's
			// calls find the main thread anywhere in its frame, not still parked from the last one
			Func<Action, double> perOpMs = op => {
				for (int i = 0; i < Measure.HeavyWarmup; i++)
					WhileSuspended (s, op);
				var samples = new double[n];
				for (int i = 0; i < n; i++) {
					Thread.Sleep (EvalGapMs);
					var sw = Stopwatch.StartNew ();
					WhileSuspended (s, op);
					samples [i] = sw.Elapsed.TotalMilliseconds;
				}
				return Median (samples);
			};
			r.Num ("field_chain_ms", perOpMs (() => fieldChain ()));
			r.Num ("property_chain_ms", perOpMs (() => propertyChain ()));
			r.Num ("ecs_read_ms", perOpMs (() => ecsRead ()));
			r.Num ("iterations", n);
			SequenceRows (s, r);
		}

		// ---- eval, sequences: the issue-17 programs over Game.Crowd.People (a List<Citizen> of
		// 10,000), written by hand the way a client of this library reads a list: the list's
		// _items and _size (one OBJECT_REF.GET_VALUES), the element references (one
		// ARRAY_REF.GET_VALUES, the library's bulk read), then each element's Hp
		// (ObjectMirror.GetValue: one OBJECT_REF.GET_VALUES per element, 10,000 round trips).
		//   foreach_sum: int total = 0; foreach (var c in Game.Crowd.People) total += c.Hp; total
		//   linq_sum:    Game.Crowd.People.Where(c => c.Hp > 10).Select(c => c.Hp).Sum()
		// Both ops run in one suspend window, so their freeze is their wall time. Each is slow
		// (~10,000 requests), so it is timed SequenceSamples times after SequenceWarmup untimed
		// ops (the first checks the sum): the counts of bench/eval.ts for our evaluator.
		const int SequenceSamples = 5;
		const int SequenceWarmup = 3;

		static void SequenceRows (Session s, Result r)
		{
			VirtualMachine vm = s.Vm;
			TypeMirror crowd = Sdb.FindType (vm, "Game.Crowd", GameAssembly);
			TypeMirror citizen = Sdb.FindType (vm, "Game.Citizen", GameAssembly);
			FieldInfoMirror people = Sdb.FindStaticField (crowd, "People");
			FieldInfoMirror hp = Sdb.FindInstanceField (citizen, "Hp");
			ObjectMirror list = null;
			FieldInfoMirror[] storage = null;
			WhileSuspended (s, () => {
				list = Sdb.ReadStatic<ObjectMirror> (crowd, people);
				storage = new[] { Sdb.FindInstanceField (list.Type, "_items"), Sdb.FindInstanceField (list.Type, "_size") };
			});
			Func<Func<int, bool>, long> sum = keep => {
				var l = Sdb.ReadStatic<ObjectMirror> (crowd, people);
				Value[] fields = l.GetValues (storage);
				var items = (ArrayMirror)fields [0];
				int size = Sdb.AsInt (fields [1], "Game.Crowd.People._size");
				long total = 0;
				foreach (Value e in items.GetValues (0, size)) {
					int h = Sdb.AsInt (((ObjectMirror)e).GetValue (hp), "Citizen.Hp");
					if (keep (h))
						total += h;
				}
				return total;
			};
			long check = 0;
			WhileSuspended (s, () => check = sum (h => true));
			if (check != 495000)
				throw new BenchException ("the sum of Game.Crowd.People's Hp is " + check + ", not 495000");
			WhileSuspended (s, () => check = sum (h => h > 10));
			if (check != 489500)
				throw new BenchException ("the sum of Game.Crowd.People's Hp over 10 is " + check + ", not 489500");
			Func<Func<int, bool>, double> opMs = keep => {
				for (int i = 1; i < SequenceWarmup; i++) {
					Thread.Sleep (EvalGapMs);
					WhileSuspended (s, () => sum (keep));
				}
				var samples = new double[SequenceSamples];
				for (int i = 0; i < samples.Length; i++) {
					Thread.Sleep (EvalGapMs);
					var sw = Stopwatch.StartNew ();
					WhileSuspended (s, () => sum (keep));
					samples [i] = sw.Elapsed.TotalMilliseconds;
				}
				return Median (samples);
			};
			r.Num ("foreach_sum_ms", opMs (h => true));
			r.Num ("linq_sum_ms", opMs (h => h > 10));
		}

		const int EvalGapMs = 20;

		// ---- mcp: the static field read an agent's `eval Game.Probe.SInt` makes, by hand ------
		//
		// One op = VM.SUSPEND; TypeMirror.GetValue(Game.Probe.SInt) (one TYPE.GET_VALUES);
		// VM.RESUME: what our evaluator does for that program in its session window. The mirrors
		// are resolved before timing; --warmup untimed ops (default 50); then field_read_ms, in ms
		// per op: the median of n ops (n = iterations clamped to 20-100, as for eval), each timed
		// alone after the eval scenario's 20 ms pause.
		static void McpScenario (Session s, Result r)
		{
			VirtualMachine vm = s.Vm;
			int n = Math.Max (20, Math.Min (s.Options.Iterations, 100));
			TypeMirror probe = Sdb.FindType (vm, "Game.Probe", GameAssembly);
			FieldInfoMirror sInt = Sdb.FindStaticField (probe, "SInt");
			int value = 0;
			Action read = () => {
				value = Sdb.AsInt (probe.GetValue (sInt), "Game.Probe.SInt");
			};
			WhileSuspended (s, read);
			if (value != -123456789)
				throw new BenchException ("Game.Probe.SInt is " + value + ", not -123456789");
			for (int i = 0; i < Measure.Warmup; i++)
				WhileSuspended (s, read);
			var samples = new double[n];
			for (int i = 0; i < n; i++) {
				Thread.Sleep (EvalGapMs);
				var sw = Stopwatch.StartNew ();
				WhileSuspended (s, read);
				samples [i] = sw.Elapsed.TotalMilliseconds;
			}
			r.Num ("field_read_ms", Median (samples));
			r.Num ("iterations", n);
		}

		// Retries an invoke while the agent answers NOT_SUSPENDED (the thread has not parked yet).
		static Value Parked (Func<Value> invoke)
		{
			var sw = Stopwatch.StartNew ();
			while (true) {
				try {
					return invoke ();
				} catch (VMNotSuspendedException) {
					if (sw.ElapsedMilliseconds > InvokeParkBoundMs)
						throw new BenchException ("the main thread did not park within " + InvokeParkBoundMs + " ms");
					Thread.Sleep (1);
				}
			}
		}

		// ---- session: how long typical debugger work freezes the game's main thread ----------
		//
		// Read from the fixture's frame-pacing recorder FixtureEngine.Hitch (plain static fields,
		// read and written without suspending the VM): MaxLateMs is the longest delay of a frame
		// start past its schedule since the last reset, Frames counts frame starts, and writing
		// ResetRequested = 1 makes the main loop zero the maxima at its next frame start (that
		// frame's own sample, which spans the reset, is not recorded) and write 0 back.
		//
		// PROTOCOL (our TypeScript client follows exactly the same one). For each operation X, in
		// the row order idle, field_read, one_invoke, ten_invokes, repeat N times (--iterations,
		// default 30):
		//   1. write Hitch.ResetRequested = 1 (TypeMirror.SetValue: one TYPE.SET_VALUES); poll
		//      [ResetRequested, Frames] together (one TYPE.GET_VALUES of both fields) every 2 ms
		//      until ResetRequested reads 0, keeping the Frames of that same reply as F0; then poll
		//      Frames every 2 ms until Frames >= F0 + 2 (the discarded sample is behind us);
		//   2. perform X;
		//   3. read Frames once right after X returned (F1), then poll every 2 ms until
		//      Frames >= F1 + 2 (the frame X delayed has started and been recorded);
		//   4. read MaxLateMs: one sample, in ms.
		// Each poll is one request; the first poll is immediate, then Thread.Sleep(2) between
		// polls. Steps 1 and 3 never suspend the VM. Every wait is bounded (HitchWaitBoundMs for
		// each of the waits in steps 1 and 3, InvokeParkBoundMs for parking) and fails with a
		// message naming what it waited for.
		//   X(idle)        = nothing;
		//   X(field_read)  = VM.SUSPEND; one TypeMirror.GetValue(Game.Probe.SInt); VM.RESUME;
		//   X(one_invoke)  = VM.SUSPEND; invoke Game.Probe.Add(1, 2) on the main thread with
		//                    InvokeOptions.DisableBreakpoints, retrying every 1 ms (Thread.Sleep(1))
		//                    while the agent answers NOT_SUSPENDED, until the thread has parked and
		//                    the invoke ran; VM.RESUME;
		//   X(ten_invokes) = VM.SUSPEND; park exactly as one_invoke (that Add invoke is the first
		//                    of the ten); then 9 more invokes of Add(1, 2) on the main thread
		//                    (DisableBreakpoints), i.e. 10 invokes in all; VM.RESUME.
		// Between steps 1 and 2 both clients sleep a pseudo-random 0-16 ms, the same sequence on
		// both sides (per row: state = 1; state = (state * 1103515245 + 12345) & 0x7fffffff;
		// delay = state % 17), so X lands anywhere in the frame, as real calls do (without it, X
		// always starts just after a frame start, where the frame's slack hides it).
		// Every invoke's result is checked to be 3. VM.RESUME is sent on every path after a
		// successful VM.SUSPEND (try/finally), so each X leaves the suspend count as it found it.
		// Per row: the median of the N samples (even N: the mean of the middle two), their mean
		// and their max, in ms. Setup before the rows, not sampled: find Hitch, Probe and the
		// main thread, then one check of everything X uses (read SInt, suspend, park with Add,
		// check it returns 3, resume), which also compiles Add in the debuggee and warms the
		// client, so no row pays a first-call cost.
		//
		// Caveat (measured on the fixture, 2 cores): step 1 ends when a poll sees the new frame,
		// i.e. 0-2.5 ms after a frame start, so X starts while the main thread is still doing
		// that frame's 3-5 ms of managed work. VM.SUSPEND then parks it at once (one invoke
		// attempt) and a short X only stretches that frame's work into the slack before the next
		// deadline: no lateness. A sample shows X only when work + X overrun the 16.7 ms period,
		// or when the work had already ended and parking waited in the native sleep until the
		// deadline (then park-to-resume is all lateness). So samples are bimodal and the invoke
		// rows' medians move between runs; compare the two clients within the same run. The
		// baseline (idle) is the max lateness of ~4-5 frame starts (Thread.Sleep rounds the
		// remaining time up to whole ms), about 1 ms.
		const int SessionDefaultIterations = 30;
		const int HitchPollMs = 2;
		const int HitchWaitBoundMs = 3000;
		const int TenInvokes = 10;

		sealed class HitchRecorder
		{
			readonly TypeMirror type;
			readonly FieldInfoMirror maxLate;
			readonly FieldInfoMirror frames;
			readonly FieldInfoMirror resetRequested;
			readonly FieldInfoMirror[] resetAndFrames;
			readonly Value one;

			public HitchRecorder (VirtualMachine vm)
			{
				type = Sdb.FindType (vm, "FixtureEngine.Hitch", "FixtureEngine");
				maxLate = Sdb.FindStaticField (type, "MaxLateMs");
				frames = Sdb.FindStaticField (type, "Frames");
				resetRequested = Sdb.FindStaticField (type, "ResetRequested");
				resetAndFrames = new FieldInfoMirror[] { resetRequested, frames };
				one = vm.CreateValue (1);
				// Type checks up front, so a changed fixture fails here and not mid-row.
				MaxLateMs ();
				Frames ();
				AsInt32 (type.GetValue (resetRequested), "Hitch.ResetRequested");
			}

			public double MaxLateMs ()
			{
				var p = type.GetValue (maxLate) as PrimitiveValue;
				if (p == null || !(p.Value is double))
					throw new BenchException ("FixtureEngine.Hitch.MaxLateMs: expected a double");
				return (double)p.Value;
			}

			public long Frames ()
			{
				return AsInt64 (type.GetValue (frames), "Hitch.Frames");
			}

			// Step 1. Returns the milliseconds it took.
			public double ResetAndSettle ()
			{
				var sw = Stopwatch.StartNew ();
				type.SetValue (resetRequested, one);
				long f0;
				while (true) {
					Value[] v = type.GetValues (resetAndFrames);
					if (AsInt32 (v [0], "Hitch.ResetRequested") == 0) {
						f0 = AsInt64 (v [1], "Hitch.Frames");
						break;
					}
					if (sw.ElapsedMilliseconds > HitchWaitBoundMs)
						throw new BenchException ("FixtureEngine.Hitch.ResetRequested still reads 1 " + HitchWaitBoundMs + " ms after writing it: the game's main loop is not starting frames (suspended by someone else, or wedged)");
					Thread.Sleep (HitchPollMs);
				}
				WaitFrames (f0 + 2, "after the reset");
				return sw.Elapsed.TotalMilliseconds;
			}

			// Polls Frames (first read immediate, then every HitchPollMs) until it reaches target;
			// `what` completes "<bound> ms ..." in the error.
			public void WaitFrames (long target, string what)
			{
				var sw = Stopwatch.StartNew ();
				while (true) {
					long f = Frames ();
					if (f >= target)
						return;
					if (sw.ElapsedMilliseconds > HitchWaitBoundMs)
						throw new BenchException ("FixtureEngine.Hitch.Frames reads " + f + ", not yet " + target + ", " + HitchWaitBoundMs + " ms " + what + ": the game's main loop is not starting frames (suspended by someone else, or wedged)");
					Thread.Sleep (HitchPollMs);
				}
			}

			static int AsInt32 (Value v, string what)
			{
				var p = v as PrimitiveValue;
				if (p == null || !(p.Value is int))
					throw new BenchException ("FixtureEngine." + what + ": expected an int");
				return (int)p.Value;
			}

			static long AsInt64 (Value v, string what)
			{
				var p = v as PrimitiveValue;
				if (p == null || !(p.Value is long))
					throw new BenchException ("FixtureEngine." + what + ": expected a long");
				return (long)p.Value;
			}
		}

		// VM.SUSPEND, body, VM.RESUME, the resume on every path. A resume that fails after the
		// body failed is reported on stderr and the body's exception is the one that propagates.
		static void WhileSuspended (Session s, Action body)
		{
			s.Suspend ();
			bool ok = false;
			try {
				body ();
				ok = true;
			} finally {
				if (ok) {
					s.Resume ();
				} else {
					try {
						s.Resume ();
					} catch (Exception ex) {
						Console.Error.WriteLine ("RefBench: resume after a failed step: " + ex.GetType ().Name + ": " + ex.Message);
					}
				}
			}
		}

		static double Median (double[] xs)
		{
			var sorted = (double[])xs.Clone ();
			Array.Sort (sorted);
			int mid = sorted.Length / 2;
			return sorted.Length % 2 == 1 ? sorted [mid] : (sorted [mid - 1] + sorted [mid]) / 2;
		}

		static string Ms (double ms)
		{
			return ms.ToString ("0.###", CultureInfo.InvariantCulture);
		}

		// Runs one row of the protocol above and reports <row>_freeze_ms (median),
		// <row>_freeze_mean_ms and <row>_freeze_max_ms. Adds how long X itself took on the
		// client (mean and max, ms), the step-1 wait and the sample range to `diag`.
		static void FreezeRow (Result r, HitchRecorder hitch, string row, int n, Action op, List<string> diag)
		{
			var samples = new double[n];
			double opSum = 0, opMax = 0, settleSum = 0;
			long state = 1;
			for (int i = 0; i < n; i++) {
				settleSum += hitch.ResetAndSettle ();
				state = (state * 1103515245 + 12345) & 0x7fffffff;
				Thread.Sleep ((int)(state % 17));
				var sw = Stopwatch.StartNew ();
				op ();
				double opMs = sw.Elapsed.TotalMilliseconds;
				long f1 = hitch.Frames ();
				hitch.WaitFrames (f1 + 2, "after X of row " + row + " finished");
				samples [i] = hitch.MaxLateMs ();
				opSum += opMs;
				opMax = Math.Max (opMax, opMs);
			}
			double sum = 0, max = double.NegativeInfinity, min = double.PositiveInfinity;
			foreach (double x in samples) {
				sum += x;
				max = Math.Max (max, x);
				min = Math.Min (min, x);
			}
			r.Num (row + "_freeze_ms", Median (samples));
			r.Num (row + "_freeze_mean_ms", sum / n);
			r.Num (row + "_freeze_max_ms", max);
			diag.Add (row + ": min " + Ms (min) + " ms, X took mean " + Ms (opSum / n) + " max " + Ms (opMax) + " ms, step 1 took mean " + Ms (settleSum / n) + " ms");
		}

		static void SessionScenario (Session s, Result r)
		{
			VirtualMachine vm = s.Vm;
			int n = s.Options.IterationsGiven ? s.Options.Iterations : SessionDefaultIterations;
			var hitch = new HitchRecorder (vm);
			TypeMirror probe = Sdb.FindType (vm, "Game.Probe", GameAssembly);
			FieldInfoMirror sInt = Sdb.FindStaticField (probe, "SInt");
			MethodMirror add = Sdb.FindStaticMethod (probe, "Add", 2);
			ThreadMirror main = s.MainThread ();
			var addArgs = new Value[] { vm.CreateValue (1), vm.CreateValue (2) };

			double parkMs = 0;
			int parkAttempts = 0;
			Action park = () => {
				Value v = Sdb.InvokeWhenParked (main, probe, add, addArgs, InvokeOptions.DisableBreakpoints, InvokeParkBoundMs, out parkMs, out parkAttempts);
				CheckThree (v);
			};

			// Setup check (not sampled): everything X uses, once.
			Sdb.AsInt (probe.GetValue (sInt), "Game.Probe.SInt");
			WhileSuspended (s, park);

			var diag = new List<string> ();
			FreezeRow (r, hitch, "idle", n, () => { }, diag);
			FreezeRow (r, hitch, "field_read", n, () => WhileSuspended (s, () => {
				probe.GetValue (sInt);
			}), diag);

			double parkSum = 0, parkMax = 0;
			long attemptSum = 0;
			Action parkAndCount = () => {
				park ();
				parkSum += parkMs;
				parkMax = Math.Max (parkMax, parkMs);
				attemptSum += parkAttempts;
			};
			FreezeRow (r, hitch, "one_invoke", n, () => WhileSuspended (s, parkAndCount), diag);
			FreezeRow (r, hitch, "ten_invokes", n, () => WhileSuspended (s, () => {
				parkAndCount ();
				for (int i = 1; i < TenInvokes; i++)
					CheckThree (probe.InvokeMethod (main, add, addArgs, InvokeOptions.DisableBreakpoints));
			}), diag);

			r.Num ("iterations", n);
			r.Str ("main_thread_source", s.MainThreadSource);
			diag.Add ("parking (invoke rows): mean " + Ms (parkSum / (2 * n)) + " ms, max " + Ms (parkMax) + " ms, mean attempts " + Ms (attemptSum / (2.0 * n)));
			r.Str ("diagnostics", string.Join ("; ", diag.ToArray ()));
		}

		// The "debug" scenario, the same reads as unity/debug does (bench/debug.ts): a breakpoint on
		// the first line of Game.DebugTargets.DeepLeaf, which the fixture calls 20+ frames deep
		// every frame. Per hit: from the event set's arrival to the stopped thread's location
		// (frames, top location), as debug_wait reports it; then debug_pause_state's reads for 20
		// frames (frames, locations, parameters, live locals and `this` of each, values as text);
		// then resume. Rows are medians in ms.
		static void DebugScenario (Session s, Result r)
		{
			VirtualMachine vm = s.Vm;
			int n = s.Options.IterationsGiven ? s.Options.Iterations : 30;
			TypeMirror targets = Sdb.FindType (vm, "Game.DebugTargets", GameAssembly);
			MethodMirror leaf = null;
			foreach (MethodMirror m in targets.GetMethods ())
				if (m.Name == "DeepLeaf")
					leaf = m;
			if (leaf == null)
				throw new BenchException ("Game.DebugTargets.DeepLeaf not found");
			BreakpointEventRequest req = vm.CreateBreakpointRequest (leaf.Locations [0]);
			req.Enable ();
			var hit = new List<double> ();
			var state = new List<double> ();
			int frameCount = 0, valueCount = 0;
			try {
				for (int i = 0; i < n; i++) {
					EventSet es = vm.GetNextEventSet (5000);
					if (es == null)
						throw new BenchException ("no breakpoint event within 5 s");
					var sw = Stopwatch.StartNew ();
					if (es.SuspendPolicy != SuspendPolicy.None)
						s.TookEventSuspend ();
					ThreadMirror t = es.Events [0].Thread;
					StackFrame[] top = t.GetFrames ();
					Location at = top [0].Location;
					if (at.LineNumber <= 0)
						throw new BenchException ("no line at the breakpoint");
					hit.Add (sw.Elapsed.TotalMilliseconds);

					sw = Stopwatch.StartNew ();
					StackFrame[] frames = t.GetFrames ();
					int shown = Math.Min (20, frames.Length);
					var text = new StringBuilder ();
					valueCount = 0;
					for (int f = 0; f < shown; f++) {
						StackFrame fr = frames [f];
						text.Append (fr.Method.DeclaringType.FullName).Append ('.').Append (fr.Method.Name)
							.Append (':').Append (fr.Location.LineNumber).Append ('\n');
						if (fr.IsNativeTransition)
							continue;
						// the parameters and the locals live at this offset in one request
						// (StackFrame.GetValues: one STACK_FRAME.GET_VALUES, parameters by their
						// negative positions), as ours batches them
						// (GetVisibleVariables gives the live locals only; GetLocals lists the
						// parameters too, IsArg)
						var wanted = new List<LocalVariable> ();
						foreach (LocalVariable l in fr.Method.GetLocals ())
							if (l.IsArg)
								wanted.Add (l);
						foreach (LocalVariable l in fr.GetVisibleVariables ())
							if (!l.IsArg)
								wanted.Add (l);
						LocalVariable[] visible = wanted.ToArray ();
						Value[] vals = visible.Length > 0 ? fr.GetValues (visible) : new Value[0];
						for (int v = 0; v < vals.Length; v++) {
							text.Append ("  ").Append (visible [v].Name).Append (" = ").Append (Describe (vals [v])).Append ('\n');
							valueCount++;
						}
						if (!fr.Method.IsStatic) {
							text.Append ("  this = ").Append (Describe (fr.GetThis ())).Append ('\n');
							valueCount++;
						}
					}
					frameCount = shown;
					state.Add (sw.Elapsed.TotalMilliseconds);
					if (text.Length == 0)
						throw new BenchException ("empty pause state");
					s.Resume ();
				}
			} finally {
				req.Disable ();
			}
			r.Num ("hit_to_wait_ms", Median (hit.ToArray ()));
			r.Num ("pause_state_20_frames_ms", Median (state.ToArray ()));
			r.Num ("frames_read", frameCount);
			r.Num ("values_read", valueCount);
			r.Num ("iterations", n);
		}

		// The "observe" scenario, the reference for a logpoint hit (bench/observe.ts): a breakpoint
		// on the first line of Game.ObserveTargets.Frame (every frame); per hit what the logpoint
		// "frame={frame} wave={Wave}" does by hand: the stopped thread's top frame, its parameter
		// `frame`, the static Wave, the message as text, then resume. Row: the median stop, from
		// the event set's arrival to the resume's reply.
		static void ObserveScenario (Session s, Result r)
		{
			VirtualMachine vm = s.Vm;
			int n = s.Options.IterationsGiven ? s.Options.Iterations : 60;
			TypeMirror targets = Sdb.FindType (vm, "Game.ObserveTargets", GameAssembly);
			MethodMirror frameMethod = null;
			foreach (MethodMirror m in targets.GetMethods ())
				if (m.Name == "Frame")
					frameMethod = m;
			if (frameMethod == null)
				throw new BenchException ("Game.ObserveTargets.Frame not found");
			FieldInfoMirror wave = Sdb.FindStaticField (targets, "Wave");
			BreakpointEventRequest req = vm.CreateBreakpointRequest (frameMethod.Locations [0]);
			req.Enable ();
			var stop = new List<double> ();
			string last = null;
			try {
				for (int i = 0; i < n; i++) {
					EventSet es = vm.GetNextEventSet (5000);
					if (es == null)
						throw new BenchException ("no breakpoint event within 5 s");
					var sw = Stopwatch.StartNew ();
					if (es.SuspendPolicy != SuspendPolicy.None)
						s.TookEventSuspend ();
					ThreadMirror t = es.Events [0].Thread;
					StackFrame top = t.GetFrames () [0];
					var wanted = new List<LocalVariable> ();
					foreach (LocalVariable l in top.Method.GetLocals ())
						if (l.IsArg && l.Name == "frame")
							wanted.Add (l);
					if (wanted.Count != 1)
						throw new BenchException ("Frame has no parameter 'frame'");
					Value[] vals = top.GetValues (wanted.ToArray ());
					Value w = targets.GetValue (wave);
					last = "frame=" + Describe (vals [0]) + " wave=" + Describe (w);
					s.Resume ();
					stop.Add (sw.Elapsed.TotalMilliseconds);
				}
			} finally {
				req.Disable ();
			}
			if (last == null || !last.StartsWith ("frame="))
				throw new BenchException ("no message built");
			r.Num ("logpoint_stop_ms", Median (stop.ToArray ()));
			r.Num ("iterations", n);
			r.Str ("last_message", last);
		}

		static string Describe (Value v)
		{
			var p = v as PrimitiveValue;
			if (p != null)
				return p.Value == null ? "null" : Convert.ToString (p.Value, CultureInfo.InvariantCulture);
			var str = v as StringMirror;
			if (str != null)
				return "\"" + str.Value + "\"";
			var o = v as ObjectMirror;
			if (o != null)
				return o.Type.FullName;
			var st = v as StructMirror;
			if (st != null)
				return st.Type.FullName;
			return v == null ? "null" : v.GetType ().Name;
		}

		static void CheckThree (Value v)
		{
			int three = Sdb.AsInt (v, "Game.Probe.Add(1, 2)");
			if (three != 3)
				throw new BenchException ("Game.Probe.Add(1, 2) returned " + three);
		}

		static long SumInts (IList<Value> values)
		{
			long sum = 0;
			for (int i = 0; i < values.Count; i++)
				sum += (int)((PrimitiveValue)values [i]).Value;
			return sum;
		}
	}

	static class Program
	{
		static Session current;

		public static int Main (string[] args)
		{
			// Keep stdout for the RESULT line: the library writes receiver-thread exceptions to
			// Console.Out, so route Console.Out to stderr.
			TextWriter resultOut = Console.Out;
			Console.SetOut (Console.Error);

			Options o;
			try {
				o = Options.Parse (args);
				if (!Scenarios.All.ContainsKey (o.Scenario))
					throw new UsageException ("unknown scenario '" + o.Scenario + "' (known: " + string.Join (", ", new List<string> (Scenarios.All.Keys).ToArray ()) + ")");
			} catch (UsageException ex) {
				Console.Error.WriteLine ("RefBench: " + ex.Message);
				Console.Error.WriteLine ("usage: mono RefBench.exe --port N --scenario NAME [--iterations N] [--burst-iterations N] [--timeout-ms N] [--warmup N]");
				return 2;
			}

			Measure.Warmup = o.Warmup;
			StartWatchdog (o.TimeoutMs);

			var r = new Result ();
			r.Str ("scenario", o.Scenario);
			Session s = null;
			try {
				s = Session.Attach (o);
				Volatile.Write (ref current, s);
				VersionInfo ver = s.Vm.Version;
				r.Str ("protocol_version", ver.MajorVersion + "." + ver.MinorVersion);
				r.Str ("vm_version", ver.VMVersion);
				r.Str ("client", "Mono.Debugger.Soft " + typeof (VirtualMachine).Assembly.GetName ().Version);
				Scenarios.All [o.Scenario] (s, r);
				s.Cleanup ();
			} catch (Exception ex) {
				Console.Error.WriteLine ("RefBench: scenario '" + o.Scenario + "' failed: " + ex);
				if (s != null) {
					try {
						s.Cleanup ();
					} catch (Exception cex) {
						Console.Error.WriteLine ("RefBench: " + cex.Message);
					}
				}
				return 1;
			}
			resultOut.WriteLine ("RESULT " + r.ToJson ());
			resultOut.Flush ();
			return 0;
		}

		[DllImport ("libc", EntryPoint = "_exit")]
		static extern void _exit (int status);

		// Exits the process if the run takes longer than timeoutMs, after a best-effort cleanup
		// (resume what we suspended, detach) bounded to 3 s on its own thread.
		static void StartWatchdog (int timeoutMs)
		{
			var t = new Thread (() => {
				Thread.Sleep (timeoutMs);
				Console.Error.WriteLine ("RefBench: watchdog: no result after " + timeoutMs + " ms, exiting");
				Session s = Volatile.Read (ref current);
				if (s != null) {
					var c = new Thread (() => {
						try {
							s.Cleanup ();
						} catch (Exception ex) {
							Console.Error.WriteLine ("RefBench: watchdog cleanup: " + ex.Message);
						}
					});
					c.IsBackground = true;
					c.Start ();
					c.Join (3000);
				}
				Console.Error.Flush ();
				// Environment.Exit takes about a second when the main thread is blocked in a socket
				// read (runtime shutdown waits for it); _exit ends the process at once.
				try {
					_exit (124);
				} catch (Exception) {
					Environment.Exit (124);
				}
			});
			t.IsBackground = true;
			t.Name = "RefBench watchdog";
			t.Start ();
		}
	}
}
