package web

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/instrument/js"
)

func newRewriter(t *testing.T, cache string) *Rewriter {
	t.Helper()
	c, err := collector.New(collector.Config{Out: filepath.Join(t.TempDir(), "traces")})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	rw, err := New(Options{Collector: c, CacheDir: cache})
	require.NoError(t, err)
	t.Cleanup(func() { rw.Close() })
	return rw
}

// TestDiskCache: instrumented code is kept on disk by its digest and read
// back by the next Rewriter (a proxy started again); an entry that does
// not end with its own digest (torn, altered) is made again; a cache
// others may write to is refused (it would put code in every page).
func TestDiskCache(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	src := []byte("var a = [{x: 1}];\n")
	code, err := newRewriter(t, dir).Script(src, js.Script, "https://a.test/a.js")
	require.NoError(t, err)
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, ents, 1)
	file := filepath.Join(dir, ents[0].Name())

	// What the next Rewriter serves is the file's.
	marked := []byte("/* from the cache */ " + string(code))
	sum := sha256.Sum256(marked)
	require.NoError(t, os.WriteFile(file, append(marked, sum[:]...), 0o600))
	got, err := newRewriter(t, dir).Script(src, js.Script, "https://a.test/a.js")
	require.NoError(t, err)
	require.Equal(t, string(marked), string(got))

	// A torn entry is made again.
	require.NoError(t, os.WriteFile(file, marked[:10], 0o600))
	got, err = newRewriter(t, dir).Script(src, js.Script, "https://a.test/a.js")
	require.NoError(t, err)
	require.Equal(t, string(code), string(got))

	require.NoError(t, os.Chmod(dir, 0o777))
	c, err := collector.New(collector.Config{Out: filepath.Join(t.TempDir(), "traces")})
	require.NoError(t, err)
	defer c.Close()
	_, err = New(Options{Collector: c, CacheDir: dir})
	require.Error(t, err)
}

// TestOneInstrumentationAtATime: requests for the same script at once
// share one instrumentation (the finishing pass, run once per
// instrumentation, counts them), and all get the same code.
func TestOneInstrumentationAtATime(t *testing.T) {
	c, err := collector.New(collector.Config{Out: filepath.Join(t.TempDir(), "traces")})
	require.NoError(t, err)
	defer c.Close()
	var made atomic.Int32
	rw, err := New(Options{Collector: c, Finish: func(code []byte) []byte { made.Add(1); return code }})
	require.NoError(t, err)
	defer rw.Close()
	src := []byte("function f(n) { var o = []; for (var i = 0; i < n; i++) o.push({i: i}); return o; }\n")
	var wg sync.WaitGroup
	out := make([][]byte, 16)
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := rw.Script(src, js.Script, "/f.js")
			require.NoError(t, err)
			out[i] = c
		}()
	}
	wg.Wait()
	for _, c := range out[1:] {
		require.Equal(t, string(out[0]), string(c))
	}
	require.Equal(t, int32(1), made.Load(), "the same script was instrumented more than once")
	require.Len(t, rw.flight, 0)
	require.Len(t, rw.memo, 1)
}
