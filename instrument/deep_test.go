package instrument_test

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/deepjs"
)

// TestDeepNesting: the scope analysis, the rewriter and the position map
// take every form of nesting as deep as V8 accepts it with memtrace
// node's stack (deepjs), and chains of binary operators of any length in
// a loop: 200,000 operators (100,000 of every kind, with operands that
// hooks wrap) instrument within an 8 MiB stack (a recursion over the
// chain needs tens of MB: it would be a fatal stack overflow). Past the
// parser's limit, the error is the parser's.
func TestDeepNesting(t *testing.T) {
	opts := instrument.Options{Goal: js.CommonJS, File: "deep.js", PosMap: true, AllUses: true, AllPutFields: true}
	for _, f := range deepjs.Forms {
		t.Run(f.Name, func(t *testing.T) {
			n := f.V8x4
			if f.Chain {
				n = 200_000
				defer debug.SetMaxStack(debug.SetMaxStack(8 << 20))
			}
			res, err := instrument.Instrument([]byte(f.Prog(n)), opts)
			require.NoError(t, err)
			assert.NotEmpty(t, res.Code)
		})
	}
	t.Run("every operator", func(t *testing.T) {
		ops := []string{"+", "-", "*", "/", "%", "<<", ">>", ">>>", "&", "|", "^", "==", "!=", "===", "!==",
			"<", ">", "<=", ">=", "in", "instanceof", "&&", "||"}
		operands := []string{"o.p", "f()", "o[k]", "x", "(a ?? b)", "new F()", "o.m(x)"}
		var b strings.Builder
		b.WriteString("var o = {}, k = 'p', x = 1, a, b = 2, F = Object, f = () => o;\nvar r = x")
		for i := 0; i < 100_000; i++ {
			b.WriteString(" " + ops[i%len(ops)] + " " + operands[i%len(operands)])
		}
		b.WriteString(";\n")
		defer debug.SetMaxStack(debug.SetMaxStack(8 << 20))
		for _, o := range []instrument.Options{opts, {Goal: js.CommonJS, File: "deep.js"}} {
			res, err := instrument.Instrument([]byte(b.String()), o)
			require.NoError(t, err)
			assert.Greater(t, len(res.Sites), 50_000)
		}
	})
	_, err := instrument.Instrument([]byte(deepjs.Forms[0].Prog(js.DefaultMaxDepth+1)), opts)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "deep.js:1:50010: error: nesting too deep (more than 50000 levels)")
}
