package runtimeshim

import (
	"os"
	"os/exec"
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
	cmd := exec.Command(node, "-r", shim, prog, strconv.Itoa(n))
	cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+filepath.Join(filepath.Dir(prog), "mem-trace"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := "G" + strconv.Itoa(n) + ",P" + strconv.Itoa(n)
	if got := strings.TrimSpace(string(out)); got != want {
		t.Fatalf("copies missing from the shim: %q, want only %q (copies 0..%d)", got, want, n-1)
	}
}
