package runtimeshim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/trace"
)

// TestRunTimeCode runs each program of testdata/runtimecode plain and
// instrumented (CommonJS, named by the absolute path of its original, the
// shim preloaded, MEMTRACE_BIN set so that run-time code is instrumented):
// the standard output and exit status must be equal, the trace must pass
// trace.Check, and, as the program's "// nested: NAME" line says, objects
// or functions must be created under a nested script of that name (eval,
// evalIndirect), or no nested script may appear (none).
func TestRunTimeCode(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	bin := memtracebin.Path(t)
	progs, _ := filepath.Glob("testdata/runtimecode/*.js")
	if len(progs) == 0 {
		t.Fatal("no programs in testdata/runtimecode")
	}
	for _, prog := range progs {
		name := strings.TrimSuffix(filepath.Base(prog), ".js")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(prog)
			if err != nil {
				t.Fatal(err)
			}
			nested, _ := strings.CutPrefix(strings.SplitN(string(src), "\n", 2)[0], "// nested: ")
			dir := t.TempDir()
			orig := filepath.Join(dir, name+".js")
			if err := os.WriteFile(orig, src, 0o644); err != nil {
				t.Fatal(err)
			}
			plain := exec.Command(node, orig)
			plain.Dir = dir
			want, err := plain.Output()
			wantExit := exitCode(t, err)
			res, err := instrument.Instrument(src, instrument.Options{Goal: js.CommonJS, File: orig})
			if err != nil {
				t.Fatal(err)
			}
			inst := filepath.Join(dir, name+".inst.js")
			if err := os.WriteFile(inst, res.Code, 0o644); err != nil {
				t.Fatal(err)
			}
			got := run(t, node, shim, inst, []string{"MEMTRACE_BIN=" + bin})
			if got.stdout != string(want) || got.exit != wantExit {
				t.Fatalf("instrumented run differs (exit %d, want %d)\n--- plain\n%s--- instrumented\n%s--- stderr\n%s", got.exit, wantExit, want, got.stdout, got.stderr)
			}
			check(t, name, got.trace)
			names, created := nestedCreations(t, dump(t, got.trace))
			if nested == "none" {
				if len(names) != 0 {
					t.Fatalf("nested scripts %v, want none", names)
				}
				return
			}
			if created[nested] == 0 {
				t.Fatalf("no CREATE_OBJ or CREATE_FUN under a nested script %q (nested scripts: %v)", nested, names)
			}
			t.Logf("%d objects and functions created under %s scripts (%d nested scripts)", created[nested], nested, len(names))
		})
	}
}

func exitCode(t *testing.T, err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	t.Fatal(err)
	return 0
}

// nestedCreations returns the names of the scripts a text trace enters
// after the first, and per name the CREATE_OBJ and CREATE_FUN entries
// written while such a script is current.
func nestedCreations(t *testing.T, text string) ([]string, map[string]int) {
	t.Helper()
	scriptName := map[int32]string{}
	var names []string
	created := map[string]int{}
	cur := int32(0)
	first := true
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		e, err := trace.ParseText(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		switch e.Kind {
		case trace.UpdateCurrentScript:
			cur = e.SID
		case trace.ScriptEnter:
			if !first {
				scriptName[e.SID] = e.Name
				names = append(names, e.Name)
			}
			first = false
		case trace.CreateObj, trace.CreateFun:
			if n, ok := scriptName[cur]; ok {
				created[n]++
			}
		}
	}
	return names, created
}

