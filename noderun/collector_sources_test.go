package noderun_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/internal/flakynet"
	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/tracedir"
)

// sourcesProgram loads a module, runs vm code with a file name of its
// own and eval code, and writes a few MiB of trace.
var sourcesProgram = map[string]string{
	"p.js": "const lib = require('./lib.js');\n" +
		"const vm = require('vm');\n" +
		"const made = vm.runInThisContext('(function made(n) { return { n, at: [n] }; })', { filename: 'made-by-vm.js' });\n" +
		"const keep = [];\n" +
		"for (let i = 0; i < 60000; i++) keep.push(lib.item(i), made(i));\n" +
		"console.log(eval('keep.length'), lib.count());\n",
	"lib.js": "let n = 0;\nexports.item = (i) => { n++; return { i, s: 'x' + i }; };\nexports.count = () => n;\n",
}

// TestCollectorKeepsSources: memtrace node --collector sends each named
// script's original source for the session's scripts/ (the program, its
// module, vm code under its file name; eval code has no name of its own
// and is not kept), also over a connection cut again and again, and the
// trace is still the one memtrace node --out writes.
func TestCollectorKeepsSources(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	dir := t.TempDir()
	for name, src := range sourcesProgram {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	run := func(o noderun.Options) string {
		var stdout, stderr bytes.Buffer
		o.Script, o.Memtrace, o.Shim, o.Dir, o.Stdout, o.Stderr = "p.js", bin, runtimeshim.Source(), dir, &stdout, &stderr
		code, err := noderun.Run(o)
		require.NoError(t, err)
		require.Equal(t, 0, code, stderr.String())
		require.Equal(t, "120000 60000\n", stdout.String())
		return stderr.String()
	}
	out := filepath.Join(t.TempDir(), "file")
	run(noderun.Options{OutDir: out})
	want, err := os.ReadFile(filepath.Join(out, tracedir.TraceFile))
	require.NoError(t, err)

	c, url := startTestCollector(t, collector.Config{})
	base, token, _ := strings.Cut(url, "/?token=")
	relay := flakynet.Start(t, strings.TrimPrefix(base, "ws://"), 64<<10, 3<<20, 6)
	var sess noderun.Session
	stderr := run(noderun.Options{Collector: "ws://" + relay.Addr + "/?token=" + token, Session: &sess})
	require.Equal(t, tracedir.StatusComplete, sess.Status, "%s; stderr: %s", sess.Reason, stderr)
	require.Equal(t, int32(6), relay.Cuts.Load(), "the relay did not cut the connection as often as it should")
	sd := filepath.Join(c.Out(), sess.Collector)
	got, err := os.ReadFile(filepath.Join(sd, tracedir.TraceFile))
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "the collector has %d bytes, the file %d", len(got), len(want))

	idx, err := tracedir.ReadScripts(sd)
	require.NoError(t, err)
	var names []string
	for _, s := range idx.Scripts {
		names = append(names, s.Name)
	}
	require.ElementsMatch(t, []string{"p.js", "lib.js", "made-by-vm.js"}, names)
	for name, src := range sourcesProgram {
		b, err := tracedir.ScriptSource(sd, name)
		require.NoError(t, err)
		require.Equal(t, src, string(b), name)
	}
	b, err := tracedir.ScriptSource(sd, "made-by-vm.js")
	require.NoError(t, err)
	require.Equal(t, "(function made(n) { return { n, at: [n] }; })", string(b))
	s, err := tracedir.ReadSession(sd)
	require.NoError(t, err)
	require.Equal(t, 3, s.Scripts)
}

// TestCollectorAheadOfTimeKeepsNoInstrumentedText: code instrumented ahead
// of time has only its instrumented text at hand, which is not the source
// its sites are in: no source is sent for it, rather than a wrong one.
func TestCollectorAheadOfTimeKeepsNoInstrumentedText(t *testing.T) {
	needNode(t)
	c, url := startTestCollector(t, collector.Config{})
	dir := t.TempDir()
	writeProg(t, dir, "const a = [];\nfor (let i = 0; i < 10; i++) a.push({ i });\nconsole.log(a.length);\n")
	base, token, _ := strings.Cut(url, "?token=")
	out, stderr, _ := runAhead(t, dir, "p.js", "MEMTRACE_COLLECTOR="+base, "MEMTRACE_TOKEN="+token)
	require.Equal(t, "10\n", out)
	require.Empty(t, stderr)
	names := c.Sessions()
	require.Len(t, names, 1)
	sd := filepath.Join(c.Out(), names[0])
	s, err := tracedir.ReadSession(sd)
	require.NoError(t, err)
	require.Equal(t, tracedir.StatusComplete, s.Status, s.Reason)
	idx, err := tracedir.ReadScripts(sd)
	require.NoError(t, err)
	require.Empty(t, idx.Scripts)
}
