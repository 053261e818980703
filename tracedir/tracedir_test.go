package tracedir

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/safefs"
)

func TestSessionRoundTrip(t *testing.T) {
	dir := t.TempDir()
	d, err := Claim(dir)
	require.NoError(t, err)
	defer d.Close()
	s := &Session{Tool: "memtrace", Kind: "node", Script: "app.js", Status: "complete", Children: []Child{{Pid: 7, Trace: "children/1-7/mem-trace"}}}
	require.NoError(t, WriteSession(d, s))
	got, err := ReadSession(dir)
	require.NoError(t, err)
	assert.Equal(t, SchemaVersion, got.Schema)
	assert.Equal(t, "app.js", got.Script)
	assert.Equal(t, 7, got.Children[0].Pid)
	b, err := os.ReadFile(filepath.Join(dir, SessionFile))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(b), "{\n  \"schema\": 1,\n"), "%s", b)

	// No schema: version 1; a later one is refused, saying so.
	_, err = ParseSession("s.json", []byte(`{"tool":"memtrace"}`))
	require.NoError(t, err)
	_, err = ParseSession("s.json", []byte(`{"schema":99,"tool":"memtrace"}`))
	require.ErrorContains(t, err, "s.json: schema 99, newer than this memtrace reads (1)")

	_, err = ReadSession(t.TempDir())
	require.ErrorIs(t, err, ErrNoSession)
}

func TestClaim(t *testing.T) {
	base := t.TempDir()
	// New, then marked: taken again.
	d, err := Claim(filepath.Join(base, "new"))
	require.NoError(t, err)
	d.Close()
	assert.True(t, IsTraceDir(filepath.Join(base, "new")))
	d, err = Claim(filepath.Join(base, "new"))
	require.NoError(t, err)
	d.Close()
	// A directory of the user's: refused, naming a file.
	user := filepath.Join(base, "user")
	require.NoError(t, os.MkdirAll(user, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(user, "notes.txt"), []byte("mine"), 0o644))
	_, err = Claim(user)
	var w *safefs.InTheWayError
	require.ErrorAs(t, err, &w)
	assert.False(t, IsTraceDir(user))
	// What an older memtrace node wrote: taken and marked.
	old := filepath.Join(base, "old")
	require.NoError(t, os.MkdirAll(filepath.Join(old, ChildrenDir), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(old, TraceFile), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(old, SessionFile), []byte(`{"tool":"memtrace","kind":"node"}`), 0o644))
	assert.True(t, IsOlder(old))
	d, err = Claim(old)
	require.NoError(t, err)
	d.Close()
	_, err = os.Stat(filepath.Join(old, MarkFile))
	require.NoError(t, err)
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, TraceFile), []byte("bytes"), 0o644))
	for _, arg := range []string{dir, filepath.Join(dir, TraceFile)} {
		in, err := Open(arg, nil)
		require.NoError(t, err)
		b, err := io.ReadAll(in.R)
		require.NoError(t, err)
		assert.Equal(t, "bytes", string(b))
		assert.Equal(t, filepath.Join(dir, TraceFile), in.Name)
		assert.True(t, in.File)
		assert.EqualValues(t, 5, in.Size)
		assert.Equal(t, arg == dir, in.Dir == dir)
		require.NoError(t, in.Close())
	}
	in, err := Open("-", strings.NewReader("stdin"))
	require.NoError(t, err)
	assert.Equal(t, "<stdin>", in.Name)
	_, err = Open(filepath.Join(dir, "nope"), nil)
	require.True(t, errors.Is(err, os.ErrNotExist))

	// A collector's output holds trace directories, not a trace: the
	// error names one to give instead.
	out := t.TempDir()
	for _, name := range []string{"0002-b", "0001-a"} {
		require.NoError(t, os.MkdirAll(filepath.Join(out, name), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(out, name, TraceFile), nil, 0o644))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(out, "not-a-session"), 0o755))
	_, err = Open(out, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "2 trace directories")
	assert.Contains(t, err.Error(), filepath.Join(out, "0001-a"))
	_, err = Open(t.TempDir(), nil)
	require.True(t, errors.Is(err, os.ErrNotExist))
}

// TestScripts: sources are kept under names of memtrace's, whatever the
// script's name (a path that climbs out, a URL, eval), found again by the
// name, and checked against their digest; a link planted at a file's
// name is replaced, not written through.
func TestScripts(t *testing.T) {
	dir := t.TempDir()
	d, err := Claim(dir)
	require.NoError(t, err)
	defer d.Close()
	victim := filepath.Join(t.TempDir(), "victim")
	require.NoError(t, os.WriteFile(victim, []byte("victim"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ScriptsDir), 0o755))
	require.NoError(t, os.Symlink(victim, filepath.Join(dir, ScriptsDir, "0001-app.js")))

	srcs := map[string]string{
		"/srv/app.js":                          "console.log(1);\n",
		"../../etc/passwd":                     "x\n",
		"https://example.test/a/b.js?v=3#frag": "y\n",
		"eval":                                 "z\n",
	}
	names := []string{"/srv/app.js", "../../etc/passwd", "https://example.test/a/b.js?v=3#frag", "eval", "missing.js", "/srv/app.js"}
	require.NoError(t, WriteScripts(d, names, func(n string) []byte {
		if s, ok := srcs[n]; ok {
			return []byte(s)
		}
		return nil
	}))
	b, err := os.ReadFile(victim)
	require.NoError(t, err)
	assert.Equal(t, "victim", string(b))

	idx, err := ReadScripts(dir)
	require.NoError(t, err)
	var files []string
	for _, s := range idx.Scripts {
		files = append(files, s.File)
	}
	assert.Equal(t, []string{"0001-app.js", "0002-passwd", "0003-b.js", "0004-eval"}, files)
	for n, want := range srcs {
		got, err := ScriptSource(dir, n)
		require.NoError(t, err, n)
		assert.Equal(t, want, string(got), n)
	}
	_, err = ScriptSource(dir, "missing.js")
	require.ErrorIs(t, err, os.ErrNotExist)

	// Changed on disk: refused.
	require.NoError(t, os.WriteFile(filepath.Join(dir, ScriptsDir, "0004-eval"), []byte("changed"), 0o644))
	_, err = ScriptSource(dir, "eval")
	require.ErrorContains(t, err, "is not what the index says")
	// An index naming a path: refused.
	require.NoError(t, os.WriteFile(filepath.Join(dir, ScriptsDir, IndexFile),
		[]byte(`{"schema":1,"scripts":[{"name":"x","file":"../session.json","bytes":1,"sha256":""}]}`), 0o644))
	_, err = ScriptSource(dir, "x")
	require.ErrorContains(t, err, "is not a file name of scripts/")
}

func TestSafeBase(t *testing.T) {
	for in, want := range map[string]string{
		"a/b/c.js":               "c.js",
		"C:\\x\\y.mjs":           "y.mjs",
		"https://h/p/q.js?x=1":   "q.js",
		"..":                     "script",
		"dir/":                   "dir",
		"weird name \x1b[31m.js": "weird_name___31m.js",
		"":                       "script",
		strings.Repeat("a", 100): strings.Repeat("a", 64),
	} {
		assert.Equal(t, want, SafeBase(in), "%q", in)
	}
}
