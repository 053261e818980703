package runtimeshim

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testswitch"
)

// TestHookCopies: the shim defines every copy of G, P and M the
// instrumenter calls (instrument.HookCopies), and no more.
func TestHookCopies(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	prog := filepath.Join(t.TempDir(), "copies.js")
	src := `const h = globalThis.__mt.S("copies.js", "AAAA", {}, 1, 1);
const missing = [];
for (let k = 0; k <= +process.argv[2]; k++) for (const n of ["G", "P", "M"]) if (typeof h[n + k] !== "function") missing.push(n + k);
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
	want := "G" + strconv.Itoa(n) + ",P" + strconv.Itoa(n) + ",M" + strconv.Itoa(n)
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

// copiesProgram calls methods whose this is the object looked up (the
// lookup leaves its id for the callee's Fe) and methods whose this is
// another object: bound methods, methods reached through call and apply,
// lookups whose arguments make method calls of their own, getters, a
// lookup that throws, a proxy, objects given their ids between the lookup
// and the call.
const copiesProgram = `'use strict';
class A { constructor(v) { this.v = v; } m(x) { return this.v + (x === undefined ? 0 : x); } get g() { return this.v; } }
const a = new A(1), b = new A(2), p = { v: 3 };
a.bound = A.prototype.m.bind(p);
a.other = b.m.bind(b);
let s = a.m() + a.bound() + a.other() + a.m(b.m(a.m())) + a.m.call(p) + a.m.apply(b, [4]) + a.g;
const fresh = [];
for (let i = 0; i < 3; i++) { const o = { v: i, m: A.prototype.m }; s += o.m(o.m(fresh.push(o))); }
const px = new Proxy(a, {});
s += px.m(1);
try { null.m(); } catch (e) { s += 100; }
try { a.nope(a.m()); } catch (e) { s += 1000; }
const q = { m() { return this; } };
s += q.m() === q ? 10000 : 0;
console.log(s);
`

// TestHookCopiesSameTrace: the copies (and the ids a method lookup leaves
// for its callee's Fe) change nothing in the trace: the same program
// instrumented with and without them (testswitch NoCopies) writes the same
// bytes.
func TestHookCopiesSameTrace(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	var traces [2][]byte
	for k, no := range []bool{false, true} {
		prog := filepath.Join(dir, strconv.Itoa(k)+"c.js")
		code := instrumentSwitched(t, prog, copiesProgram, instrument.Options{Goal: js.CommonJS, File: "c.js"}, testswitch.Switches{NoCopies: no})
		if n := strings.Count(string(code), ".M("); no && n < 10 || !no && n != 0 {
			t.Fatalf("NoCopies=%v: %d calls of M", no, n)
		}
		got := run(t, node, shim, prog, nil)
		if got.exit != 0 || got.stdout != "11134\n" {
			t.Fatalf("NoCopies=%v: exit %d, output %q\n%s", no, got.exit, got.stdout, got.stderr)
		}
		check(t, "c.js", got.trace)
		traces[k] = got.trace
	}
	sameTrace(t, traces[0], traces[1], "", "with copies", "without")
}
