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
	"github.com/memtrace/memtrace/internal/memtracebin"
)

// classicScripts: the first needs top-level temporaries (a method call on
// a member, a class field's computed key) and destructures with var, with
// globals of its own only (it runs twice and counts its runs); the second
// destructures with const and let (it runs once).
var classicScripts = []string{`var runs = (typeof runs === 'number' ? runs : 0) + 1;
var o = { a: { m() { return runs; } } };
var {v, w: [u]} = { v: 6, w: [7] };
var K = class { [o.a.m()] = 1; };
function total() { return o.a.m() + v + u + Object.keys(new K()).length; }
console.log('run', runs, total());
`, `const {x, y: [z]} = { x: 1, y: [2] };
let [p, ...q] = [3, 4, 5];
console.log('once', x + z + p + q.length + o.a.m());
`}

// classicHarness runs the files it is given as classic scripts in this
// global scope (vm.runInThisContext), the first one twice, then prints the
// global object's enumerable names that a script added and what an
// indirect eval that needs a temporary adds.
const classicHarness = `const vm = require('vm'), fs = require('fs');
const before = new Set(Object.keys(globalThis));
const [first, ...rest] = process.argv.slice(2);
for (const [f, n] of [[first, 2], ...rest.map((f) => [f, 1])]) {
  const code = fs.readFileSync(f, 'utf8');
  for (let i = 0; i < n; i++) {
    try { vm.runInThisContext(code, { filename: f }); } catch (e) { console.log('threw', e.name, e.message); }
  }
}
globalThis.g = { a: { m() { return 1; } } };
(0, eval)('g.a.m(); var fromEval = g.a.m()');
console.log(Object.keys(globalThis).filter((k) => !before.has(k)).join(','));
`

// TestClassicScriptGlobals: a classic script's handle and top-level
// temporaries are global names the shim makes (Sg: non-enumerable
// properties of the global object), and its top-level destructurings bind
// no name of their own, so the same text runs twice as it does plain (it
// threw "Identifier '__mt$…' has already been declared") and a program
// that lists the global object's names sees only its own (the temporaries
// were enumerable var properties); an indirect eval's temporaries are its
// own lexical declarations (they were global var properties).
func TestClassicScriptGlobals(t *testing.T) {
	node := nodeOrSkip(t)
	dir := t.TempDir()
	var origs, insts []string
	for i, src := range classicScripts {
		name := filepath.Join(dir, "classic"+strconv.Itoa(i)+".js")
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := instrument.Instrument([]byte(src), instrument.Options{Goal: js.Script, File: filepath.Base(name)})
		if err != nil {
			t.Fatal(err)
		}
		inst := strings.TrimSuffix(name, ".js") + ".inst.js"
		if err := os.WriteFile(inst, res.Code, 0o644); err != nil {
			t.Fatal(err)
		}
		origs, insts = append(origs, name), append(insts, inst)
	}
	harness := filepath.Join(dir, "harness.js")
	if err := os.WriteFile(harness, []byte(classicHarness), 0o644); err != nil {
		t.Fatal(err)
	}
	plain, err := exec.Command(node, append([]string{harness}, origs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("plain: %v\n%s", err, plain)
	}
	if want := "run 1 15\nrun 2 16\nonce 10\nruns,o,v,u,K,total,g,fromEval\n"; string(plain) != want {
		t.Fatalf("plain run printed %q, want %q", plain, want)
	}
	shim := shimFile(t)
	got := run(t, node, shim, harness, []string{"MEMTRACE_BIN=" + memtracebin.Path(t)}, insts...)
	if got.stdout != string(plain) || got.exit != 0 {
		t.Fatalf("instrumented run printed %q (exit %d), want %q\n%s", got.stdout, got.exit, plain, got.stderr)
	}
	check(t, "classic", got.trace)
}