// TestStringTimerCode: where timers take code strings (browsers; here a vm
// context with such a setTimeout and no Node process), the string is
// instrumented as an evalIndirect script before the timer gets it, and it
// runs as global code.
func TestStringTimerCode(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	bin := memtracebin.Path(t)
	dir := t.TempDir()
	res, err := instrument.Instrument([]byte(`setTimeout("var made = {v: 1}; made.v", 0); setInterval("made.v++", 5);`), instrument.Options{Goal: js.Script, File: "page.js"})
	if err != nil {
		t.Fatal(err)
	}
	driver := fmt.Sprintf(`
const vm = require('vm'), fs = require('fs');
const queued = [];
const ctx = vm.createContext({
  setTimeout(code) { queued.push(code); return queued.length; },
  setInterval(code) { queued.push(code); return queued.length; },
  process: { env: { MEMTRACE_BIN: %s, MEMTRACE_OUT: %s }, getBuiltinModule: (n) => process.getBuiltinModule(n), on() { return this; } },
});
vm.runInContext(fs.readFileSync(%s, 'utf8'), ctx);
vm.runInContext(%s, ctx);
const results = queued.map((code) => [/^__mt\.Sg\("__mt\$[0-9a-f]{8}", \d+, \d+, "evalIndirect"/.test(code), vm.runInContext(code, ctx)]);
vm.runInContext('__mt.end()', ctx);
console.log(JSON.stringify(results));
`, strconv.Quote(bin), strconv.Quote(filepath.Join(dir, "mem-trace")), strconv.Quote(shim), strconv.Quote(string(res.Code)))
	out, err := exec.Command(node, "-e", driver).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != `[[true,1],[true,1]]` {
		t.Fatalf("got %s, want both strings instrumented and run as global code: [[true,1],[true,1]]", got)
	}
	b, err := os.ReadFile(filepath.Join(dir, "mem-trace"))
	if err != nil {
		t.Fatal(err)
	}
	check(t, "timers", b)
	if _, created := nestedCreations(t, dump(t, b)); created["evalIndirect"] == 0 {
		t.Fatal("no CREATE_OBJ under an evalIndirect script")
	}
}

