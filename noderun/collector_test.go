package noderun_test

import (
	"bytes"
	"context"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/tracedir"
)

func startTestCollector(t *testing.T, cfg collector.Config) (*collector.Collector, string) {
	t.Helper()
	if cfg.Out == "" {
		cfg.Out = filepath.Join(t.TempDir(), "collected")
	}
	cfg.Log = log.New(io.Discard, "", 0)
	c, err := collector.New(cfg)
	require.NoError(t, err)
	srv := httptest.NewServer(c)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		c.Close()
	})
	return c, "ws" + strings.TrimPrefix(srv.URL, "http") + "/?token=" + c.Token()
}

// TestCollectorGivesTheFileTrace: memtrace node --collector on each of
// MemInsight's programs streams the same bytes, to a session of their own,
// as memtrace node --out writes.
func TestCollectorGivesTheFileTrace(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	c, url := startTestCollector(t, collector.Config{})
	progs, _ := filepath.Glob(filepath.Join(testcorpus.Dir(t, "meminsight", "programs"), "*.js"))
	sort.Strings(progs)
	require.Len(t, progs, 61)
	for _, p := range progs {
		name := strings.TrimSuffix(filepath.Base(p), ".js")
		file := runProgram(t, bin, name)
		var sess noderun.Session
		streamed := runProgramCollected(t, bin, name, url, c.Out(), &sess)
		require.Equal(t, tracedir.StatusComplete, sess.Status, "%s: %s", name, sess.Reason)
		got, err := tracedir.ReadSession(filepath.Join(c.Out(), sess.Collector))
		require.NoError(t, err)
		require.Equal(t, tracedir.StatusComplete, got.Status, "%s: %s", name, got.Reason)
		require.True(t, bytes.Equal(file, streamed), "%s: the collector has %d bytes, the file %d", name, len(streamed), len(file))
		// The program's source went to the session's scripts/.
		src, err := tracedir.ScriptSource(filepath.Join(c.Out(), sess.Collector), "test/testdata/"+name+".js")
		require.NoError(t, err, name)
		orig, err := os.ReadFile(p)
		require.NoError(t, err)
		require.Equal(t, string(bytes.TrimPrefix(orig, []byte("\xef\xbb\xbf"))), string(src), name)
	}
	require.Len(t, c.Sessions(), 61)
}

// runProgramCollected runs a MemInsight program as runProgram does, its
// trace streamed to the collector at url, and returns the collector's copy.
func runProgramCollected(t *testing.T, bin, name, url, out string, sess *noderun.Session) []byte {
	t.Helper()
	dir := programDir(t, name)
	var stderr bytes.Buffer
	_, err := noderun.Run(noderun.Options{
		Script: "test/testdata/" + name + ".js", DebugFun: "jalangiRC", Collector: url, Session: sess,
		Memtrace: bin, Shim: runtimeshim.Source(), Dir: dir, Stdout: &bytes.Buffer{}, Stderr: &stderr,
	})
	require.NoError(t, err)
	require.NotEmpty(t, sess.Collector, "%s: %s; stderr: %s", name, sess.Reason, stderr.String())
	// memtrace node writes nothing of its own with --collector.
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		require.Contains(t, []string{"test", "package.json"}, e.Name())
	}
	b, err := os.ReadFile(filepath.Join(out, sess.Collector, tracedir.TraceFile))
	require.NoError(t, err)
	return b
}

// TestCollectorAheadOfTime: a tree instrumented ahead of time and run with
// plain node, MEMTRACE_COLLECTOR set, streams the trace its MEMTRACE_OUT
// run writes.
func TestCollectorAheadOfTime(t *testing.T) {
	needNode(t)
	c, url := startTestCollector(t, collector.Config{})
	dir := t.TempDir()
	writeProg(t, dir, "const m = new Map();\nfor (let i = 0; i < 2000; i++) m.set(i, { i, s: 'x' + i });\nconsole.log(m.size);\n")
	out, _, path := runAhead(t, dir, "p.js")
	require.Equal(t, "2000\n", out)
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	base, token, _ := strings.Cut(url, "?token=")
	out2, stderr, _ := runAhead(t, dir, "p.js", "MEMTRACE_COLLECTOR="+base, "MEMTRACE_TOKEN="+token, "MEMTRACE_OUT=/nonexistent/never-written")
	require.Equal(t, "2000\n", out2)
	require.Empty(t, stderr)
	names := c.Sessions()
	require.Len(t, names, 1)
	s, err := tracedir.ReadSession(filepath.Join(c.Out(), names[0]))
	require.NoError(t, err)
	require.Equal(t, tracedir.StatusComplete, s.Status, s.Reason)
	got, err := os.ReadFile(filepath.Join(c.Out(), names[0], tracedir.TraceFile))
	require.NoError(t, err)
	require.Equal(t, want, got)
}

