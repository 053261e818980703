package instrument

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	js "github.com/memtrace/memtrace/instrument/js"
)

// TestPosMapLinear: the position map's work is linear in the file's size
// however often its points go backwards. Element stores in a chain, calls
// of calls and method calls on a chain put a point before the previous
// one (the hook named first stands for the operation that comes last);
// before seekCols every step back walked the original again from its
// start, quadratic in the file (dart-sass, 5.8 MB: 55 s). The measure is
// the bytes walked, as multiples of the file's size, at 2,000 and 8,000
// such statements, on short lines and on a single line (minified code).
func TestPosMapLinear(t *testing.T) {
	stmts := []string{"a[i] = b[j] = 2;", "x = o.a.b.c();", "f(1)(2);", "o.m(p.n(x));", "new A(new B());"}
	for _, sep := range []string{"\n", " "} {
		var ratios []float64
		for _, n := range []int{2000, 8000} {
			var b strings.Builder
			b.WriteString("var o, p, a, b, i, j, x, A, B, f;\n")
			for k := 0; k < n; k++ {
				b.WriteString(stmts[k%len(stmts)])
				b.WriteString(sep)
			}
			src := b.String()
			res, err := Instrument([]byte(src), Options{Goal: js.CommonJS, File: "x.js", PosMap: true})
			require.NoError(t, err)
			d := res.posMap
			require.GreaterOrEqual(t, d.backs, n/2, "the points go backwards often")
			ratio := float64(d.walked) / float64(len(src))
			require.Less(t, ratio, 8.0, "%d statements: %d bytes walked for %d", n, d.walked, len(src))
			t.Logf("%q %d: %.2f", sep, n, ratio)
			ratios = append(ratios, ratio)
		}
		require.InDelta(t, ratios[0], ratios[1], 0.5, "bytes walked per byte of the file")
	}
}