// TestRunTimeCodeServer: with MEMTRACE_BIN set and no instrumenter of
// memtrace node, run-time code goes to one long-lived instrument-server,
// which the main thread reaches through two FIFOs (bridge.js), not to a
// process per string; MEMTRACE_INSTRUMENTER=spawn (or a server that
// cannot start) gives a process per string. All three give the same
// output and exit status as the plain program and the same trace byte for
// byte; the FIFOs' directory is gone as soon as both ends are open, and
// the server ends with the program (also through process.exit), leaving
// no process behind; nothing of it keeps the program alive.
func TestRunTimeCodeServer(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	bin := memtracebin.Path(t)
	const prog = `'use strict';
let s = 0;
for (let i = 0; i < 12; i++) s += (0, eval)('[{ v: ' + i + ' }][0].v');
const f = new Function('a', 'return { a };');
const g = () => eval('var local = { w: 7 }; local.w');
let syntax = '';
try { (0, eval)('var = ;'); } catch (e) { syntax = e.name; }
const big = (0, eval)('(function () { var o = {}; ' + 'o.k = { n: 1 }; '.repeat(20000) + 'return o.k.n; })()');
const wide = (0, eval)('"h\u00e9llo \u2713 " + "\u{1F600}"');
console.log(s, f(3).a, g(), typeof local, syntax, big, wide);
if (process.argv[2] === 'exit') process.exit(3);
`
	orig, inst := writeInstrumented(t, prog)
	for _, arg := range []string{"", "exit"} {
		plain := exec.Command(node, orig, arg)
		want, err := plain.Output()
		wantExit := exitCode(t, err)
		if string(want) != "66 3 7 undefined SyntaxError 1 héllo ✓ 😀\n" {
			t.Fatalf("plain run printed %q", want)
		}
		traces := map[string][]byte{}
		// broken: the server does not start; the shim falls back to a
		// process per string.
		for _, mode := range []string{"server", "spawn", "broken"} {
			log := filepath.Join(t.TempDir(), "log")
			spy := filepath.Join(filepath.Dir(log), "memtrace-spy")
			server := ""
			if mode == "broken" {
				server = "if [ \"$1\" = instrument-server ]; then exit 3; fi\n"
			}
			script := "#!/bin/sh\necho \"$*\" >> '" + log + "'\n" + server + "exec '" + bin + "' \"$@\"\n"
			if err := os.WriteFile(spy, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			// The server's idle limit is longer than any pause of this
			// program on a loaded machine (at the default 2 s, a second
			// server started once after 38 minutes of make test): it
			// ends when the program closes its end.
			got := run(t, node, shim, inst, []string{"MEMTRACE_BIN=" + spy, "MEMTRACE_INSTRUMENTER=" + strings.TrimPrefix(mode, "broken"), "MEMTRACE_HELPER_IDLE_MS=600000"}, arg)
			if got.stdout != string(want) || got.exit != wantExit {
				t.Fatalf("%s %s: instrumented run differs (exit %d, want %d)\n--- plain\n%s--- instrumented\n%s--- stderr\n%s", mode, arg, got.exit, wantExit, want, got.stdout, got.stderr)
			}
			check(t, mode, got.trace)
			b, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			spawned := 0
			for _, l := range lines {
				if strings.HasPrefix(l, "instrument --eval") {
					spawned++
				}
			}
			if mode == "server" {
				// 12 indirect evals, the Function body, the direct eval, the
				// syntax error, the large string and the wide one: one
				// server, started once.
				if len(lines) != 1 || !strings.HasPrefix(lines[0], "instrument-server --fifo ") || spawned != 0 {
					t.Fatalf("server %s: memtrace was run as\n%s\nwant one instrument-server", arg, b)
				}
				serverGone(t, strings.Fields(lines[0])[2])
			} else if mode == "broken" {
				if spawned != 17 || len(lines) != 18 || !strings.HasPrefix(lines[0], "instrument-server --fifo ") {
					t.Fatalf("broken %s: memtrace was run as\n%s\nwant the server once, then 17 instrument --eval processes", arg, b)
				}
			} else if spawned != 17 || strings.Contains(string(b), "instrument-server") {
				t.Fatalf("spawn %s: memtrace was run as\n%s\nwant 17 instrument --eval processes", arg, b)
			}
			traces[mode] = got.trace
		}
		if string(traces["server"]) != string(traces["spawn"]) || string(traces["broken"]) != string(traces["spawn"]) {
			t.Fatalf("%s: the traces differ between the server, a process per string and the fallback", arg)
		}
		if _, created := nestedCreations(t, dump(t, traces["server"])); created["evalIndirect"] == 0 || created["eval"] == 0 {
			t.Fatalf("%s: no CREATE_OBJ under the nested scripts: %v", arg, created)
		}
	}
}

// TestRunTimeCodeServerPatchedFs: a program that replaces the fs and
// child_process functions the bridge calls (as mock file systems and
// graceful-fs do) before its first eval still has its strings
// instrumented by the server: the shim took them at its start. Fails when
// the bridge looks them up when the first string comes (a process per
// string, or no instrumentation).
func TestRunTimeCodeServerPatchedFs(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	bin := memtracebin.Path(t)
	const prog = `'use strict';
const fs = require('fs'), cp = require('child_process'), os = require('os');
for (const k of ['openSync', 'readSync', 'writeSync', 'closeSync', 'mkdtempSync', 'unlinkSync', 'rmdirSync']) fs[k] = () => { throw new Error('patched fs.' + k); };
cp.execFileSync = () => { throw new Error('patched execFileSync'); };
os.tmpdir = () => '/nonexistent';
let s = 0;
for (let i = 0; i < 3; i++) s += (0, eval)('({ v: ' + i + ' }).v');
console.log(s);
`
	orig, inst := writeInstrumented(t, prog)
	want, err := exec.Command(node, orig).Output()
	if err != nil || string(want) != "3\n" {
		t.Fatalf("plain run: %q, %v", want, err)
	}
	log := filepath.Join(t.TempDir(), "log")
	spy := filepath.Join(filepath.Dir(log), "memtrace-spy")
	if err := os.WriteFile(spy, []byte("#!/bin/sh\necho \"$*\" >> '"+log+"'\nexec '"+bin+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	got := run(t, node, shim, inst, []string{"MEMTRACE_BIN=" + spy})
	if got.stdout != string(want) || got.exit != 0 {
		t.Fatalf("instrumented run differs (exit %d)\n%s--- stderr\n%s", got.exit, got.stdout, got.stderr)
	}
	check(t, "patched", got.trace)
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "instrument-server --fifo ") {
		t.Fatalf("memtrace was run as\n%s\nwant one instrument-server", b)
	}
	serverGone(t, strings.Fields(lines[0])[2])
	if _, created := nestedCreations(t, dump(t, got.trace)); created["evalIndirect"] != 3 {
		t.Fatalf("%d objects created by eval'd code, want 3", created["evalIndirect"])
	}
}

// serverGone fails unless the FIFOs' directory dir is gone and, within
// 5 s of the program's end, no instrument-server serves it.
func serverGone(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s is still there after the run (%v)", dir, err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		alive := ""
		for _, p := range procs {
			b, err := os.ReadFile(p)
			if err == nil && strings.Contains(string(b), "--fifo-serve\x00"+dir+"\x00") {
				alive = p
			}
		}
		if alive == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server of %s still runs 5 s after the program ended (%s)", dir, alive)
		}
	}
}

