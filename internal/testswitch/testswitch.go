// Package testswitch holds the instrumenter's switches that only tests
// set: each turns off one optimization of the instrumented code, for
// differential tests that the optimization changes nothing in the trace.
// They are not part of instrument.Options, which holds only what users
// set; tests pass them to instrument.InstrumentWith. The package is
// internal to the module, at its root, so that the tests of the runtime
// shim (runtime-shim) can import it too.
package testswitch

// Switches are the instrumenter's test switches; the zero value is what
// instrument.Instrument uses.
type Switches struct {
	// KeepPrimitiveHooks keeps W at writes of names that can only hold
	// primitives, and G at property reads of them (where neither logs
	// anything): for differential tests of that rule.
	KeepPrimitiveHooks bool
	// KeepUses keeps G at property reads that a later use of the same
	// object supersedes (supersede.go): for differential tests of that
	// rule.
	KeepUses bool
	// KeepFlushes keeps X at statement ends reached with the pending-flush
	// slot certainly full, where a statement can write no entry
	// (flushelide.go): for differential tests of that rule.
	KeepFlushes bool
	// CallX calls X at the end of every statement-level expression, also
	// where the pending-flush slot is tested inline first (H.p[0] ||
	// H.X(k), docs/instrumentation.md §4): for differential tests of that
	// form.
	CallX bool
	// NoCopies calls G, P and M instead of their copies (G0…G31, P0…P31,
	// M0…M31): for differential tests of the copies, which must change
	// nothing in the trace.
	NoCopies bool
}
