//go:build linux

package noderun_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/trace"
)

// cutBackProgram writes a few MiB of trace, idles (the shim writes its
// tail, the live check catches up with the file), then writes more.
const cutBackProgram = `
const keep = [];
let sum = 0;
function burst(n) {
  for (let i = 0; i < n; i++) {
    const o = { i, next: null };
    if (i % 3 === 0) keep.push(o);
    sum += o.i;
  }
}
burst(100000);
setTimeout(() => { burst(200000); console.log("sum", sum, keep.length); }, 1500);
`

// TestLiveCheckTraceCutBack: the check that follows the main trace while
// the program runs may read bytes that the shim then cuts away (a write
// refused by the file size limit: the trace ends after its last whole
// hand-over). session.json must describe the file as it is left: its
// size, its entries, and the reason it ended.
func TestLiveCheckTraceCutBack(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.js")
	require.NoError(t, os.WriteFile(prog, []byte(cutBackProgram), 0o644))
	out := filepath.Join(dir, "out")
	// 5 MB: past the first burst, within the second; SIGXFSZ ignored so
	// that the write fails with EFBIG.
	script := `trap "" XFSZ; ulimit -f ` + strconv.Itoa(5_000_000/512) + `; exec "$0" "$@"`
	cmd := exec.Command("sh", "-c", script, bin, "node", "--out", out, prog)
	cmd.Dir = dir
	got, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", got)
	assert.Contains(t, string(got), "sum ")
	sess := readSession(t, out)
	assert.Equal(t, "incomplete", sess.Status)
	assert.Contains(t, sess.Reason, "writing the trace failed")
	fi, err := os.Stat(filepath.Join(out, "mem-trace"))
	require.NoError(t, err)
	assert.Equal(t, fi.Size(), sess.Bytes, "session.json's size is not the file's")
	assert.Less(t, fi.Size(), int64(5_000_000))
	assert.Greater(t, fi.Size(), int64(2<<20), "the first burst's trace is not there")
	f, err := os.Open(filepath.Join(out, "mem-trace"))
	require.NoError(t, err)
	defer f.Close()
	rep, err := trace.Check(f, 5)
	require.NoError(t, err)
	assert.True(t, rep.OK(), "%v", rep.Findings)
	assert.Equal(t, rep.Entries, sess.Entries, "session.json's entries are not the file's")
	assert.False(t, strings.Contains(sess.Reason, "breaks"), sess.Reason)
}
