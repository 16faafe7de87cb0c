// The oracle's wrapper for whole programs (corpus-programs.txt): a program is the body of a
// lambda, so its value's static type is what C# infers for the lambda's return type (the best
// common type of its returns), as the evaluator infers a program's (docs/eval-contract.md).
using System;

public static class Prog
{
	public static T Run<T> (Func<T> body)
	{
		return body ();
	}

	public static void RunVoid (Action body)
	{
		body ();
	}
}
