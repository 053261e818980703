package noderun

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/trace/tracegen"
)

// TestLiveCheckFileCutBack: the live check's report is taken only when
// the file, once its writer has ended, is the length the check read. A
// check that read entries the writer then cut away (a failed write) gives
// no report, so that the trace is checked again; one that read the whole
// file gives the report of a check from the start.
func TestLiveCheckFileCutBack(t *testing.T) {
	var valid bytes.Buffer
	require.NoError(t, tracegen.Generate(&valid, tracegen.Options{Bytes: 200 << 10, Seed: 7}))
	whole, err := trace.Check(bytes.NewReader(valid.Bytes()), maxFindings)
	require.NoError(t, err)
	require.True(t, whole.OK())
	// More entries after the trace (UPDATE_CURRENT_SCRIPT of script 0).
	extra := bytes.Repeat([]byte{byte(trace.UpdateCurrentScript), 0, 0, 0, 0}, 1000)

	for _, cut := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "mem-trace")
		f, err := os.Create(path)
		require.NoError(t, err)
		live := startLiveCheck(path)
		_, err = f.Write(valid.Bytes())
		require.NoError(t, err)
		_, err = f.Write(extra)
		require.NoError(t, err)
		// Let the check read all of it before the cut.
		time.Sleep(10 * poll)
		if cut {
			require.NoError(t, f.Truncate(int64(valid.Len())))
		}
		require.NoError(t, f.Close())
		rep := live.finish(path)
		if cut {
			assert.Nil(t, rep, "a report of bytes that are gone")
			continue
		}
		require.NotNil(t, rep)
		assert.Equal(t, int64(valid.Len()+len(extra)), rep.Bytes)
		assert.Equal(t, whole.Entries+1000, rep.Entries)
		assert.True(t, rep.OK(), "%v", rep.Findings)
	}
}

// poll is directio's polling period, as a test's unit of waiting.
const poll = 20 * time.Millisecond
