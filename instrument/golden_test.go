package instrument

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument/diag"
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testcorpus"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/instrument")

const goldenDir = "../testdata/instrument"

// goalOf reads a case's goal from a first-line comment "// goal: NAME".
func goalOf(src []byte) js.Goal {
	line, _, _ := bytes.Cut(src, []byte("\n"))
	switch strings.TrimSpace(strings.TrimPrefix(string(line), "// goal:")) {
	case "commonjs":
		return js.CommonJS
	case "module":
		return js.Module
	}
	return js.Script
}

func goldenCases(t *testing.T) []string {
	all, err := filepath.Glob(filepath.Join(goldenDir, "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, f := range all {
		if !strings.HasSuffix(f, ".golden.js") {
			cases = append(cases, f)
		}
	}
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	return cases
}

// TestGolden instruments every case under testdata/instrument and compares
// the output with <case>.golden.js; the output must parse with the same
// goal and be a fixed point of Instrument.
func TestGolden(t *testing.T) {
	for _, f := range goldenCases(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".js")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			goal := goalOf(src)
			res, err := Instrument(src, Options{Goal: goal, File: filepath.Base(f)})
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(f, ".js") + ".golden.js"
			if *update {
				if err := os.WriteFile(golden, res.Code, 0o644); err != nil {
					t.Fatal(err)
				}
			} else if want, err := os.ReadFile(golden); err != nil {
				t.Fatalf("%v (run go test ./instrument -update)", err)
			} else if !bytes.Equal(res.Code, want) {
				t.Errorf("output differs from %s (run go test ./instrument -update and review the diff)", golden)
			}
			if _, err := js.Parse(res.Code, js.Options{Goal: goal}); err != nil {
				t.Errorf("output does not parse: %v", err)
			}
			again, err := Instrument(res.Code, Options{Goal: goal, File: filepath.Base(f)})
			if err != nil || !again.Unchanged || !bytes.Equal(again.Code, res.Code) {
				t.Errorf("not idempotent (%v)", err)
			}
			if n := bytes.Count(src, []byte("\n")); bytes.Count(res.Code, []byte("\n")) != n+1 {
				t.Errorf("line count: %d lines in, %d out (want one more, for the script exit)", n, bytes.Count(res.Code, []byte("\n")))
			}
		})
	}
}

// TestSemantics runs every golden case, and MemInsight's test programs,
// under node, original and instrumented with the stub shim
// (testdata/stub.js, whose hooks perform the writes and calls they stand
// for), and compares their output.
func TestSemantics(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testcorpus.Missing(t, "node not found")
	}
	stub, err := filepath.Abs("testdata/stub.js")
	if err != nil {
		t.Fatal(err)
	}
	files := goldenCases(t)
	progs, _ := filepath.Glob(filepath.Join(meminsight, "programs", "*.js"))
	files = append(files, progs...)
	dir := t.TempDir()
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		goal := goalOf(src)
		res, err := Instrument(src, Options{Goal: goal, File: filepath.Base(f)})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		ext := ".js"
		if goal == js.Module {
			ext = ".mjs"
		}
		// jalangiRC is MemInsight's debug function: a global in its tests.
		orig := filepath.Join(dir, "orig"+ext)
		inst := filepath.Join(dir, "inst"+ext)
		os.WriteFile(orig, src, 0o644)
		os.WriteFile(inst, res.Code, 0o644)
		run := func(file string) (string, bool) {
			cmd := exec.Command(node, "-r", stub, "-e", "globalThis.jalangiRC = function jalangiRC() {}; require(process.argv[1])", file)
			if goal == js.Module || goal == js.Script && strings.Contains(f, "meminsight") {
				cmd = exec.Command(node, "-r", stub, file)
			}
			var out bytes.Buffer
			cmd.Stdout = &out
			cmd.Stderr = &out
			err := cmd.Run()
			// Error messages name the file and differ in stack lines.
			s := out.String()
			if i := strings.Index(s, "\n    at "); i >= 0 {
				s = s[:i]
			}
			s = strings.ReplaceAll(s, inst, orig)
			return s, err == nil
		}
		want, okWant := run(orig)
		got, okGot := run(inst)
		if okWant != okGot || (okWant && got != want) {
			t.Errorf("%s: instrumented run differs\n--- original (ok=%v):\n%s\n--- instrumented (ok=%v):\n%s", f, okWant, want, okGot, got)
		}
	}
}

func TestErrors(t *testing.T) {
	_, err := Instrument([]byte("var a = ;\n"), Options{File: "bad.js"})
	var list *diag.List
	if !errors.As(err, &list) || !strings.HasPrefix(err.Error(), "bad.js:1:9: error:") {
		t.Errorf("syntax error: %v", err)
	}
	_, err = Instrument([]byte("function f() {\n  var __mt$x = 1\n}"), Options{File: "r.js"})
	if !errors.As(err, &list) || !strings.HasPrefix(err.Error(), "r.js:2:7: error: the name __mt$x is reserved") {
		t.Errorf("reserved name: %v", err)
	}
}

func TestIdempotentAndDeterministic(t *testing.T) {
	src := []byte("#!/usr/bin/env node\n'use strict'\nvar x = {a: f()}\n")
	a, err := Instrument(src, Options{Goal: js.CommonJS, File: "x.js"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Instrument(src, Options{Goal: js.CommonJS, File: "x.js"})
	if !bytes.Equal(a.Code, b.Code) {
		t.Error("not deterministic")
	}
	if !bytes.HasPrefix(a.Code, []byte("#!/usr/bin/env node\n'use strict';const H = __mt.S(\"x.js\", \"")) {
		t.Errorf("hashbang and directive must stay first:\n%s", a.Code)
	}
	c, err := Instrument(a.Code, Options{Goal: js.CommonJS, File: "x.js"})
	if err != nil || !c.Unchanged || !bytes.Equal(c.Code, a.Code) {
		t.Errorf("second pass changed the code: %v", err)
	}
	// The sites of the first pass: 3 literal/call/W/X + N + Se + Sr.
	if len(a.Sites) == 0 || a.Sites[len(a.Sites)-1] != (Site{1, 1, 4, 1}) {
		t.Errorf("program site: %v", a.Sites)
	}
}

func FuzzInstrument(f *testing.F) {
	for _, s := range []string{"x = {}", "o.p += f(a)[b]", "for (k in o) ;", "class A extends B { m() { super.m() } }",
		"a?.b.c(d)", "let {a, b: [c = 1]} = o", "label: while (1) break label", "async () => await x"} {
		f.Add(s, uint8(0))
	}
	if files, err := filepath.Glob(filepath.Join(goldenDir, "*.js")); err == nil {
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil && !strings.HasSuffix(p, ".golden.js") {
				f.Add(string(b), uint8(goalOf(b)))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string, g uint8) {
		goal := js.Goal(g % 3)
		if _, err := js.Parse([]byte(src), js.Options{Goal: goal}); err != nil {
			return
		}
		res, err := Instrument([]byte(src), Options{Goal: goal, File: "f.js"})
		if err != nil {
			if strings.Contains(err.Error(), "reserved") {
				return
			}
			t.Fatalf("parse ok, instrument failed: %v", err)
		}
		if res.Unchanged {
			return
		}
		if _, err := js.Parse(res.Code, js.Options{Goal: goal}); err != nil {
			t.Fatalf("output does not parse: %v\n%s", err, res.Code)
		}
	})
}
