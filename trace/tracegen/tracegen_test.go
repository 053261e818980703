package tracegen

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/trace"
)

func TestGeneratedTracesAreSound(t *testing.T) {
	for _, size := range []int64{64 << 10, 1 << 20, 8 << 20} {
		var buf bytes.Buffer
		require.NoError(t, Generate(&buf, Options{Bytes: size, Seed: uint64(size)}))
		assert.GreaterOrEqual(t, int64(buf.Len()), size)
		assert.Less(t, int64(buf.Len()), size+64<<10)
		rep, err := trace.Check(bytes.NewReader(buf.Bytes()), 5)
		require.NoError(t, err)
		assert.True(t, rep.OK(), "%v", rep.Findings)
		assert.Empty(t, rep.Findings)
		assert.Zero(t, rep.OpenFrames)
	}
}

func TestDeterministic(t *testing.T) {
	var a, b, c bytes.Buffer
	require.NoError(t, Generate(&a, Options{Bytes: 100000, Seed: 7}))
	require.NoError(t, Generate(&b, Options{Bytes: 100000, Seed: 7}))
	require.NoError(t, Generate(&c, Options{Bytes: 100000, Seed: 8}))
	assert.Equal(t, a.Bytes(), b.Bytes())
	assert.NotEqual(t, a.Bytes(), c.Bytes())
}
