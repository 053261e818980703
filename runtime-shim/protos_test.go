package runtimeshim

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/js"
)

// instrumentTo instruments src as CommonJS file name into dir and returns
// the instrumented file's path.
func instrumentTo(t *testing.T, dir, name string, src []byte) string {
	t.Helper()
	res, err := instrument.Instrument(src, instrument.Options{Goal: js.CommonJS, File: name})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, res.Code, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// plainAndInstrumented runs testdata/NAME under plain node and returns its
// output and the path of NAME instrumented (instrumentTo).
func plainAndInstrumented(t *testing.T, node, name string) (plain []byte, prog string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.js")
	if err := os.WriteFile(orig, src, 0o644); err != nil {
		t.Fatal(err)
	}
	plain, err = exec.Command(node, orig).CombinedOutput()
	if err != nil {
		t.Fatalf("plain node: %v\n%s", err, plain)
	}
	return plain, instrumentTo(t, dir, name, src)
}

// TestLazyPrototypes: a function literal's prototype object gets the id
// MemInsight gives it (the function's id + 1) when it first reaches the
// shim, not at the literal (where reading fn.prototype would make the
// object, which V8 makes only on demand). testdata/protos.js shows
// prototypes to the shim in every way a program can (P's base before a
// write that changes constructor, a PUTFIELD's value, a native's result
// and argument, the constructor protocol's __proto__, a getter, a class's
// members, a generator's prototype, a proxy of one, objects that only look
// like one): its trace must equal, byte for byte, the trace with every
// prototype given its id at the literal (MEMTRACE_EAGER_PROTOS=1), and its
// output plain node's (no proxy trap the program does not run itself).
func TestLazyPrototypes(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	plain, prog := plainAndInstrumented(t, node, "protos.js")
	lazy := run(t, node, shim, prog, nil)
	eager := run(t, node, shim, prog, []string{"MEMTRACE_EAGER_PROTOS=1"})
	for _, r := range []runResult{lazy, eager} {
		if r.exit != 0 || r.stdout != string(plain) {
			t.Fatalf("exit %d, output %q; plain node: %q\nstderr: %s", r.exit, r.stdout, plain, r.stderr)
		}
	}
	check(t, "protos", lazy.trace)
	if got, want := dump(t, lazy.trace), dump(t, eager.trace); got != want {
		t.Fatalf("lazy prototypes change the trace:\n%s", lineDiff(want, got))
	}
	// The prototypes the program writes to are named by their functions'
	// ids + 1 (Point: norm; Lazy, seen first as getPrototypeOf's result:
	// tag; Stored, seen first as a PUTFIELD's value: p).
	d := dump(t, lazy.trace)
	funID := map[int]bool{}
	for _, line := range strings.Split(d, "\n") {
		if f := strings.Split(strings.Trim(line, "[]"), ","); len(f) == 4 && f[0] == "2" {
			id, _ := strconv.Atoi(f[3])
			funID[id] = true
		}
	}
	for _, name := range []string{`"norm"`, `"tag"`, `"kept"`, `"extra"`} {
		found := false
		for _, line := range strings.Split(d, "\n") {
			f := strings.Split(strings.Trim(line, "[]"), ",")
			if len(f) == 5 && f[0] == "3" && f[3] == name {
				base, _ := strconv.Atoi(f[2])
				if !funID[base-1] {
					t.Fatalf("PUTFIELD %s on %d, which is no function's id + 1:\n%s", name, base, d)
				}
				found = true
			}
		}
		if !found {
			t.Fatalf("no PUTFIELD %s:\n%s", name, d)
		}
	}
}

// TestLazyPrototypesMakeNoObjects: function literals evaluated in a loop
// (callbacks) get no prototype object from the shim. The heap kept by
// 100,000 such functions, after a full collection, is measured lazily and
// with every prototype given its id at the literal: the eager run keeps
// the prototypes (hundreds of bytes each), the lazy run must not.
func TestLazyPrototypesMakeNoObjects(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	src := `const fns = [];
gc();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < 100000; i++) fns.push(function (x) { return x + i; });
gc();
console.log(process.memoryUsage().heapUsed - before, fns.length);
`
	prog := instrumentTo(t, dir, "loop.js", []byte(src))
	growth := func(env ...string) int {
		cmd := exec.Command(node, "--expose-gc", "-r", shim, prog)
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), "MEMTRACE_OUT="+filepath.Join(dir, "mem-trace")), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		f := strings.Fields(string(out))
		if len(f) != 2 || f[1] != "100000" {
			t.Fatalf("output %q, want the heap's growth and 100000", out)
		}
		n, err := strconv.Atoi(f[0])
		if err != nil {
			t.Fatalf("output %q", out)
		}
		return n
	}
	lazy, eager := growth(), growth("MEMTRACE_EAGER_PROTOS=1")
	t.Logf("heap kept by 100,000 closures: lazy %d bytes, eager %d bytes", lazy, eager)
	if eager-lazy < 100000*100 {
		t.Fatalf("lazy prototypes save %d bytes over 100,000 closures (lazy %d, eager %d), want at least 100 a closure", eager-lazy, lazy, eager)
	}
}

// TestLazyPrototypesModuleNamespace: looking for a prototype's
// constructor must not throw where the program does not: a module
// namespace whose export named constructor is still uninitialized throws
// on any look at that property (Object.hasOwn too). a.mjs, evaluated
// first, leaves a function whose prototype id is reserved, so that the
// lookup happens when ns.mjs declares its namespace.
func TestLazyPrototypesModuleNamespace(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a.mjs": "export function A() {}\n",
		"ns.mjs": `import { A } from './a.mjs';
import * as ns from './ns.mjs';
const probe = { n: ns };
console.log(typeof probe.n, new A() instanceof A);
export const constructor = 1;
console.log(ns.constructor);
`,
	} {
		res, err := instrument.Instrument([]byte(src), instrument.Options{Goal: js.Module, File: name})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), res.Code, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := run(t, node, shim, filepath.Join(dir, "ns.mjs"), nil)
	if r.exit != 0 || r.stdout != "object true\n1\n" {
		t.Fatalf("exit %d, output %q, want \"object true\\n1\\n\"\nstderr: %s", r.exit, r.stdout, r.stderr)
	}
	check(t, "ns", r.trace)
}