// TestRunTimeCodeServerLeaves: the server leaves after
// MEMTRACE_HELPER_IDLE_MS without a string, while the main thread is
// busy, and the next string starts another; the trace is the one a
// process per string gives. The program ends once with the second server
// still there and once after it has left: either way no server is left.
// Fails if the server stays (one server).
// TestRunTimeCodeHelperRace covers strings sent as servers leave.
func TestRunTimeCodeServerLeaves(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	bin := memtracebin.Path(t)
	const prog = `'use strict';
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
let s = 0;
for (let i = 0; i < 3; i++) s += (0, eval)('({ v: ' + i + ' }).v');
pause(1500);
for (let i = 0; i < 3; i++) s += (0, eval)('[{ w: ' + i + ' }][0].w');
if (process.argv[2] === 'late') pause(1500);
console.log(s);
`
	orig, inst := writeInstrumented(t, prog)
	for _, arg := range []string{"", "late"} {
		want, err := exec.Command(node, orig, arg).Output()
		if err != nil || string(want) != "6\n" {
			t.Fatalf("plain run: %q, %v", want, err)
		}
		traces := map[string][]byte{}
		for _, mode := range []string{"server", "spawn"} {
			log := filepath.Join(t.TempDir(), "log")
			spy := filepath.Join(filepath.Dir(log), "memtrace-spy")
			script := "#!/bin/sh\necho \"$*\" >> '" + log + "'\nexec '" + bin + "' \"$@\"\n"
			if err := os.WriteFile(spy, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			got := run(t, node, shim, inst, []string{"MEMTRACE_BIN=" + spy, "MEMTRACE_INSTRUMENTER=" + mode, "MEMTRACE_HELPER_IDLE_MS=200"}, arg)
			if got.stdout != string(want) || got.exit != 0 {
				t.Fatalf("%s %s: instrumented run differs (exit %d)\n--- instrumented\n%s--- stderr\n%s", mode, arg, got.exit, got.stdout, got.stderr)
			}
			check(t, mode, got.trace)
			b, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			if mode == "server" {
				// Two servers, or more on a machine so loaded that the
				// program paused 200 ms between two strings of a burst.
				lines := strings.Split(strings.TrimSpace(string(b)), "\n")
				if len(lines) < 2 {
					t.Fatalf("server %s: memtrace was run as\n%s\nwant a server that ends while the program pauses, then another", arg, b)
				}
				for _, l := range lines {
					if !strings.HasSuffix(l, " --idle-ms 200") {
						t.Fatalf("server %s: memtrace was run as\n%s\nwant servers only", arg, b)
					}
				}
				for _, l := range lines {
					serverGone(t, strings.Fields(l)[2])
				}
			}
			traces[mode] = got.trace
		}
		if string(traces["server"]) != string(traces["spawn"]) {
			t.Fatalf("%s: the traces differ between the servers and a process per string", arg)
		}
	}
}

// TestRunTimeCodeHelperRace: with a server that leaves 1 ms after each
// answer and strings sent 0-3 ms apart, strings keep arriving as servers
// leave; each is answered (by the server, or, when it has left with the
// string on its way, by a new one the string is sent to again) and the
// program prints as under node, with servers started again and again.
// Fails when a string in flight as its server leaves is not sent again
// (the shim falls back to a process per string: one server in all).
func TestRunTimeCodeHelperRace(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	bin := memtracebin.Path(t)
	const prog = `'use strict';
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
let s = 0;
for (let i = 0; i < 60; i++) { s += (0, eval)('({ v: ' + i + ' }).v'); pause(i % 4); }
console.log(s);
`
	orig, inst := writeInstrumented(t, prog)
	want, err := exec.Command(node, orig).Output()
	if err != nil || string(want) != "1770\n" {
		t.Fatalf("plain run: %q, %v", want, err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	spy := filepath.Join(dir, "memtrace-spy")
	script := "#!/bin/sh\nif [ \"$1\" = instrument-server ]; then echo server >> '" + log + "'; fi\nexec '" + bin + "' \"$@\"\n"
	if err := os.WriteFile(spy, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "-r", shim, inst)
	out := filepath.Join(dir, "mem-trace")
	cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+out, "MEMTRACE_BIN="+spy, "MEMTRACE_HELPER_IDLE_MS=1")
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	if err := cmd.Run(); err != nil || so.String() != string(want) {
		t.Fatalf("instrumented run: %v (deadline: %v)\n--- stdout\n%s--- stderr\n%s", err, ctx.Err(), so.String(), se.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	check(t, "race", b)
	if _, created := nestedCreations(t, dump(t, b)); created["evalIndirect"] != 60 {
		t.Fatalf("%d objects created by eval'd code, want 60 (every string instrumented)", created["evalIndirect"])
	}
	servers, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(servers), "server"); n < 2 {
		t.Fatalf("%d servers for 60 strings 0-3 ms apart with servers leaving after 1 ms: they did not leave", n)
	}
}

// TestRunTimeCodeLeftOutOfEvalCache: V8 hashes a string of more than
// 16,383 characters by its length alone and caches an eval (its script
// and bytecode, until the cache ages) once an earlier eval from the same
// place had the same hash. Instrumented run-time code is about four times
// its source, so distinct strings of a few kilobytes, which V8 tells apart
// uninstrumented, were all cached (Octane's CodeLoad kept about 1,600
// scripts' bytecode). First-time code carries instrument.EvalNoCache and
// is not cached; a string evaluated again is, as without instrumentation.
// Fails without the marker: about 11 MB of bytecode kept for 200 strings.
func TestRunTimeCodeLeftOutOfEvalCache(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	bin := memtracebin.Path(t)
	const prog = `'use strict';
const v8 = require('v8');
const body = 'var o = { n: 1 }; ' + 'o.k = { n: o.n + 1 }; '.repeat(300) + 'o.k.n';
function bytecode() { gc(); gc(); return v8.getHeapCodeStatistics().bytecode_and_metadata_size; }
const ev = eval;
let r = 0;
for (let i = 0; i < 5; i++) r += ev('/*w' + i + '*/' + body);
const before = bytecode();
for (let i = 0; i < 200; i++) r += ev('/*' + String(i).padStart(4, '0') + '*/' + body);
const grew = bytecode() - before;
let same = 0;
for (let i = 0; i < 6; i++) same += ev(body);
console.log(r, same, grew < 200 * 1024 ? 'released' : 'kept ' + grew + ' bytes of bytecode');
`
	orig, inst := writeInstrumented(t, prog)
	plain := exec.Command(node, "--expose-gc", orig)
	want, err := plain.Output()
	if err != nil || string(want) != "410 12 released\n" {
		t.Fatalf("plain run: %v, printed %q", err, want)
	}
	got := run(t, node, shim, inst, []string{"MEMTRACE_BIN=" + bin, "NODE_OPTIONS=--expose-gc"})
	if got.stdout != string(want) || got.exit != 0 {
		t.Fatalf("instrumented run printed %q (exit %d), want %q\n%s", got.stdout, got.exit, want, got.stderr)
	}
	check(t, "main", got.trace)
}

// writeInstrumented writes prog as main.js in a fresh directory and, beside
// it, main.inst.js: prog instrumented as CommonJS, named by main.js's path.
func writeInstrumented(t *testing.T, prog string) (orig, inst string) {
	t.Helper()
	dir := t.TempDir()
	orig = filepath.Join(dir, "main.js")
	if err := os.WriteFile(orig, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := instrument.Instrument([]byte(prog), instrument.Options{Goal: js.CommonJS, File: orig})
	if err != nil {
		t.Fatal(err)
	}
	inst = filepath.Join(dir, "main.inst.js")
	if err := os.WriteFile(inst, res.Code, 0o644); err != nil {
		t.Fatal(err)
	}
	return orig, inst
}

// TestRunTimeCodeCachedWhenRepeated: a string the program evaluates again
// reaches V8 without instrument.EvalNoCache (the marker replaced by as many
// spaces), so that V8 caches repeated run-time code as it would
// uninstrumented, while a string evaluated for the first time carries it.
// A spy preloaded before the shim stands in for the global eval, which the
// shim captures as the native: it records the strings the shim hands it.
// It is a proxy of eval, native to the shim's eye as eval is (a script's
// own function eval is not eval: TestTest262Own).
func TestRunTimeCodeCachedWhenRepeated(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	bin := memtracebin.Path(t)
	spy := filepath.Join(t.TempDir(), "spy.js")
	if err := os.WriteFile(spy, []byte(`const real = globalThis.eval, seen = [];
Object.defineProperty(globalThis, '__evalSeen', { value: seen });
globalThis.eval = new Proxy(real, { apply(t, self, args) { seen.push(args[0]); return Reflect.apply(t, self, args); } });
`), 0o644); err != nil {
		t.Fatal(err)
	}
	const prog = `'use strict';
const ev = eval;
const body = 'var q = { n: 1 }; q.n + 1';
let r = 0;
for (let i = 0; i < 3; i++) r += ev(body);
r += ev('/*other*/ ' + body);
for (let i = 0; i < 2; i++) r += ev('(function () { return { n: 2 }; })().n');
console.log(r);
process.stderr.write('SEEN ' + JSON.stringify(globalThis.__evalSeen) + '\n');
`
	_, inst := writeInstrumented(t, prog)
	got := run(t, node, shim, inst, []string{"MEMTRACE_BIN=" + bin, "NODE_OPTIONS=--require " + spy})
	if got.stdout != "12\n" || got.exit != 0 {
		t.Fatalf("instrumented run printed %q (exit %d)\n%s", got.stdout, got.exit, got.stderr)
	}
	k := strings.Index(got.stderr, "SEEN ")
	if k < 0 {
		t.Fatalf("no record of the evaluated strings:\n%s", got.stderr)
	}
	var seen []string
	if err := json.Unmarshal([]byte(strings.TrimSpace(got.stderr[k+5:])), &seen); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 6 {
		t.Fatalf("%d strings evaluated, want 6: %q", len(seen), seen)
	}
	marker := instrument.EvalNoCache
	blank := strings.Repeat(" ", len(marker))
	for _, first := range []int{0, 3, 4} {
		if strings.Count(seen[first], marker) != 1 {
			t.Errorf("string %d, evaluated for the first time, does not carry the marker once: %.200q", first, seen[first])
		}
	}
	for _, again := range [][2]int{{0, 1}, {0, 2}, {4, 5}} {
		want := strings.Replace(seen[again[0]], marker, blank, 1)
		if seen[again[1]] != want {
			t.Errorf("string %d, evaluated again, is not string %d with the marker blanked:\n%.300q\n%.300q", again[1], again[0], seen[again[1]], want)
		}
	}
	check(t, "main", got.trace)
}

// TestRunTimeCodeSharesSiteTables: copies of one library made distinct by
// a salt of one length (Octane's CodeLoad) have equal site tables, and the
// scripts the program keeps share one string for it (the shim's
// sharedSites) instead of a copy each. The program counts, in a heap
// snapshot, the strings of the table's alphabet (docs/instrumentation.md
// §2) long enough to be a table: 30 copies kept alive, one table for them
// and the program's own (the string literal of its prologue); 31 when
// each copy keeps its own.
func TestRunTimeCodeSharesSiteTables(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	bin := memtracebin.Path(t)
	const prog = `'use strict';
const v8 = require('v8');
const body = 'var SALT = { n: 1, f: function (x) { return { v: x.n + SALT.n }; } };\n' +
  'SALT.g = function () { var a = [SALT.n]; for (var i = 0; i < 20; i++) a.push({ i: i, o: SALT.f(SALT) }); return a.length; };\n'.repeat(20) +
  'SALT.g();';
const ev = eval;
let r = 0;
for (let i = 0; i < 30; i++) r += ev(body.replaceAll('SALT', 'lib' + String(i).padStart(3, '0')));
const chunks = [];
const s = v8.getHeapSnapshot();
s.on('data', (c) => chunks.push(c));
s.on('end', () => {
  const snap = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const f = snap.snapshot.meta.node_fields, types = snap.snapshot.meta.node_types[0];
  const iT = f.indexOf('type'), iN = f.indexOf('name');
  let tables = 0;
  for (let k = 0; k < snap.nodes.length; k += f.length) {
    if (types[snap.nodes[k + iT]] !== 'string') continue;
    const name = snap.strings[snap.nodes[k + iN]];
    if (name.length > 400 && /^[A-Za-z0-9+/]+$/.test(name)) tables++;
  }
  // Plain node has no tables: it prints 0 for them.
  console.log(r, typeof lib029, tables > 0 ? 'tables' : 'none', tables);
});
`
	orig, inst := writeInstrumented(t, prog)
	want, err := exec.Command(node, orig).Output()
	if err != nil || string(want) != "630 object none 0\n" {
		t.Fatalf("plain run: %v, printed %q", err, want)
	}
	got := run(t, node, shim, inst, []string{"MEMTRACE_BIN=" + bin})
	if got.exit != 0 {
		t.Fatalf("instrumented run failed (exit %d)\n%s", got.exit, got.stderr)
	}
	if got.stdout != "630 object tables 2\n" {
		t.Fatalf("instrumented run printed %q, want the program's site table and one shared by the 30 copies: \"630 object tables 2\"", got.stdout)
	}
	check(t, "main", got.trace)
}

// TestRunTimeCodeClosureSlots: a script's closure table has a slot per
// function, and scripts with the same functions share the map from Fe
// iid to slot. Functions of three copies of a library, each with many
// sites and few functions, are called by natives (no call hook names
// them: Fe reads the closure table) and by a class's private method
// (whose closure the table holds); every FUNCTION_ENTER must name a
// closure that CREATE_FUN made for the same function-enter iid, and 200
// copies kept alive must not keep a table of the copy's size each.
func TestRunTimeCodeClosureSlots(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	bin := memtracebin.Path(t)
	const prog = `'use strict';
const body = 'var SALT = { n: 1, k: [] };\n' +
  'SALT.pad = function () { var a = 0; ' + 'a = a + SALT.n * 2 - (SALT.n | 0);'.repeat(400) + ' return a; };\n' +
  'SALT.add = function (x) { return [1, 2, 3].map(function (y) { return y + x + SALT.n; }); };\n' +
  'SALT.each = function () { var s = 0; SALT.k.forEach(function (o) { s += o.v; }); return s; };\n' +
  'SALT.C = class { #p(v) { return v * 2; } q(v) { return [v].map((w) => this.#p(w))[0]; } };\n' +
  'SALT.k.push({ v: SALT.add(1)[2] }, { v: new SALT.C().q(5) }); SALT.each();';
// Two scripts with as many sites and functions but other Fe iids: a
// map shared between them would send both of B's functions to slot 0.
const A = 'L.g = {p: L.n}; L.f = function (a) { return [a].map(function (b) { return b + 1; }); }; L.f(1); [1].map(L.f).length;';
const B = 'L.f = function (a) { return [a].map(function (b) { return b + 1; }); }; L.g = {p: L.n}; L.f(1); [1].map(L.f).length;';
globalThis.L1 = { n: 1 }; globalThis.L2 = { n: 1 };
const ev = eval;
const kept = [];
let r = ev(A.replaceAll('L.', 'L1.')) + ev(B.replaceAll('L.', 'L2.'));
for (let i = 0; i < 3; i++) r += ev(body.replaceAll('SALT', 'lib' + String(i).padStart(3, '0')));
const before = process.memoryUsage().arrayBuffers;
for (let i = 3; i < 203; i++) { ev(body.replaceAll('SALT', 'lib' + String(i).padStart(3, '0'))); kept.push(globalThis['lib' + String(i).padStart(3, '0')].add); }
const grown = process.memoryUsage().arrayBuffers - before;
console.log(r, kept.length, grown < (1 << 20) ? 'small' : 'grown ' + grown);
`
	orig, inst := writeInstrumented(t, prog)
	want, err := exec.Command(node, orig).Output()
	if err != nil || string(want) != "47 200 small\n" {
		t.Fatalf("plain run: %v, printed %q", err, want)
	}
	got := run(t, node, shim, inst, []string{"MEMTRACE_BIN=" + bin})
	if got.exit != 0 {
		t.Fatalf("instrumented run failed (exit %d)\n%s", got.exit, got.stderr)
	}
	if got.stdout != string(want) {
		t.Fatalf("instrumented run printed %q, want %q (200 copies of a script of about 5,000 sites and 8 functions should keep 8 slots each, not 5,000)", got.stdout, want)
	}
	check(t, "main", got.trace)
	// Every FUNCTION_ENTER names a closure made for its own Fe iid (ids
	// are global; iids are global too, base + local).
	r := trace.NewReader(bytes.NewReader(got.trace))
	fe := map[int32]int32{} // closure id -> its function-enter iid
	enters := 0
	for {
		e, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			t.Fatal(err)
		}
		switch e.Kind {
		case trace.CreateFun:
			fe[e.Obj] = e.FunIID
		case trace.FunctionEnter:
			enters++
			if w, ok := fe[e.Obj]; !ok || w != e.IID {
				t.Fatalf("FUNCTION_ENTER at iid %d names id %d, made for function-enter iid %d (known %v)", e.IID, e.Obj, w, ok)
			}
		}
	}
	if enters < 3*8 {
		t.Fatalf("%d FUNCTION_ENTER entries, want at least 24 (natives call the copies' functions)", enters)
	}
}

// TestRunTimeCodeCollects: a program that evaluates fresh code over and
// over has V8 collect its whole heap each time the instrumented text of
// that code reaches 16M characters (the shim's codeMade), so that text
// it no longer runs does not pile up until V8's own next full collection.
// With --trace-gc, such collections have the reason "runtime", which plain
// Node gives here only for the program's own %CollectGarbage. The shim compiles its collector with natives
// syntax allowed for that compilation only: afterwards the program's eval
// of natives syntax is a SyntaxError as it is plain, and where the
// program's flags allow natives syntax, they still do.
func TestRunTimeCodeCollects(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	bin := memtracebin.Path(t)
	const prog = `'use strict';
const ev = eval;
const body = 'var o = { n: 1, a: [1, 2] }; ' + 'o.k = { n: o.n + 1, a: [o.a[0], { m: o.n }] }; '.repeat(2000) + 'o.k.n';
let r = 0;
for (let i = 0; i < 64; i++) r += ev('/*' + i + '*/' + body);
let natives;
try { natives = ev('%CollectGarbage(0)') === undefined ? 'natives' : '?'; } catch (e) { natives = e.name; }
console.log(r, natives);
`
	orig, inst := writeInstrumented(t, prog)
	split := func(out []byte) (lines string, runtime int) {
		var b strings.Builder
		for _, l := range strings.Split(string(out), "\n") {
			switch {
			case strings.Contains(l, "Mark-Compact") || strings.Contains(l, "Scavenge"):
				if strings.Contains(l, " runtime; ") {
					runtime++
				}
			case l != "":
				b.WriteString(l + "\n")
			}
		}
		return b.String(), runtime
	}
	for _, flags := range [][]string{{"--trace-gc"}, {"--trace-gc", "--allow-natives-syntax"}} {
		want := "128 SyntaxError\n"
		if len(flags) == 2 {
			want = "128 natives\n"
		}
		// The program's own %CollectGarbage is one where natives syntax
		// is allowed.
		own := len(flags) - 1
		out, err := exec.Command(node, append(flags, orig)...).Output()
		got, n := split(out)
		if err != nil || got != want || n != own {
			t.Fatalf("plain run %v: %v, printed %q with %d collections for the runtime, want %q and %d", flags, err, got, n, want, own)
		}
		dir := t.TempDir()
		cmd := exec.Command(node, append(flags, "-r", shim, inst)...)
		cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+filepath.Join(dir, "mem-trace"), "MEMTRACE_BIN="+bin)
		var se bytes.Buffer
		cmd.Stderr = &se
		out, err = cmd.Output()
		got, n = split(out)
		if err != nil || got != want {
			t.Fatalf("instrumented run %v: %v, printed %q, want %q\n%s", flags, err, got, want, se.String())
		}
		if n <= own {
			t.Errorf("instrumented run %v: no full collection for the runtime (reason \"runtime\" in --trace-gc's lines) after 64 strings of about 600K characters instrumented", flags)
		}
		b, err := os.ReadFile(filepath.Join(dir, "mem-trace"))
		if err != nil {
			t.Fatal(err)
		}
		check(t, "main", b)
	}
}
