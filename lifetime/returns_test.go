package lifetime

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Options.MemInsightReturns on MemInsight's own trace of testRefCount5.js:
//
//	var x = {…}
//	function f() { var y = {…, gt: x}; return function () { var foo = y } }
//	var g = f(); jalangiRC(x); g = null; jalangiRC(x)
//
// MemInsight's engine reclaims the returned closure at its return
// statement's flush, before RETURN, so f's context (and y) dies at f's
// exit: RC(x) is 1 at both debug calls (its golden), under
// MemInsightReturns. By default the closure keeps f's context: y holds x
// until g = null, as in V8.
func TestReturnsRefCount5(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpusDir(t), "traces", "testRefCount5.mem-trace"))
	require.NoError(t, err)
	rc := func(opts Options) string {
		var out bytes.Buffer
		require.NoError(t, WriteRC(&out, bytes.NewReader(data), opts, RCOptions{Testing: true, Verbose: true}))
		return out.String()
	}
	off := rc(Options{MemInsightReturns: true})
	require.Contains(t, off, "testRefCount5.js:25:1:25:13 : RC(testRefCount5.js:17:9:17:31) = 1\n")
	on := rc(Options{})
	lines := strings.Split(on, "\n")
	require.Equal(t, "testRefCount5.js:25:1:25:13 : RC(testRefCount5.js:17:9:17:31) = 2", lines[0])
	require.Equal(t, "testRefCount5.js:27:1:27:13 : RC(testRefCount5.js:17:9:17:31) = 1", lines[1])
	// y (object 7) dies when g = null drops the closure (line 26), not at
	// f's exit; the closure (8) likewise, and its prototype (9) with it.
	require.Contains(t, on, row("7", "testRefCount5.js:19:13:19:41", "28", "testRefCount5.js:26:1:26:8"))
	require.Contains(t, on, row("8", "testRefCount5.js:20:12:22:6", "28", "testRefCount5.js:26:1:26:8"))
}
