package runtimeshim

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/js"
)

// returnedProgram: calls whose result is not the object the last return
// statement returned (a native's result after an instrumented callback
// returned an object; a generator's iterator result after its body
// returned one), which the shim must not take for that object (retObj):
// their results get their allocation sites from the call (spec 2.2a).
const returnedProgram = `'use strict';
const obj = {};
function cb(x) { return obj; }
const holder = {};
holder.a = [1, 2].map(cb);
const g = (function* () { return obj; })();
holder.r = g.next();
console.log(holder.a.length, holder.r.done);
`

// TestReturnedNotTheReturnValue: the objects a native call and a
// generator's next return are created at those calls' sites, though an
// instrumented function returned another object just before.
func TestReturnedNotTheReturnValue(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	prog := filepath.Join(t.TempDir(), "ret.js")
	instrumentFile(t, prog, returnedProgram, instrument.Options{Goal: js.CommonJS, File: "ret.js"})
	got := run(t, node, shim, prog, nil)
	if got.exit != 0 || got.stdout != "2 true\n" {
		t.Fatalf("exit %d, output %q\n%s", got.exit, got.stdout, got.stderr)
	}
	check(t, "ret.js", got.trace)
	var creates []string
	for _, e := range bySource(t, dump(t, got.trace)) {
		if strings.HasPrefix(e, "[1,") {
			creates = append(creates, e)
		}
	}
	// map's result at its call (5:12-5:26), next's at its call (7:12-7:20)
	all := strings.Join(creates, "\n")
	for _, want := range []string{`"@5:12-5:26"`, `"@7:12-7:20"`} {
		if !strings.Contains(all, want) {
			t.Errorf("no object created at %s; CREATE_OBJ entries:\n%s", want, all)
		}
	}
}
