package project

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testcorpus"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRunTree: goals from package.json and extensions, TypeScript renamed,
// declaration files and other files copied with their modes, node_modules
// copied but not instrumented, globs, symbolic links, a syntax error
// reported and copied, and the output running under plain node (CommonJS
// requiring an ES module's neighbour, and an ES module importing CommonJS).
func TestRunTree(t *testing.T) {
	in := filepath.Join(t.TempDir(), "app")
	write(t, in, map[string]string{
		"package.json":              `{"name":"app"}`,
		"main.js":                   "#!/usr/bin/env node\n'use strict'\nconst lib = require('./lib');\nconst o = {n: lib.twice(21)};\nconsole.log(JSON.stringify(o), require('./ts').three(), require('dep').dep);\n",
		"lib.js":                    "exports.twice = x => 2 * x;\n",
		"ts.ts":                     "export function three(): number { const n: number = 3; return n; }\n",
		"types.d.ts":                "export declare const x: number;\n",
		"esm/package.json":          `{"type":"module"}`,
		"esm/m.js":                  "import lib from '../lib.js';\nimport { createRequire } from 'node:module';\nconsole.log('esm', lib.twice(2));\n",
		"esm/broken.js":             "let = = 1;\n",
		"detect.js":                 "import lib from './lib.js';\nconsole.log('detect', lib.twice(3));\n",
		"typed/package.json":        `{"type":"commonjs"}`,
		"typed/esm.js":              "export const x = 1;\n",
		"data.json":                 `{"x":1}`,
		"vendor/skip.js":            "module.exports = 1;\n",
		"node_modules/dep/index.js": "exports.dep = 'dep';\n",
	})
	if err := os.Chmod(filepath.Join(in, "main.js"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("lib.js", filepath.Join(in, "alias.js")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	opts := Options{In: in, Out: out, Rules: []Rule{{Pattern: "vendor", Include: false}}, Cache: t.TempDir(), ToolID: "test"}
	sum, err := Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Instrumented != 5 || sum.Failed != 2 || sum.Links != 1 {
		t.Errorf("summary %+v: want 5 instrumented (main, lib, ts, esm/m, detect), 2 failed, 1 link", sum)
	}
	failed := map[string]string{}
	for _, f := range sum.Failures {
		var b strings.Builder
		if err := f.Render(&b, false); err != nil {
			t.Fatal(err)
		}
		failed[f.Path] = b.String()
	}
	if len(failed) != 2 || !strings.Contains(failed["esm/broken.js"], filepath.Join(in, "esm", "broken.js")+":1:") ||
		!strings.Contains(failed["typed/esm.js"], filepath.Join(in, "typed", "esm.js")+":1:1: error: export declarations may only appear in modules") {
		t.Errorf("failures %+v: want esm/broken.js:1:COL and typed/esm.js (\"type\": \"commonjs\": no detection)", sum.Failures)
	}
	for name, want := range map[string]string{
		"main.js":                   `;if(!globalThis.__mt)require("./.memtrace-shim.cjs");;const H = __mt.S("main.js"`,
		"lib.js":                    `;if(!globalThis.__mt)require("./.memtrace-shim.cjs");const H = __mt.S("lib.js"`,
		"esm/m.js":                  `;import "../.memtrace-shim.cjs";var H = __mt$h(); function __mt$h() { return H || (H = __mt.S("esm/m.js"`,
		"ts.js":                     `__mt.S("ts.ts"`,
		"types.d.ts":                "export declare const x: number;\n",
		"esm/broken.js":             "let = = 1;\n",
		"detect.js":                 `;import "./.memtrace-shim.cjs";var H = __mt$h(); function __mt$h() { return H || (H = __mt.S("detect.js"`,
		"typed/esm.js":              "export const x = 1;\n",
		"vendor/skip.js":            "module.exports = 1;\n",
		"node_modules/dep/index.js": "exports.dep = 'dep';\n",
		"data.json":                 `{"x":1}`,
	} {
		if got := read(t, filepath.Join(out, name)); !strings.Contains(got, want) {
			t.Errorf("%s: %.200q does not contain %q", name, got, want)
		}
	}
	// The hashbang and the directive stay first, on their lines.
	if got := read(t, filepath.Join(out, "main.js")); !strings.HasPrefix(got, "#!/usr/bin/env node\n'use strict';if(!globalThis.__mt)") {
		t.Errorf("main.js begins %.80q", got)
	}
	if fi, err := os.Stat(filepath.Join(out, "main.js")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("main.js mode: %v %v", fi.Mode(), err)
	}
	if target, err := os.Readlink(filepath.Join(out, "alias.js")); err != nil || target != "lib.js" {
		t.Errorf("alias.js: %q %v", target, err)
	}
	if _, err := os.Stat(filepath.Join(out, "ts.ts")); err == nil {
		t.Errorf("ts.ts was copied beside ts.js")
	}
	if read(t, filepath.Join(out, instrument.ShimFile)) == "" {
		t.Errorf("no shim file")
	}
	// The input is untouched.
	if got := read(t, filepath.Join(in, "lib.js")); got != "exports.twice = x => 2 * x;\n" {
		t.Errorf("the input changed: %q", got)
	}

	// Instrumenting the output again changes nothing.
	for _, name := range []string{"main.js", "esm/m.js", "lib.js", "detect.js"} {
		src := []byte(read(t, filepath.Join(out, name)))
		goal, byText := (&runner{goals: map[string]dirGoal{}}).goalOf(filepath.Join(out, name))
		res, err := instrument.Instrument(src, instrument.Options{Goal: goal, File: name})
		if err != nil && byText { // decided by its text, as the runner does
			res, err = instrument.Instrument(src, instrument.Options{Goal: js.Module, File: name})
		}
		if err != nil || !res.Unchanged {
			t.Errorf("%s instrumented again: unchanged=%v err=%v", name, res != nil && res.Unchanged, err)
		}
	}

	// Plain node runs it, the trace goes to MEMTRACE_OUT.
	if node, err := exec.LookPath("node"); err != nil {
		testcorpus.Missing(t, "node not found on PATH")
	} else {
		for _, script := range []string{"main.js", "esm/m.js", "detect.js"} {
			tr := filepath.Join(t.TempDir(), "mem-trace")
			cmd := exec.Command(node, script)
			cmd.Dir = out
			cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+tr)
			b, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("node %s: %v\n%s", script, err, b)
				continue
			}
			if fi, err := os.Stat(tr); err != nil || fi.Size() == 0 {
				t.Errorf("node %s: no trace", script)
			}
			t.Logf("node %s: %s", script, strings.TrimSpace(string(b)))
		}
	}

	// A second run: nothing to write; a changed input is written again.
	sum2, err := Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum2.UpToDate != sum.Instrumented+sum.Copied || sum2.Instrumented != sum.Instrumented || len(sum2.Failures) != 2 {
		t.Errorf("second run %+v, first %+v", sum2, sum)
	}
	write(t, in, map[string]string{"lib.js": "exports.twice = x => x + x;\n"})
	sum3, err := Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum3.Misses != 1 || !strings.Contains(read(t, filepath.Join(out, "lib.js")), "x + x") {
		t.Errorf("after a change: %+v", sum3)
	}
	// With a manifest it cannot read (an older layout's), everything is
	// written again, from the cache. (Without one, OUT would not be
	// memtrace's: TestRunOutNotOurs.)
	if err := os.WriteFile(filepath.Join(out, ManifestFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sum4, err := Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum4.CacheHits != sum.Instrumented || sum4.Misses != 0 {
		t.Errorf("from the cache: %+v", sum4)
	}

	// --node-modules, and an include list.
	out2 := filepath.Join(t.TempDir(), "out2")
	sum5, err := Run(Options{In: in, Out: out2, NodeModules: true, Rules: []Rule{{Pattern: "node_modules/**", Include: true}}, ToolID: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if sum5.Instrumented != 1 || !strings.Contains(read(t, filepath.Join(out2, "node_modules/dep/index.js")), `require("../../.memtrace-shim.cjs")`) {
		t.Errorf("include node_modules only: %+v", sum5)
	}
	// Strict: the broken file is not written.
	out3 := filepath.Join(t.TempDir(), "out3")
	sum6, err := Run(Options{In: in, Out: out3, Strict: true, ToolID: "test"})
	if err != nil || sum6.Failed != 2 {
		t.Fatalf("strict: %+v %v", sum6, err)
	}
	if _, err := os.Stat(filepath.Join(out3, "esm/broken.js")); err == nil {
		t.Errorf("strict: esm/broken.js written")
	}
}

// TestRunRefusesOverlap: the output may not be the input, inside it, or
// contain it.
func TestRunRefusesOverlap(t *testing.T) {
	base := t.TempDir()
	in := filepath.Join(base, "app")
	write(t, in, map[string]string{"a.js": "1;\n"})
	link := filepath.Join(base, "link")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{in, filepath.Join(in, "out"), filepath.Join(link, "x", "y"), base} {
		_, err := Run(Options{In: in, Out: out, ToolID: "test"})
		if err == nil || !strings.Contains(err.Error(), "never writes into the input tree") {
			t.Errorf("out %s: %v", out, err)
		}
	}
	if _, err := os.Stat(filepath.Join(in, "out")); err == nil {
		t.Errorf("wrote into the input tree")
	}
}

func TestOutputName(t *testing.T) {
	for in, want := range map[string]string{
		"a/x.ts": "a/x.js", "x.mts": "x.mjs", "x.cts": "x.cjs", "x.tsx": "x.js", "x.jsx": "x.js",
		"x.d.ts": "x.d.ts", "x.d.mts": "x.d.mts", "x.js": "x.js", "x.json": "x.json", "X.TS": "X.js",
	} {
		if got := OutputName(in); got != want {
			t.Errorf("OutputName(%s) = %s, want %s", in, got, want)
		}
	}
}
