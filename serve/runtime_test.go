package serve

import (
	"path/filepath"
	"testing"
)

// TestRunTimeCodeInPages: a page's eval (direct and indirect), new
// Function and string timer, served by memtrace serve, run instrumented
// through the instrument service (each is a script of the trace, and the
// objects they make are the trace's) with the results, errors and
// Function.prototype.toString texts the page gets untraced; the session
// is complete and its trace passes every rule.
func TestRunTimeCodeInPages(t *testing.T) {
	_, _, data := tracedAlike(t, filepath.Join("testdata", "runtime"), "JSON.stringify(window.results)")
	// The scripts the run-time code made: eval (direct), evalIndirect
	// (indirect eval, the string timer), and new Function's.
	scripts := scriptNames(data)
	if scripts["/runtime.js"] != 1 || len(scripts) < 3 {
		t.Fatalf("the trace's scripts: %v", scripts)
	}
	n := 0
	for name, k := range scripts {
		if name != "/runtime.js" {
			n += k
		}
	}
	if n < 5 {
		t.Fatalf("%d scripts of run-time code in the trace (%v), want 5: two evals, an indirect eval, new Function, a string timer", n, scripts)
	}
}
