package noderun_test

import (
	"bytes"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

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
	}
	require.Len(t, c.Sessions(), 61)
}

// runProgramCollected runs a MemInsight program as runProgram does, its
// trace streamed to the collector at url, and returns the collector's copy.
func runProgramCollected(t *testing.T, bin, name, url, out string, sess *noderun.Session) []byte {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(testcorpus.Dir(t, "meminsight", "programs"), name+".js"))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "test", "testdata"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "package.json"), []byte("{}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "test", "testdata", name+".js"), src, 0o644))
	var stderr bytes.Buffer
	_, err = noderun.Run(noderun.Options{
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
