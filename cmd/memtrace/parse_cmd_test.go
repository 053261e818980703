package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCommand(t *testing.T) {
	code, out, errOut := runCmd(t, "var a = 1;\nlet x = ;\n", "parse", "-")
	assert.Equal(t, ExitFailure, code)
	assert.Empty(t, out)
	assert.Equal(t, "<stdin>:2:9: error: unexpected \";\"\n    let x = ;\n            ^\n", errOut)

	code, _, errOut = runCmd(t, "return 1", "parse", "-")
	assert.Equal(t, ExitFailure, code, "a script cannot return")
	assert.Contains(t, errOut, "<stdin>:1:1: error:")
	code, _, errOut = runCmd(t, "return 1", "parse", "--goal", "commonjs", "-")
	assert.Equal(t, ExitOK, code, errOut)

	dir := t.TempDir()
	mjs := filepath.Join(dir, "a.mjs")
	require.NoError(t, os.WriteFile(mjs, []byte("export default 1"), 0o644))
	code, out, _ = runCmd(t, "", "parse", "--json", mjs)
	assert.Equal(t, ExitOK, code)
	assert.JSONEq(t, `{"file":"`+mjs+`","goal":"module","ok":true}`, out)
	code, _, errOut = runCmd(t, "", "parse", "--goal", "script", mjs)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, errOut, mjs+":1:1: error:")

	code, _, errOut = runCmd(t, "", "parse", "--goal", "esm", mjs)
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, errOut, `unknown --goal "esm"`)

	code, _, errOut = runCmd(t, "", "parse", filepath.Join(dir, "missing.js"))
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, errOut, "no such file")
}

// TestModuleSyntaxDetection: a .js file whose package.json names no "type"
// is a module when it parses only as one, as Node runs it; under
// "type": "commonjs", or with --goal, it is what it is said to be.
func TestModuleSyntaxDetection(t *testing.T) {
	dir := t.TempDir()
	esm := "import fs from 'fs';\nexport const f = () => fs;\n"
	for rel, text := range map[string]string{
		"package.json":       `{"name": "x"}`,
		"typed/package.json": `{"type": "commonjs"}`,
		"a.js":               esm,
		"typed/a.js":         esm,
		"c.js":               "let x = 1; exports.x = x;\n",
		"bad.js":             "let = 1; import fs from 'fs';\n",
	} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644))
	}
	untyped, typed := filepath.Join(dir, "a.js"), filepath.Join(dir, "typed", "a.js")
	cjs, bad := filepath.Join(dir, "c.js"), filepath.Join(dir, "bad.js")

	for _, c := range []struct {
		file, goal string
	}{{untyped, "module"}, {cjs, "commonjs"}} {
		code, out, errOut := runCmd(t, "", "parse", "--json", c.file)
		assert.Equal(t, ExitOK, code, errOut)
		assert.JSONEq(t, `{"file":"`+c.file+`","goal":"`+c.goal+`","ok":true}`, out)
	}
	code, _, errOut := runCmd(t, "", "parse", typed)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, errOut, typed+":1:1: error: import declarations may only appear in modules")
	code, _, errOut = runCmd(t, "", "parse", "--goal", "commonjs", untyped)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, errOut, untyped+":1:1: error: import declarations may only appear in modules")
	// Invalid either way: CommonJS's error, as Node reports it.
	code, _, errOut = runCmd(t, "", "parse", bad)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, errOut, bad+":1:10: error: import declarations may only appear in modules")

	// instrument: the module's output, which plain node runs as a module.
	out := filepath.Join(dir, "out.js")
	code, _, errOut = runCmd(t, "", "instrument", untyped, "-o", out)
	require.Equal(t, ExitOK, code, errOut)
	code, _, errOut = runCmd(t, "", "parse", "--json", "--goal", "module", out)
	assert.Equal(t, ExitOK, code, errOut)
	code, _, errOut = runCmd(t, "", "instrument", typed, "-o", filepath.Join(dir, "typed.out.js"))
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, errOut, "import declarations may only appear in modules")
	assert.NoFileExists(t, filepath.Join(dir, "typed.out.js"))
}

func TestParseSpans(t *testing.T) {
	code, out, _ := runCmd(t, "f(a)", "parse", "--spans", "-")
	assert.Equal(t, ExitOK, code)
	assert.Equal(t, "Program 0-4 1:1-1:5\n  ExprStmt 0-4 1:1-1:5\n    Call 0-4 1:1-1:5\n      Ident 0-1 1:1-1:2\n      Ident 2-3 1:3-1:4\n", out)

	// Columns count UTF-16 code units.
	_, out, _ = runCmd(t, "'😀';x", "parse", "--spans", "--json", "-")
	var last spanRecord
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		require.NoError(t, json.Unmarshal([]byte(line), &last))
	}
	assert.Equal(t, spanRecord{Kind: "Ident", Start: 7, End: 8, Loc: "1:6-1:7", Depth: 2}, last)
}

func TestParseScopes(t *testing.T) {
	src := "function o(a) {\n  var b;\n  return () => a + b + this.x + g;\n}\n"
	code, out, _ := runCmd(t, src, "parse", "--scopes", "-")
	assert.Equal(t, ExitOK, code)
	assert.Equal(t, `program (anonymous) 1:1-5:1  captured []  free [g]
declaration o 1:1-4:2  captured []  free [g]  uses [this]
arrow (anonymous) 3:10-3:34  captured [a b]  free [a b g]
`, out)
	_, out, _ = runCmd(t, src, "parse", "--scopes", "--json", "-")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 3)
	var r scopeRecord
	require.NoError(t, json.Unmarshal([]byte(lines[2]), &r))
	assert.Equal(t, []string{"a", "b"}, r.Captured)
}
