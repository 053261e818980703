package instrument

import js "github.com/memtrace/memtrace/instrument/js"

// binary instruments a chain of binary operators, a + b + c + ..., without
// recursing down its left operands: V8 accepts a chain of any length, and
// its tree is as deep as the chain is long (a left operand of instanceof,
// a use, ends the descent). Each operand is instrumented as expr's case
// for one operator would, in the same order.
func (r *rewriter) binary(e *js.Binary) {
	var buf [8]*js.Binary
	chain := append(buf[:0], e) // outermost first
	for e.Op != "instanceof" {
		x, ok := e.X.(*js.Binary)
		if !ok {
			break
		}
		chain = append(chain, x)
		e = x
	}
	if e.Op == "instanceof" {
		r.used(e.X, e.Span)
	} else {
		r.expr(e.X)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		switch b := chain[i]; b.Op {
		case "instanceof", "in":
			r.used(b.Y, b.Span)
		default:
			r.expr(b.Y)
		}
	}
}
