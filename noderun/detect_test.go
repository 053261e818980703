package noderun_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

// detectFiles: a package whose package.json names no "type", with an ES
// module in a .js file (Node's module syntax detection runs it as one) and
// a CommonJS .js file beside it, loaded each way Node loads a file.
var detectFiles = map[string]string{
	"package.json": "{}\n",
	// An ES module by its text alone.
	"esm.js": `import { inspect } from 'node:util';
export const made = [];
export function make(n) {
  for (let i = 0; i < n; i++) made.push({ i, tag: inspect(i) });
  return made.length;
}
export function boom() {
  const o = { a: 1 };
  return o.b.c;
}
`,
	"cjs.js": "exports.twice = (x) => 2 * x;\n",
	// The entry point itself an ES module by its text.
	"main.js": `import { make, boom } from './esm.js';
import { twice } from './cjs.js';
console.log('main', make(3), twice(4));
try { boom(); } catch (e) { console.log(e.stack.split('\n').slice(0, 2).join('|')); }
`,
	// require(esm) of it: Node compiles it in the CommonJS loader.
	"req.cjs": `const m = require('./esm.js');
console.log('require', Object.keys(m).sort().join(), m.make(2), require('./cjs.js').twice(5));
try { m.boom(); } catch (e) { console.log(e.stack.split('\n').slice(0, 2).join('|')); }
`,
	"dyn.cjs": `import('./esm.js').then((m) => console.log('import()', m.make(4)));
`,
	"imp.mjs": `import { make } from './esm.js';
console.log('import', make(1));
`,
}

// TestModuleSyntaxDetection: ES modules in .js files of a package that
// names no "type", which Node runs as modules by their text, are
// instrumented as modules under memtrace node whichever way they load
// (the entry point, import, import(), require), and ahead of time by
// memtrace instrument; each run prints what plain node prints. Before,
// memtrace instrumented them as CommonJS, which failed: they ran
// uninstrumented, with a warning.
func TestModuleSyntaxDetection(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	for name, text := range detectFiles {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	stack := func(frame string) string {
		return "TypeError: Cannot read properties of undefined (reading 'c')|    at " + frame + " (file://" + filepath.Join(dir, "esm.js") + ":9:14)\n"
	}
	for _, c := range []struct {
		script, want string
		scripts      []string
	}{
		{"main.js", "main 3 8\n" + stack("boom"), []string{"cjs.js", "esm.js", "main.js"}},
		{"req.cjs", "require boom,made,make 2 10\n" + stack("Module.boom"), []string{"cjs.js", "esm.js", "req.cjs"}},
		{"dyn.cjs", "import() 4\n", []string{"dyn.cjs", "esm.js"}},
		{"imp.mjs", "import 1\n", []string{"esm.js", "imp.mjs"}},
	} {
		t.Run(c.script, func(t *testing.T) {
			stderr, out := plainThenTraced(t, dir, c.script, c.want)
			assert.NotContains(t, stderr, "runs uninstrumented")
			assert.Equal(t, c.scripts, scriptNames(t, cleanTrace(t, filepath.Join(out, "mem-trace"))))
		})
	}
	// Node's flags: with detection off, require() still detects (it
	// follows require(esm)) and the entry point does not; with require(esm)
	// off, require() does not. Where Node does not detect, memtrace node
	// fails as plain node does.
	t.Run("flags", func(t *testing.T) {
		stderr, out := plainThenTraced(t, dir, "req.cjs", "require boom,made,make 2 10\n"+stack("Module.boom"), "--no-experimental-detect-module")
		assert.NotContains(t, stderr, "runs uninstrumented")
		assert.Equal(t, []string{"cjs.js", "esm.js", "req.cjs"}, scriptNames(t, cleanTrace(t, filepath.Join(out, "mem-trace"))))
		for _, c := range []struct{ script, flag string }{
			{"main.js", "--no-experimental-detect-module"},
			{"req.cjs", "--no-experimental-require-module"},
		} {
			plain := exec.Command("node", c.flag, c.script)
			plain.Dir = dir
			var plainErr bytes.Buffer
			plain.Stderr = &plainErr
			require.Error(t, plain.Run(), c.script)
			require.Contains(t, plainErr.String(), "SyntaxError: Cannot use import statement outside a module", c.script)
			var stdout, stderr bytes.Buffer
			code, err := noderun.Run(noderun.Options{Script: c.script, OutDir: filepath.Join(t.TempDir(), "out"), NodeArgs: []string{c.flag},
				Memtrace: memtracebin.Path(t), Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr})
			require.NoError(t, err)
			assert.Equal(t, plain.ProcessState.ExitCode(), code, "%s %s: %s", c.flag, c.script, stderr.String())
			assert.Contains(t, stderr.String(), "SyntaxError: Cannot use import statement outside a module", c.script)
		}
	})
	t.Run("ahead", func(t *testing.T) {
		// Under plain node, stack positions are the instrumented file's.
		got, _, tr := runAhead(t, dir, "req.cjs")
		assert.Regexp(t, `^require boom,made,make 2 10\nTypeError: Cannot read properties of undefined \(reading 'c'\)\|    at Module.boom \(file://.*/esm.js:9:\d+\)\n$`, got)
		assert.Equal(t, []string{"cjs.js", "esm.js", "req.cjs"}, scriptNames(t, cleanTrace(t, tr)))
	})
}
