package runtimeshim

import (
	"strings"
	"testing"
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
	got := runCJS(t, returnedProgram, "ret.js", "2 true\n", nil)
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
