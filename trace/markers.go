package trace

// The reserved FREE_VARS names of memtrace's instrumenter: a function
// whose FREE_VARS begin with one of them is a function of a kind the
// instrumenter made or marked, which memtrace's engine (package lifetime)
// models accordingly. None is an identifier, so no program declares it,
// and MemInsight's engine takes each for a name that no scope binds, which
// keeps nothing. They are defined here, with the trace format, for the
// instrumenter (package instrument) that writes them and the engine that
// reads them; the runtime shim writes ResumeMarker literally
// (runtime-shim's tests check that it matches).
const (
	// IterationMarker is the first FREE_VARS name of a synthetic iteration
	// scope (docs/instrumentation.md §7, "Per-iteration bindings"): the
	// instrumenter makes a loop whose per-iteration bindings closures
	// capture a synthetic function, created at the loop (its CREATE_FUN's
	// Fe iid), entered and exited at each iteration (FUNCTION_ENTER and
	// FUNCTION_EXIT of that same iid). The engine models it as any
	// function; the JSON summary leaves those functions, entries and
	// exits out.
	IterationMarker = "~iteration~"

	// ResumeMarker is the first FREE_VARS name of a generator's or async
	// function's resume function (docs/instrumentation.md §7, "The
	// function's own context"): created once in the function's first
	// context, entered at each resumption. Its entries and exits are the
	// frame's own; the JSON summary leaves its function object out, as it
	// does an iteration's.
	ResumeMarker = "~resume~"

	// NoPrototypeMarker is the first FREE_VARS name of a function that has
	// no prototype object: an arrow, a method, a getter or a setter, an
	// async (non-generator) function (docs/instrumentation.md §4, F).
	// Every CREATE_FUN announces id+1 as the function's prototype, and
	// MemInsight's engine makes that object for every function; memtrace's
	// engine makes none for a function marked so (unless
	// lifetime.Options.MemInsightPrototypes), so that a site counts the
	// objects the program made.
	NoPrototypeMarker = "~noproto~"
)
