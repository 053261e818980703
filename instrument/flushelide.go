package instrument

import js "github.com/memtrace/memtrace/instrument/js"

// Statement ends that need no X (docs/instrumentation.md §4, X).
//
// X fills the shim's pending-flush slot when it is empty; only the writing
// of an entry empties it (the pending flush is written first). So after
// any X the slot is full until the next entry, and an X reached with the
// slot full does nothing. A statement whose evaluation can write no entry
// and run none of the program's code (pure) leaves the slot as it was:
// reached with the slot certainly full, it needs no X, and its site is
// not allocated. The rewriter follows the slot's state through
// straight-line code: a statement list, the branches of an if, a loop's
// body after its test's X, and the breaks and continues that complete a
// statement (Jumps, below). Anything it does not follow (a loop's back
// edge without a test, a switch's cases, a try, a function's entry)
// counts as empty. Numeric code compiled from C is mostly such
// statements between the heap accesses that end with an X.

// elideFlushes reports that statement ends may be left without X here:
// not with the test switch KeepFlushes (testswitch.Switches), not in
// generators and async functions (their suspensions are rewritten), not
// in with bodies.
func (r *rewriter) elideFlushes() bool {
	return !r.opts.KeepFlushes && (r.fn == nil || !r.fn.susp) && r.inWith == 0
}

// pure reports that evaluating e writes no entry and runs none of the
// program's code, and so needs no hook: literals, names that can only hold
// primitives (scope.Binding.Primitive), and operators over them
// (arithmetic, bitwise, comparison, logical, conditional, comma, typeof,
// void), assignments and updates of such names. An operation on
// primitives calls no valueOf, getter or proxy trap; one that throws (a
// name in its TDZ, a BigInt mixed with a Number) reaches no X either.
func (r *rewriter) pure(e js.Expr) bool {
	if !r.elideFlushes() {
		return false
	}
	return r.pureExpr(e)
}

func (r *rewriter) pureExpr(e js.Expr) bool {
	switch e := e.(type) {
	case *js.NullLit, *js.BoolLit, *js.NumLit, *js.BigIntLit, *js.StringLit, *js.This:
		return true
	case *js.Template:
		return len(e.Exprs) == 0
	case *js.Ident:
		return r.primitiveRef(e)
	case *js.Paren:
		return r.pureExpr(e.X)
	case *js.Unary:
		switch e.Op {
		case "-", "+", "!", "~", "typeof", "void":
			return r.pureExpr(e.X)
		}
		return false
	case *js.Update:
		id, ok := unparen(e.X).(*js.Ident)
		return ok && r.primitiveRef(id)
	case *js.Binary:
		// The left operands of a chain in a loop (a chain is as deep as
		// it is long).
		for {
			if e.Op == "in" || e.Op == "instanceof" || !r.pureExpr(e.Y) {
				return false
			}
			x, ok := e.X.(*js.Binary)
			if !ok {
				return r.pureExpr(e.X)
			}
			e = x
		}
	case *js.Assign:
		id, ok := e.Target.(*js.Ident)
		return ok && r.primitiveRef(id) && r.pureExpr(e.Value)
	case *js.Cond:
		return r.pureExpr(e.Test) && r.pureExpr(e.Yes) && r.pureExpr(e.No)
	case *js.Seq:
		for _, x := range e.List {
			if !r.pureExpr(x) {
				return false
			}
		}
		return true
	}
	return false
}

// endsFull reports whether the slot is certainly full after the
// statement-level expression e has been instrumented (discarded, flushed
// or tested), e having been reached with the slot in state full: a
// non-trivial expression ends with its X; a trivial one has none and
// leaves the slot as it was if it is pure.
func (r *rewriter) endsFull(e js.Expr, full bool) bool {
	if !r.elideFlushes() {
		return false
	}
	if !trivial(e) {
		return true
	}
	return full && r.pureExpr(e)
}

// testFlow instruments the test of an if reached with the slot in state
// full, and reports the slot's state after it (where the branches start).
func (r *rewriter) testFlow(e js.Expr, sp js.Span, full bool) bool {
	if full && r.pure(e) {
		return true // no X
	}
	r.tested(e, sp)
	return r.endsFull(e, full)
}

// testEndsFull reports that a loop's test (nil: none) ends with its X, so
// that the slot is full after it, every time it runs: the body starts
// there (while, for) or comes back there (do). Not in a loop with an
// iteration scope, whose H.Ie at each iteration's start writes entries.
func (r *rewriter) testEndsFull(test js.Expr, it *iterLoop) bool {
	return test != nil && !trivial(test) && it == nil && r.elideFlushes()
}

// falsy reports that a do-while's test is a literal that is false: its
// body runs once (the form compilers emit to have a block to break out
// of).
func falsy(e js.Expr) bool {
	switch e := unparen(e).(type) {
	case *js.NumLit:
		return e.Value == 0
	case *js.BoolLit:
		return !e.Value
	case *js.NullLit:
		return true
	}
	return false
}

// Jumps. The slot's state where a statement completes normally is the
// state at its end and at every break (or, for a do-while that runs once,
// continue) that completes it. The rewriter keeps a stack of the
// statements a jump may complete; a jump adds its state to its target's,
// and the target's state after it is the conjunction. A jump that leaves
// a finally block, an iteration scope or a for-of on its way (program
// code or entries run there) adds "empty".

type jumpKind uint8

const (
	jumpNone   jumpKind = iota // not a target: a try with a finally block
	jumpLoop                   // a loop: break and continue
	jumpSwitch                 // a switch: break
	jumpLabel                  // a labelled statement: break and continue with its label
)

type jumpTarget struct {
	kind    jumpKind
	label   string
	barrier bool // a jump that leaves it runs code on the way
	full    bool // the conjunction of the states jumps brought here
}

// pushTarget pushes a loop, switch or barrier; it returns its index for
// popTarget.
func (r *rewriter) pushTarget(k jumpKind, barrier bool) int {
	r.jumps = append(r.jumps, jumpTarget{kind: k, barrier: barrier, full: true})
	return len(r.jumps) - 1
}

func (r *rewriter) pushLabel(name string) int {
	r.jumps = append(r.jumps, jumpTarget{kind: jumpLabel, label: name, full: true})
	return len(r.jumps) - 1
}

// popTarget pops target t (and anything above it) and reports whether
// every jump to it came with the slot certainly full.
func (r *rewriter) popTarget(t int) bool {
	full := r.jumps[t].full
	r.jumps = r.jumps[:t]
	return full
}

// jump records a break (cont false) or continue with label (nil: the
// innermost loop, or for break also switch) reached in state full. A
// continue completes only a do-while that runs once, or the labelled
// statement whose label it names; either way its state counts.
func (r *rewriter) jump(label *js.Ident, cont bool, full bool) {
	crossed := false
	for k := len(r.jumps) - 1; k >= 0; k-- {
		t := &r.jumps[k]
		var hit bool
		switch {
		case label != nil:
			hit = t.kind == jumpLabel && t.label == label.Name
		case cont:
			hit = t.kind == jumpLoop
		default:
			hit = t.kind == jumpLoop || t.kind == jumpSwitch
		}
		if hit {
			t.full = t.full && full && !crossed
			return
		}
		crossed = crossed || t.barrier
	}
}
