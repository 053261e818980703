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
