// Package lifetime is a Go re-implementation of the reference-counting mode
// of MemInsight's Java lifetime-analysis engine (`--ref`). It reads a
// MemInsight memory trace (package trace) and decides, for every object,
// the logical time and source location at which it became unreachable.
// Its output reproduces the Java engine's test output byte for byte; the
// semantics followed are those of shared/spec/lifetime-engine.md.
//
// # Using it
//
// WriteRC prints MemInsight's --ref output (the testRefCountN.expected and
// htmlTestN.expected goldens are this output with RCOptions{Testing: true,
// Verbose: true}):
//
//	err := lifetime.WriteRC(os.Stdout, f, lifetime.Options{},
//		lifetime.RCOptions{Testing: true, Verbose: true})
//
// Analyze (or NewEngine plus Engine.Run) drives the engine with any
// Listener; embed NopListener to receive only some events. Unreachable
// delivers each unreachability report with its time, location and the
// object's allocation site; other events (creation, calls, last uses, DOM
// changes, UPDATE_IID) are forwarded so that staleness analyses can be
// layered on top without a second pass.
//
// Errors: decoding errors of the trace reader are returned wrapped; entries
// the Java engine rejects (it aborts with an assertion or an exception: a
// call of a function that was never created, an unmapped allocation site, a
// duplicate SOURCE_MAPPING, a FUNCTION_EXIT without a call, ...) give a
// *trace.FormatError with the entry's byte offset and index. The engine
// never panics on malformed input.
//
// # The model
//
// The heap is a graph of object vertices (keyed by object id) and context
// vertices (one per function invocation, plus GLOBAL). Edges are named
// (fields, variable bindings, "prototype", a function's "_CONTEXT_" link
// to its creating context, a context's "~PARENT-CONTEXT~" link) or
// child-set members (DOM children, event listener sets). A reference count
// is a vertex's in-degree. There is no root set: live contexts (those on
// the call stack) are never collected, objects waiting in a candidate set
// are not yet decided, and return values are protected during the exit
// flush.
//
// A context is sealed when its function returns: it keeps only the
// variables that closures created in it (or in inner functions) capture,
// as given by the trace's FREE_VARS entries, nearest declaration first;
// the other bindings are released. GLOBAL is sealed at the end of the
// trace.
//
// Unreachability is decided only at flushes (TOP_LEVEL_FLUSH and
// FUNCTION_EXIT entries) and at the end: the top candidate set is
// processed; a node whose count is 0 is reclaimed with everything that
// dies with it, at the flush's time and location. A node whose count is
// still positive, or whose count was decremented to a positive value, is
// stamped (time, location) in the cycle queue. Cycle collections run at
// DEBUG entries, when the queue exceeds Options.CycleQueueLimit, and at the
// end: everything reachable from the live contexts is marked, and every
// unmarked queued node is collected together with what it reaches, latest
// stamp first, so that each garbage object gets the latest stamp among the
// queued nodes that reach it (the Merlin algorithm): the time its last path
// from a root died.
//
// # Performance
//
// Per-object state lives in paged arrays indexed by object id; vertices
// and edges live in slabs with free lists; edge lists keep insertion order
// with O(1) tombstone removal. Memory is proportional to the live heap plus
// 20 bytes per object id ever allocated (the per-id table; the allocation
// site in it must survive, because MemInsight reports a collected object
// again, with that site, if a later edge re-adds it) and one map entry per
// function object (its closure context, which a later call may
// resurrect). BenchmarkEngine measures about 150 MB of trace per CPU second.
//
// # Fidelity notes
//
// MemInsight's quirks that shape its output are reproduced: double reports
// (the last one wins in the rows), objects re-added by edges after their
// collection, resurrected contexts, writes on the window object resolving
// from the current scope, stamps taken at REMOVE_DOM_CHILD with location
// "unknown", and so on (spec §8.1). The --nodejs module scopes, which crash
// the Java engine, are not implemented.
package lifetime
