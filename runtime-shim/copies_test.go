package runtimeshim

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument"
)

// TestHookCopies: the shim defines every copy of G and P the instrumenter
// calls (instrument.HookCopies), and no more.
func TestHookCopies(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	prog := filepath.Join(t.TempDir(), "copies.js")
	src := `const h = globalThis.__mt.S("copies.js", "AAAA", {}, 1, 1);
const missing = [];
for (let k = 0; k <= +process.argv[2]; k++) for (const n of ["G", "P"]) if (typeof h[n + k] !== "function") missing.push(n + k);
console.log(missing.join(","));
`
	if err := os.WriteFile(prog, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	n := instrument.HookCopies
	res := run(t, node, shim, prog, nil, strconv.Itoa(n))
	if res.exit != 0 {
		t.Fatalf("exit %d\n%s", res.exit, res.stderr)
	}
	want := "G" + strconv.Itoa(n) + ",P" + strconv.Itoa(n)
	if got := strings.TrimSpace(res.stdout); got != want {
		t.Fatalf("copies missing from the shim: %q, want only %q (copies 0..%d)", got, want, n-1)
	}
}

// TestKeyedStores: keyed writes through every copy of P, each copy with a
// keyed store of its own (typed arrays of every kind in and out of range,
// converted values, BigInts; sloppy writes that fail silently and strict
// ones that throw, with V8's messages; a throwing setter's stack without
// the store's frame) behave as under plain node.
func TestKeyedStores(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	plain, prog := plainAndInstrumented(t, node, "keyed_stores.js")
	if !strings.Contains(string(plain), "frozen strict TypeError: Cannot assign to read only property '1'") ||
		!strings.Contains(string(plain), "setter 1 set sloppy") {
		t.Fatalf("plain node printed %q", plain)
	}
	res := run(t, node, shim, prog, nil)
	if res.exit != 0 || res.stdout != string(plain) {
		t.Fatalf("exit %d, output\n%s\nwant\n%s\nstderr: %s", res.exit, res.stdout, plain, res.stderr)
	}
	check(t, "keyed_stores", res.trace)
}