// TestCollectorUnreachable: a program whose collector cannot be reached
// runs as it would, says why its trace is lost, and ends within the wait.
func TestCollectorUnreachable(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeProg(t, dir, "console.log([1, 2, 3].map((x) => x * 2).join());\nprocess.exitCode = 3;\n")
	var stdout, stderr bytes.Buffer
	var sess noderun.Session
	start := time.Now()
	code, err := noderun.Run(noderun.Options{Script: "p.js", Collector: "ws://127.0.0.1:1/?token=x", Session: &sess,
		Memtrace: memtracebin.Path(t), Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr,
		Env: []string{"MEMTRACE_COLLECTOR_WAIT=2"}})
	require.NoError(t, err)
	require.Equal(t, 3, code)
	require.Equal(t, "2,4,6\n", stdout.String())
	require.Less(t, time.Since(start), 15*time.Second)
	require.NotContains(t, stderr.String(), "token=x", "the token is not shown")
	require.Equal(t, tracedir.StatusIncomplete, sess.Status)
	require.Contains(t, stderr.String(), "memtrace: the collector at ws://127.0.0.1:1/ could not be reached")
	require.Contains(t, sess.Reason, "could not be reached")
}

// TestCollectorWrongToken: refused at once, said, the program unharmed.
func TestCollectorWrongToken(t *testing.T) {
	needNode(t)
	c, url := startTestCollector(t, collector.Config{})
	base, _, _ := strings.Cut(url, "?token=")
	dir := t.TempDir()
	writeProg(t, dir, "console.log('ok');\n")
	var stdout, stderr bytes.Buffer
	var sess noderun.Session
	code, err := noderun.Run(noderun.Options{Script: "p.js", Collector: base + "?token=wrong", Session: &sess,
		Memtrace: memtracebin.Path(t), Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr})
	require.NoError(t, err)
	require.Equal(t, 0, code)
	require.Equal(t, "ok\n", stdout.String())
	require.Contains(t, stderr.String(), "a wrong token")
	require.Equal(t, tracedir.StatusIncomplete, sess.Status)
	require.Empty(t, c.Sessions())
}

// TestCollectorChildProcesses: each node process of the program is a
// session of its own at the collector.
func TestCollectorChildProcesses(t *testing.T) {
	needNode(t)
	c, url := startTestCollector(t, collector.Config{})
	dir := t.TempDir()
	writeProg(t, dir, "const { execFileSync } = require('child_process');\nif (process.argv[2] !== 'child') console.log(execFileSync(process.execPath, [__filename, 'child']).toString().trim());\nelse console.log('from the child');\n")
	var stdout, stderr bytes.Buffer
	var sess noderun.Session
	code, err := noderun.Run(noderun.Options{Script: "p.js", Collector: url, Session: &sess,
		Memtrace: memtracebin.Path(t), Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	require.Equal(t, "from the child\n", stdout.String())
	require.Equal(t, tracedir.StatusComplete, sess.Status, sess.Reason)
	names := c.Sessions()
	require.Len(t, names, 2)
	for _, n := range names {
		s, err := tracedir.ReadSession(filepath.Join(c.Out(), n))
		require.NoError(t, err)
		require.Equal(t, tracedir.StatusComplete, s.Status, "%s: %s", n, s.Reason)
		require.Greater(t, s.Bytes, int64(0))
	}
}

// TestCollectorStop: the collector shutting down asks a running program's
// trace to end; it ends (complete, reason stop) the next time the program
// idles, and the program runs on to its own end.
func TestCollectorStop(t *testing.T) {
	needNode(t)
	c, url := startTestCollector(t, collector.Config{})
	dir := t.TempDir()
	writeProg(t, dir, "let n = 0;\nconst keep = [];\nconst t = setInterval(() => { keep.push({ n }); if (++n === 60) { clearInterval(t); console.log('done', keep.length); } }, 50);\n")
	var stdout, stderr bytes.Buffer
	var sess noderun.Session
	done := make(chan struct{})
	go func() {
		defer close(done)
		code, err := noderun.Run(noderun.Options{Script: "p.js", Collector: url, Session: &sess,
			Memtrace: memtracebin.Path(t), Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr})
		require.NoError(t, err)
		require.Equal(t, 0, code, stderr.String())
	}()
	for deadline := time.Now().Add(20 * time.Second); len(c.Sessions()) == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
	}
	require.Len(t, c.Sessions(), 1)
	name := c.Sessions()[0]
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	require.NoError(t, c.Shutdown(ctx))
	require.Less(t, time.Since(start), 5*time.Second, "the program's trace did not end when asked")
	s, err := tracedir.ReadSession(filepath.Join(c.Out(), name))
	require.NoError(t, err)
	require.Equal(t, tracedir.StatusComplete, s.Status, s.Reason)
	require.Equal(t, "stop", s.EndReason)
	<-done
	require.Equal(t, "done 60\n", stdout.String())
	require.Equal(t, tracedir.StatusIncomplete, sess.Status)
	require.Contains(t, sess.Reason, "the collector asked the trace to end")
}
