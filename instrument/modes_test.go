package instrument

import (
	"strings"
	"testing"

	js "github.com/memtrace/memtrace/instrument/js"
)

// TestAllUsesHooks: in all-uses mode the operands whose objects an
// operation reads without another hook go through L (docs §4); the normal
// mode's output has no L, and the prologue passes the modes to the shim.
func TestAllUsesHooks(t *testing.T) {
	tests := []struct{ src, want string }{
		{"f(...a);", "H.c(2, f, ...H.L(1, a))"},
		{"x = [...a];", "H.T(2, [...H.L(1, a)])"},
		{"x = {...a};", "H.Ts(2, {...H.L(1, a)})"},
		{"x = 'k' in o;", "'k' in H.L(1, o)"},
		{"x = o instanceof C;", "H.L(1, o) instanceof H.L(2, C)"},
		{"for (const k in o) ;", "for (const k in H.L(3, o))"},
		{"for (const v of (a, b)) ;", "for (const v of H.L(3, (a, b)))"},
		{"for (k in a, b) ;", "in H.L(3, (a, b)))"},
		{"class A { #x; m(o) { return #x in o; } }", "#x in H.L("},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			for _, mode := range []bool{false, true} {
				res, err := Instrument([]byte(tt.src), Options{Goal: js.Script, File: "t.js", AllUses: mode})
				if err != nil {
					t.Fatal(err)
				}
				out := strings.ReplaceAll(string(res.Code), res.Handle+".", "H.")
				if _, err := js.Parse(res.Code, js.Options{Goal: js.Script}); err != nil {
					t.Fatalf("output does not parse: %v\n%s", err, out)
				}
				if !mode {
					if strings.Contains(out, "H.L(") || strings.Contains(out, "allUses") {
						t.Errorf("normal mode emits L: %s", out)
					}
					continue
				}
				if !strings.Contains(out, tt.want) {
					t.Errorf("got %s\nwant it to contain %s", out, tt.want)
				}
				if !strings.Contains(out, ", {allUses: true}); ") {
					t.Errorf("the prologue does not pass the mode: %s", out)
				}
			}
		})
	}
	res, err := Instrument([]byte("o.p = 1;"), Options{Goal: js.Script, File: "t.js", AllPutFields: true, DebugFun: "jalangiRC"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Code), `, {debugFun: "jalangiRC", allPutFields: true}); `) {
		t.Errorf("the prologue does not pass the modes: %s", res.Code)
	}
}
