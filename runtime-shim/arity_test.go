package runtimeshim

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
)

// arityProgram calls with 0 to 8 arguments, as plain calls, method calls
// and new, instrumented functions and classes, modelled natives (push,
// splice, unshift, concat, Object.assign, Reflect.apply, setTimeout) and
// natives without a model, the debug function with objects, callees that
// are not functions or not constructors (V8's message names the
// program's callee), and arguments that throw.
const arityProgram = `function f5(a, b, c, d, e) { return [a, b, c, d, e]; }
function f6(a, b, c, d, e, g) { var o; o = { a, g }; return o; }
function many() { return arguments.length; }
class P { constructor(a, b, c, d, e, g) { this.parts = [a, b, c, d, e, g]; } sum(a, b, c, d, e) { return this.parts.length + a + b + c + d + e; } }
function jalangiRC(a, b, c, d, e) { return a; }
const o = { f5, f6, many, nested: { f6 } };
const x = {}, y = [], z = { k: 1 };
const out = [];
out.push(f5(1, 2, 3, 4, 5).length, f6(x, y, z, 1, 2, 3).a === x, many(1, 2, 3, 4, 5, 6, 7), many(1, 2, 3, 4, 5, 6, 7, 8));
out.push(o.f5(x, y, z, x, y)[4] === y, o.nested.f6(1, 2, 3, 4, 5, z).g === z, o['many'](1, 2, 3, 4, 5));
const p = new P(x, y, z, 1, 2, 3);
out.push(p.parts.length, p.sum(1, 2, 3, 4, 5), new P(1, 2, 3, 4, 5).parts[5]);
const arr = [];
out.push(arr.push(x, y, z, { n: 1 }, [2]), arr.push(1, 2, 3, 4, 5, { n: 6 }));
out.push(arr.splice(1, 2, { s: 1 }, { s: 2 }, { s: 3 }, { s: 4 }).length, arr.unshift(x, y, z, 7, 8), arr.length);
out.push([].concat(x, [y], z, 1, 2, [3]).length, Object.assign({}, { a: x }, { b: y }, { c: z }, { d: 1 }).c === z);
out.push(Reflect.apply(f6, null, [1, 2, 3, 4, 5, 6]).g, Math.max(1, 9, 3, 4, 5, 6), String.fromCharCode(104, 105, 33, 33, 33));
out.push(jalangiRC(x, y, z, 1, 2) === x, jalangiRC(1, 2, 3, 4, 5));
out.push(new Date(2020, 1, 2, 3, 4, 5).getMinutes(), new Array(1, 2, 3, 4, 5, 6).length, new Map([[x, 1]]).get(x));
const notFn = { g: 1 };
const arrow = (a, b, c, d, e) => a;
for (const bad of [() => notFn.g(1, 2, 3, 4, 5), () => notFn.h(1, 2, 3, 4, 5, 6), () => undefined(1, 2, 3, 4, 5),
  () => new arrow(1, 2, 3, 4, 5), () => new notFn.g(1, 2, 3, 4, 5, 6), () => f5(1, 2, 3, 4, notFn.q.r)]) {
  try { bad(); out.push('no error'); } catch (e) { out.push(e.constructor.name + ': ' + e.message); }
}
setTimeout(function (a, b, c, d, e) { console.log(out.join('\n')); console.log('timer', a, e.n); }, 0, 1, 2, 3, 4, { n: 5 });
`

// TestCallArities: calls with 5 and 6 arguments go through call hooks of
// their own (c5, m5, n5, c6, m6, n6: no arguments array when the callee
// has no model); the program prints what it prints under plain node, and
// the trace is byte for byte the one of the same code through the hooks
// that take any number (c, m, n), which served them before.
func TestCallArities(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.js")
	if err := os.WriteFile(plain, []byte(arityProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := exec.Command(node, plain).Output()
	if err != nil {
		t.Fatalf("plain: %v", err)
	}
	// Named by the plain file's path: the shim renders V8's messages for
	// callees that are not functions from the original text.
	prog := filepath.Join(dir, "prog.js")
	code := instrumentFile(t, prog, arityProgram, instrument.Options{Goal: js.Script, File: plain})
	hooks := regexp.MustCompile(`\.([cmn])[56]\(`)
	for _, h := range []string{"c5", "c6", "m5", "m6", "n5", "n6"} {
		if !strings.Contains(string(code), "."+h+"(") {
			t.Errorf("no call through %s in the instrumented program", h)
		}
	}
	rest := filepath.Join(dir, "rest.js")
	if err := os.WriteFile(rest, hooks.ReplaceAll(code, []byte(".$1(")), 0o644); err != nil {
		t.Fatal(err)
	}
	got := run(t, node, shim, prog, nil)
	if got.exit != 0 || got.stdout != string(want) {
		t.Fatalf("exit %d, output:\n%s\nwant:\n%s\nstderr: %s", got.exit, got.stdout, want, got.stderr)
	}
	check(t, "arities", got.trace)
	old := run(t, node, shim, rest, nil)
	if old.stdout != string(want) {
		t.Fatalf("through c, m and n: output:\n%s\nwant:\n%s", old.stdout, want)
	}
	if string(got.trace) != string(old.trace) {
		t.Fatalf("the trace differs from the one through c, m and n:\n%s", lineDiff(dump(t, old.trace), dump(t, got.trace)))
	}

	// Without the original text (the name finds no file), the callee is
	// named as V8 names one it cannot print: never the shim's own call
	// ("Function.prototype.apply was called on 1", a WeakMap's "Invalid
	// value used as weak map key", the hook's variable or the callee's
	// instrumented source).
	lost := filepath.Join(dir, "lost.js")
	instrumentFile(t, lost, arityProgram, instrument.Options{Goal: js.Script, File: "no/such/dir/prog.js"})
	res := run(t, node, shim, lost, nil)
	wantLost := strings.Replace(string(want), `TypeError: notFn.g is not a function
TypeError: notFn.h is not a function
TypeError: undefined is not a function
TypeError: arrow is not a constructor
TypeError: notFn.g is not a constructor`, `TypeError: (intermediate value) is not a function
TypeError: (intermediate value) is not a function
TypeError: (intermediate value) is not a function
TypeError: (intermediate value) is not a constructor
TypeError: (intermediate value) is not a constructor`, 1)
	if wantLost == string(want) {
		t.Fatalf("the plain run's messages are not the expected ones:\n%s", want)
	}
	if res.exit != 0 || res.stdout != wantLost {
		t.Fatalf("without the text: exit %d, output:\n%s\nwant:\n%s\nstderr: %s", res.exit, res.stdout, wantLost, res.stderr)
	}
}
