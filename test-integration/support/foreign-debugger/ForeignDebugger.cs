// ForeignDebugger: another debugger, for the slot tests. Attaches to a Mono debuggee with the
// reference client (Mono.Debugger.Soft.dll, as an IDE would), prints one line
// `FOREIGN READY pid=<pid>` on stdout, and holds the debugger slot until it reads a line on stdin
// (or stdin ends); then it resumes whatever it was handed suspended, detaches (VM DISPOSE, so the
// agent accepts the next debugger), prints `FOREIGN LEFT` and exits 0.
//
// Build:  mcs -r:/usr/lib/mono/4.5/Mono.Debugger.Soft.dll -out:ForeignDebugger.exe ForeignDebugger.cs
// Run:    mono ForeignDebugger.exe <port>
// Exit codes: 0 left cleanly, 1 failure (message on stderr), 2 bad usage.

using System;
using System.IO;
using System.Net;
using System.Threading;
using Mono.Debugger.Soft;

static class ForeignDebugger
{
	static volatile bool leaving;

	static int Main (string[] args)
	{
		int port;
		if (args.Length != 1 || !int.TryParse (args [0], out port) || port <= 0 || port > 65535) {
			Console.Error.WriteLine ("usage: ForeignDebugger.exe <port>");
			return 2;
		}
		// the client library's receiver thread writes to Console.Out: keep stdout for our lines
		TextWriter stdout = Console.Out;
		Console.SetOut (Console.Error);
		VirtualMachine vm;
		try {
			// blocks until the agent greets us (a busy agent leaves us in its backlog)
			vm = VirtualMachineManager.Connect (new IPEndPoint (IPAddress.Loopback, port));
		} catch (Exception e) {
			Console.Error.WriteLine ("connect failed: " + e);
			return 1;
		}
		// The client asks for thread, assembly and domain events with policy ALL: each such set
		// suspends the game until we resume it, so a pump answers them while we hold the slot.
		var pump = new Thread (() => Pump (vm)) { IsBackground = true, Name = "event pump" };
		pump.Start ();
		stdout.WriteLine ("FOREIGN READY pid=" + System.Diagnostics.Process.GetCurrentProcess ().Id);
		stdout.Flush ();
		Console.In.ReadLine (); // a line, or EOF
		leaving = true;
		pump.Join (2000);
		try {
			vm.Detach ();
		} catch (Exception e) {
			Console.Error.WriteLine ("detach failed: " + e);
			return 1;
		}
		stdout.WriteLine ("FOREIGN LEFT");
		stdout.Flush ();
		return 0;
	}

	static void Pump (VirtualMachine vm)
	{
		while (!leaving) {
			EventSet es;
			try {
				es = vm.GetNextEventSet (100);
			} catch (VMDisconnectedException) {
				return;
			}
			if (es == null || es.SuspendPolicy == SuspendPolicy.None)
				continue;
			try {
				vm.Resume ();
			} catch (VMNotSuspendedException) {
			} catch (VMDisconnectedException) {
				return;
			}
		}
	}
}
