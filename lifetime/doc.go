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
// Listener; embed NopListener to receive only some events, and Multi to
// feed several. Unreachable delivers each unreachability report with its
// time, location and the object's allocation site; other events
// (creation, calls, last uses, DOM changes, UPDATE_IID) are forwarded so
// that staleness analyses can be layered on top without a second pass.
//
// # Staleness and allocation-site outputs
//
// Report runs the whole pipeline and writes any of these (ReportOptions):
//
//   - MemInsight's --ref output (RCWriter), as above;
//   - MemInsight's streaming staleness client (StalenessWriter): one
//     JSON line per reported object, written when the trace ends a
//     last-use block, then three binary tables (lastuse-trace,
//     unreachable-trace, updiid-trace; 20, 20 and 12-byte big-endian
//     records) sorted as MemInsight sorts them. With RC.Testing and
//     Staleness, the text output is the *.streamstaleness.expected format;
//   - a second pass over the trace with those tables (MemInsight's
//     enhanced trace), which feeds MemInsight's allocation-site statistics
//     (SiteStats: "leaking site" lines, siteStats.json; with
//     FullSiteStats, the *.allocsitestats.expected format) and the JSON
//     summary per allocation site (Summary; docs/lifetime-json.md), with
//     the retaining paths of each site's objects still reachable at the
//     end (retainers.go), and with Details what memtrace report shows
//     besides (details.go: timelines, calling contexts, last uses,
//     retaining paths at moments through the run, detached DOM nodes);
//   - with Dir, MemInsight's side files in that directory:
//     staleness-trace, lastuse-trace, unreachable-trace, updiid-trace and
//     siteStats.json.
//
// WriteJSONStaleness prints MemInsight's non-streaming staleness client
// (the *.staleness.expected format: function entries and exits, and every
// object grouped by allocation site). Unlike the others it keeps every
// object until the end; it exists for compatibility with MemInsight's
// tests.
//
// Where MemInsight's clients would throw (an UPDATE_IID of an object that
// is not live, a last use of an object the site statistics never saw, an
// execution index too short to compare), the output in question fails with
// an error; the other outputs of the same pass go on. Where it throws on a
// trace that trace check passes, the outputs follow the engine instead: an
// object the engine re-adds after its collection (a later PUTFIELD on it
// or edge to it) is dead for the site statistics from its reported
// unreachability on, and a last use the tables give after that
// unreachability is not counted (SiteStats). MemInsight's
// assertion on an id created twice (testRefCount21 and 23) is not
// reproduced: the later creation replaces the earlier, as MemInsight does
// when run without assertions.
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
// Vertices and edges live in slabs with free lists; edge lists keep
// insertion order with O(1) tombstone removal. Per-object state is split
// in two (objtable.go). The hot part (vertex slot, candidate-set depth,
// cycle-queue position, return mark) lives in pages of 1024 ids that a
// sweep between entries releases when all their objects are dead, or
// compacts into a small map when at most 32 are alive. The persistent
// part, which fidelity needs after an object's death (its allocation
// site, because MemInsight reports a collected object again, with that
// site, if a later edge re-adds it, and the "arguments" and DOM flags), is
// packed per page once the page's objects are dead: a dictionary of the
// page's distinct values and ceil(log2(size)) bits per id. On the
// synthetic traces of `make bench` (64 sites) that is about 1.3 bytes per
// dead object; a page whose ids all come from one site costs a few bytes
// for 1024 ids. The other per-id cost is one map entry per function
// object (its closure context, which a later call may resurrect) and the
// contexts those keep.
//
// Released hot pages and raw persistent-value pages go to free lists
// (up to 128 of each) and are reused by the next allocations, so that
// pages are not zeroed again by the allocator; the sweep clears only the
// few live entries it moves out. A vertex with many out-edges indexes its
// named edges in its own map keyed by name; replacing a named edge's
// target (the common WRITE and PUTFIELD) reuses the edge in place. Flush
// and last-use locations are parsed once per distinct string (a cache
// keyed by the string's data pointer, which the trace reader's interning
// keeps stable), and names likewise map to their ids.
//
// Figures from `make bench` (go run ./bench -only lifetime -runs 3), one
// core, 210 MB synthetic trace: the engine reads about 190-200 MB of trace
// per CPU second (it was 113-125 before the free lists and caches above),
// 165 MB/s with WriteRC's verbose rows; MemInsight's Java engine, measured
// in the same run with MEMINSIGHT_JAR set (java -XX:ActiveProcessorCount=1,
// --ref), reads 12-13.5 MB/s, so the engine is 14.5-16.5 times as fast.
// Its peak RSS is 14-15 MB on a 21 MB synthetic trace and 24-25 MB on a
// 210 MB one (it was 19 and 116 MB with a flat 20-byte table per id);
// the Java engine peaks near 1 GB. The full staleness pipeline (side
// files and summary, two passes, external sorts) runs at about 18-20 MB/s
// and peaks at 47 and 67 MB on the same traces.
//
// The staleness client and the summary are streaming: the client keeps
// state only for live objects and for objects whose record is not written
// yet; written objects go to an external sorter (64K records in memory,
// then sorted runs in temporary files, which lookups binary-search when an
// object is used or reported again after its record was written). The RC
// rows and the JSON staleness output are, by their format, one entry per
// object, kept until the end.
//
// # Fidelity notes
//
// MemInsight's quirks that shape its output are reproduced: double reports
// (the last one wins in the rows), objects re-added by edges after their
// collection, resurrected contexts, writes on the window object resolving
// from the current scope, stamps taken at REMOVE_DOM_CHILD with location
// "unknown", and so on (spec §8.1). The --nodejs module scopes, which crash
// the Java engine, are not implemented.
//
// By default the engine departs from MemInsight where its model is wrong
// and V8 disagrees: the flush of a return statement's argument, which the
// trace writes before RETURN, protects the returned object until the
// function has returned, so that a fresh closure or literal returned by a
// return statement keeps its out-edges (its context, its children).
// MemInsight's goldens (testRefCount5, 42, htmlTest13) encode the reclaim:
// Options.MemInsightReturns (`memtrace lifetime --meminsight-returns`)
// restores it, and the fidelity tests set it.
package lifetime
