package runtimeshim

import (
	"bytes"
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

// TestTraceFileClaimed (issue 54, cases 3 and 8): a program instrumented
// ahead of time that forks another instrumented process, both given one
// MEMTRACE_OUT, used to write one file (a corrupt trace, exit 0, no
// warning): the child finds the name taken by a live process and writes
// beside it, NAME.<pid>, saying so on standard error; both traces are
// sound. A MEMTRACE_OUT that names a file memtrace did not write, or a
// link, is never truncated: the trace goes beside it the same way. A
// trace memtrace wrote earlier is written over, and the lock is gone at
// the end.
func TestTraceFileClaimed(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	const prog = `'use strict';
const cp = require('child_process');
const o = { a: [1, 2, 3] };
if (process.argv[2] === 'child') console.log('child', o.a.length);
else cp.fork(__filename, ['child']).on('exit', (code) => console.log('parent', code));
`
	src := filepath.Join(dir, "main.js")
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := instrument.Instrument([]byte(prog), instrument.Options{Goal: js.CommonJS, File: src})
	if err != nil {
		t.Fatal(err)
	}
	inst := filepath.Join(dir, "main.inst.js")
	if err := os.WriteFile(inst, res.Code, 0o644); err != nil {
		t.Fatal(err)
	}
	runWith := func(out string) (string, string) {
		t.Helper()
		cmd := exec.Command(node, "-r", shim, inst)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+out) // fork gives the child -r shim too
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		if stdout.String() != "child 3\nparent 0\n" {
			t.Fatalf("output %q\n%s", stdout.String(), stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	traces := func(out string) []string {
		t.Helper()
		ms, err := filepath.Glob(out + "*")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range ms {
			if strings.HasSuffix(m, ".lock") {
				t.Errorf("%s: the lock is left", m)
				continue
			}
			got = append(got, m)
		}
		return got
	}

	out := filepath.Join(dir, "mem-trace")
	for round := 0; round < 2; round++ { // the second writes over the first's
		for _, m := range traces(out) {
			if m != out {
				os.Remove(m)
			}
		}
		_, stderr := runWith(out)
		got := traces(out)
		if len(got) != 2 || got[0] != out || !strings.HasPrefix(got[1], out+".") {
			t.Fatalf("traces %v\n%s", got, stderr)
		}
		pid := strings.TrimPrefix(got[1], out+".")
		if _, err := strconv.Atoi(pid); err != nil {
			t.Fatalf("%s: no pid", got[1])
		}
		if !strings.Contains(stderr, "memtrace: "+out+" is being written by process ") || !strings.Contains(stderr, "writes its trace to "+got[1]) {
			t.Errorf("stderr does not say so:\n%s", stderr)
		}
		for _, g := range got {
			b, err := os.ReadFile(g)
			if err != nil {
				t.Fatal(err)
			}
			check(t, g, b)
		}
	}

	// A user's file and a link: kept as they are.
	mine := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(mine, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("victim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "linked")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{mine: "is a file memtrace did not write", link: "is a symbolic link"} {
		_, stderr := runWith(name)
		if !strings.Contains(stderr, name+" "+want) {
			t.Errorf("%s: stderr does not say %q:\n%s", name, want, stderr)
		}
		got := traces(name)
		if len(got) != 3 {
			t.Errorf("%s: want the file and two traces beside it, got %v", name, got)
		}
	}
	for p, want := range map[string]string{mine: "my notes\n", victim: "victim\n"} {
		b, err := os.ReadFile(p)
		if err != nil || string(b) != want {
			t.Errorf("%s: %q, %v: truncated or written", p, b, err)
		}
	}
}

// TestBrokenInstrumenterSaid (issue 54, case 12): under plain node, a
// MEMTRACE_BIN that is missing or fails (/bin/false) left eval and new
// Function code uninstrumented in silence (38 entries where 122 belong):
// the shim says so once on standard error, naming it. Code the
// instrumenter rejects (a syntax error) is not a broken instrumenter: it
// runs as it is and throws as in node, with nothing said.
func TestBrokenInstrumenterSaid(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	_, inst := writeInstrumented(t, "const o = eval('({ a: 1 })');\nconst f = new Function('return { b: 2 }');\nconsole.log(o.a, f().b, (0, eval)('[3]')[0]);\n")
	for _, bin := range []string{"/bin/false", filepath.Join(t.TempDir(), "missing")} {
		got := run(t, node, shim, inst, []string{"MEMTRACE_BIN=" + bin})
		if got.stdout != "1 2 3\n" || got.exit != 0 {
			t.Fatalf("%s: %q exit %d\n%s", bin, got.stdout, got.exit, got.stderr)
		}
		if n := strings.Count(got.stderr, "memtrace: the instrumenter MEMTRACE_BIN="+bin+" failed"); n != 1 {
			t.Errorf("%s: said %d times:\n%s", bin, n, got.stderr)
		}
	}
	_, bad := writeInstrumented(t, "try { eval('let x = ;'); } catch (e) { console.log(e.name); }\n")
	got := run(t, node, shim, bad, []string{"MEMTRACE_BIN=" + memtracebin.Path(t)})
	if got.stdout != "SyntaxError\n" || strings.Contains(got.stderr, "failed") {
		t.Errorf("a syntax error: %q\n%s", got.stdout, got.stderr)
	}
}
