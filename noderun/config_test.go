package noderun_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

// TestOneConfiguration (issue 55, item 2): the shim's settings reach node
// one way, MEMTRACE_CONFIG (runtimeshim.Config as JSON), not a variable
// each; the preload, the loader hooks and the shim read it (the run's
// modes take effect: --compact leaves out entries, --exclude leaves a
// module uninstrumented) and the program's process.env has none of it.
func TestOneConfiguration(t *testing.T) {
	needNode(t)
	real, err := exec.LookPath("node")
	require.NoError(t, err)
	dir := t.TempDir()
	envFile := filepath.Join(dir, "node-env")
	wrapper := filepath.Join(dir, "node-wrapper")
	require.NoError(t, os.WriteFile(wrapper, []byte("#!/bin/sh\nenv > '"+envFile+"'\nexec '"+real+"' \"$@\"\n"), 0o755))
	writeProg(t, dir, "const v = require('./vendor/v.js');\nconsole.log(v.x, Object.keys(process.env).filter((k) => k.startsWith('MEMTRACE_')).length);\n")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "vendor"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "vendor", "v.js"), []byte("module.exports = { x: [1, 2].map((a) => a * 2).join() };\n"), 0o644))
	out := filepath.Join(dir, "out")
	code, stdout, stderr, err := runIn(t, dir, out, func(o *noderun.Options) {
		o.Node = wrapper
		o.Compact = true
		o.DebugFun = "dbg"
		o.Exclude = []string{"vendor/**"}
	})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "2,4 0\n", stdout)

	b, err := os.ReadFile(envFile)
	require.NoError(t, err)
	var cfg *runtimeshim.Config
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, "=")
		switch k {
		case runtimeshim.ConfigVar:
			cfg = &runtimeshim.Config{}
			require.NoError(t, json.Unmarshal([]byte(v), cfg))
		case "MEMTRACE_OUT", "MEMTRACE_BIN", "MEMTRACE_STATUS", "MEMTRACE_DEBUG_FUN", "MEMTRACE_ALL_USES",
			"MEMTRACE_ALL_PUTFIELDS", "MEMTRACE_COMPACT", "MEMTRACE_EXCLUDE":
			t.Errorf("node was given %s: the configuration goes in %s", k, runtimeshim.ConfigVar)
		}
	}
	require.NotNil(t, cfg, "no %s in node's environment", runtimeshim.ConfigVar)
	assert.Equal(t, filepath.Join(out, "mem-trace"), cfg.Out)
	assert.True(t, cfg.Compact)
	assert.Equal(t, "dbg", cfg.DebugFun)
	assert.Equal(t, []string{"vendor/**"}, cfg.Exclude)
	assert.NotEmpty(t, cfg.Bin)

	s := readSession(t, out)
	assert.True(t, s.Compact)
	data, err := os.ReadFile(filepath.Join(out, "mem-trace"))
	require.NoError(t, err)
	assert.Contains(t, string(data), utf16LE("p.js"))
	assert.NotContains(t, string(data), utf16LE("vendor/v.js"), "an excluded module is not in the trace")
}

// utf16LE is an ASCII name as the trace writes strings (UTF-16LE).
func utf16LE(s string) string {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r), 0)
	}
	return string(b)
}
