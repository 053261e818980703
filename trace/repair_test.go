package trace_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/trace"
)

// TestRepairEveryCut: a real trace cut at every byte (a process killed
// while writing) is repaired into a prefix of whole entries that passes
// every rule, possibly plus one END_LAST_USE; a trace that needs nothing is
// left byte for byte.
func TestRepairEveryCut(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testcorpus.Dir(t, "meminsight", "traces"), "testRefCount5.mem-trace"))
	require.NoError(t, err)
	rep, err := trace.Check(bytes.NewReader(src), 1)
	require.NoError(t, err)
	require.True(t, rep.OK())
	dir := t.TempDir()
	p := filepath.Join(dir, "mem-trace")

	require.NoError(t, os.WriteFile(p, src, 0o644))
	r, err := trace.Repair(p)
	require.NoError(t, err)
	assert.False(t, r.Changed())
	got, _ := os.ReadFile(p)
	assert.Equal(t, src, got)

	closed, cut := 0, 0
	for n := 0; n < len(src); n++ {
		require.NoError(t, os.WriteFile(p, src[:n], 0o644))
		r, err := trace.Repair(p)
		require.NoError(t, err, "cut at %d", n)
		got, err := os.ReadFile(p)
		require.NoError(t, err)
		keep := len(got)
		if r.Closed {
			closed++
			require.Equal(t, byte(trace.EndLastUse), got[keep-1], "cut at %d", n)
			keep--
		}
		if r.Cut > 0 {
			cut++
		}
		require.LessOrEqual(t, keep, n)
		require.Equal(t, src[:keep], got[:keep], "cut at %d: the kept bytes change", n)
		require.EqualValues(t, len(got), r.Bytes)
		if len(got) == 0 {
			continue
		}
		c, err := trace.Check(bytes.NewReader(got), 5)
		require.NoError(t, err)
		if c.Time < 0 {
			continue // no counted entry yet: nothing to analyse
		}
		require.True(t, c.OK(), "cut at %d: %v", n, c.Findings)
		require.EqualValues(t, c.Entries, r.Entries, "cut at %d", n)
	}
	assert.Positive(t, closed, "no cut fell inside a last-use block")
	assert.Positive(t, cut)
}

// TestRepairLeavesCorruptionAlone: bytes that are wrong (not missing) are
// not a kill's truncation: Repair refuses and changes nothing.
func TestRepairLeavesCorruptionAlone(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testcorpus.Dir(t, "meminsight", "traces"), "testRefCount5.mem-trace"))
	require.NoError(t, err)
	bad := append([]byte{}, src...)
	r := trace.NewReader(bytes.NewReader(src))
	for i := 0; i < 20; i++ {
		_, err := r.Next()
		require.NoError(t, err)
	}
	bad[r.Offset()] = 0x7f // the type of the 20th entry: no such type
	p := filepath.Join(t.TempDir(), "mem-trace")
	require.NoError(t, os.WriteFile(p, bad, 0o644))
	_, err = trace.Repair(p)
	require.Error(t, err)
	got, _ := os.ReadFile(p)
	assert.Equal(t, bad, got)
}
