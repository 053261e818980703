package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNodeArgs: --node-arg gives node its own options (before the script),
// each once, and session.json records them; a bad one is node's error and
// exit status.
func TestNodeArgs(t *testing.T) {
	demoSetup(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "args.js")
	require.NoError(t, os.WriteFile(script, []byte("console.log(typeof gc, JSON.stringify(process.execArgv.filter((a) => !a.startsWith('--require'))), process.argv.slice(2).join(' '));\n"), 0o644))
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCmd(t, "", "node", "--out", out, "--node-arg=--expose-gc", "--node-arg", "--max-old-space-size=3000", script, "--node-arg=x", "y")
	require.Equal(t, ExitCode(0), code, stderr)
	assert.Equal(t, "function [\"--expose-gc\",\"--max-old-space-size=3000\"] --node-arg=x y\n", stdout)
	data, err := os.ReadFile(filepath.Join(out, "session.json"))
	require.NoError(t, err)
	var sess struct {
		NodeArgs []string `json:"nodeArgs"`
		Args     []string `json:"args"`
	}
	require.NoError(t, json.Unmarshal(data, &sess))
	assert.Equal(t, []string{"--expose-gc", "--max-old-space-size=3000"}, sess.NodeArgs)
	assert.Equal(t, []string{"--node-arg=x", "y"}, sess.Args)

	code, _, stderr = runCmd(t, "", "node", "--out", out, "--node-arg=--no-such-node-option", script)
	assert.Equal(t, ExitCode(9), code)
	assert.Contains(t, stderr, "--no-such-node-option")
}

// Issue 54, case 15: memtrace node ends with one line on standard error
// saying where the trace is, its status and the command that reads it
// (none with -q); a script that does not exist gives node's exit status
// and a line that says the trace is incomplete.
func TestNodeEndLine(t *testing.T) {
	demoSetup(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "p.js")
	require.NoError(t, os.WriteFile(script, []byte("console.log('hi');\n"), 0o644))
	out := filepath.Join(dir, "my out")
	code, stdout, stderr := runCmd(t, "", "node", "--out", out, script)
	require.Equal(t, ExitCode(0), code, stderr)
	assert.Equal(t, "hi\n", stdout)
	assert.Regexp(t, `^memtrace: trace in .*my out \(complete, [0-9,]+ entries, [0-9]+ bytes\); read it with: memtrace lifetime --format json '.*my out'\n$`, stderr)

	code, _, stderr = runCmd(t, "", "node", "-q", "--out", out, script)
	require.Equal(t, ExitCode(0), code, stderr)
	assert.Empty(t, stderr)

	// A directory of the user's (here the script's own) is refused.
	code, _, stderr = runCmd(t, "", "node", "--out", dir, script)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, "holds my out, which memtrace did not write: give --out a new or empty directory")

	code, _, stderr = runCmd(t, "", "node", "--out", out, filepath.Join(dir, "nosuch.js"))
	assert.Equal(t, ExitCode(1), code)
	assert.Contains(t, stderr, "Cannot find module")
	assert.Contains(t, stderr, "is incomplete")
	assert.Contains(t, stderr, "no script ran instrumented")
}
