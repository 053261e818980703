package runtimeshim

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestComputedKeys runs testdata/computed_keys.js instrumented: functions
// and classes under computed keys (object literals, static and instance
// class fields) get the names plain node gives them, the keys are converted
// as often as without instrumentation, and every value that is an object
// is logged as a PUTFIELD of its object or class under its key, symbol
// keys under their String().
func TestComputedKeys(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	plain, prog := plainAndInstrumented(t, node, "computed_keys.js")
	if !strings.Contains(string(plain), "[desc] viaToString 2") {
		t.Fatalf("plain node printed %q", plain)
	}
	res := run(t, node, shim, prog, nil)
	if res.stdout != string(plain) {
		t.Fatalf("instrumented output %q, want %q\nstderr: %s", res.stdout, plain, res.stderr)
	}
	check(t, "computed_keys", res.trace)
	logged := map[string]int{}
	for _, line := range strings.Split(dump(t, res.trace), "\n") {
		if !strings.HasPrefix(line, "[3,") {
			continue
		}
		var e []any
		if err := json.Unmarshal([]byte(line), &e); err != nil || len(e) != 5 {
			t.Fatalf("bad PUTFIELD %q", line)
		}
		if v, _ := e[4].(float64); v != 0 {
			logged[e[3].(string)]++
		}
	}
	for name, n := range map[string]int{"2": 1, "viaToString": 3, "plain": 1, "Symbol(desc)": 1, "one": 1, "two": 1, "oneI": 1, "twoI": 1} {
		if logged[name] != n {
			t.Errorf("%d PUTFIELDs of an object under %q, want %d (all: %v)", logged[name], name, n, logged)
		}
	}
}
