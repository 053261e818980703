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
				if !strings.Contains(out, ", {allUses: true}, "+ImportTrampoline+"); ") {
					t.Errorf("the prologue does not pass the mode: %s", out)
				}
			}
		})
	}
	res, err := Instrument([]byte("o.p = 1;"), Options{Goal: js.Script, File: "t.js", AllPutFields: true, DebugFun: "jalangiRC"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Code), `, {debugFun: "jalangiRC", allPutFields: true}, `+ImportTrampoline+`); `) {
		t.Errorf("the prologue does not pass the modes: %s", res.Code)
	}
}

// TestImportInRunTimeCode: a file passes its own import() to the shim (the
// prologue's last argument); eval code's import() calls go through its
// handle (H.im), which resolves against the script that made the code;
// global code (string timers, the vm module's scripts) keeps its own.
func TestImportInRunTimeCode(t *testing.T) {
	src := []byte("import('./a.mjs'); import /* c */ (b, { with: { type: 'json' } }); x.import(1);")
	for _, tc := range []struct {
		name  string
		opts  Options
		im    int // H.im calls
		tramp bool
	}{
		{"file", Options{Goal: js.Script, File: "t.js"}, 0, true},
		{"module", Options{Goal: js.Module, File: "t.mjs"}, 0, true},
		{"commonjs", Options{Goal: js.CommonJS, File: "t.cjs"}, 0, true},
		{"eval", Options{Goal: js.Script, File: "eval", Eval: true}, 2, false},
		{"global code", Options{Goal: js.Script, File: "evalIndirect", Eval: true, GlobalCode: true}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Instrument(src, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			out := string(res.Code)
			if got := strings.Count(out, ".im(") + strings.Count(out, ".im /* c */ ("); got != tc.im {
				t.Errorf("%d H.im calls, want %d: %s", got, tc.im, out)
			}
			if got := strings.Contains(out, ImportTrampoline); got != tc.tramp {
				t.Errorf("trampoline %v, want %v: %s", got, tc.tramp, out)
			}
			again, err := Instrument(res.Code, tc.opts)
			if err != nil || string(again.Code) != out {
				t.Errorf("not idempotent: %v", err)
			}
		})
	}
}
