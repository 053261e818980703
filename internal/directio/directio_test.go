package directio

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadsWholeFile: files of sizes around the buffer and block sizes
// (empty, one byte, a block less one, several buffers and a tail) read
// back byte for byte, in reads of odd sizes, on the test's temporary
// directory and on /dev/shm (tmpfs takes O_DIRECT since Linux 6.6, and
// refused it at open before: then Open reads through the page cache).
func TestReadsWholeFile(t *testing.T) {
	dirs := []string{t.TempDir()}
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		d, err := os.MkdirTemp("/dev/shm", "directio-")
		require.NoError(t, err)
		t.Cleanup(func() { os.RemoveAll(d) })
		dirs = append(dirs, d)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dir := range dirs {
		for _, size := range []int{0, 1, align - 1, align, align + 1, bufSize - 1, bufSize, bufSize + 1, bufs*bufSize + 12345, 7*bufSize + align} {
			want := make([]byte, size)
			for i := range want {
				want[i] = byte(rng.Uint32())
			}
			path := filepath.Join(dir, "f")
			require.NoError(t, os.WriteFile(path, want, 0o644))
			f, err := Open(path)
			require.NoError(t, err)
			var got bytes.Buffer
			p := make([]byte, 70001)
			for {
				n, err := f.Read(p[:1+rng.IntN(len(p)-1)])
				got.Write(p[:n])
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
			}
			require.NoError(t, f.Close())
			assert.True(t, bytes.Equal(want, got.Bytes()), "%s: %d bytes read back as %d, or different", dir, size, got.Len())
		}
	}
}

// TestCloseEarly: closing before the end stops the read-ahead and closes
// the file.
func TestCloseEarly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(path, make([]byte, 10*bufSize), 0o644))
	f, err := Open(path)
	require.NoError(t, err)
	p := make([]byte, 100)
	_, err = f.Read(p)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.NoError(t, f.Close())
}

// TestFallsBackToPageCache: a direct read the file system refuses
// (EINVAL: here, into buffers that are not aligned) goes on through the
// page cache from the same offset, and the bytes are all there.
func TestFallsBackToPageCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	want := make([]byte, 3*bufSize+777)
	for i := range want {
		want[i] = byte(i * 7)
	}
	require.NoError(t, os.WriteFile(path, want, 0o644))
	f, err := openDirect(path)
	if err != nil {
		t.Skipf("no direct I/O here: %v", err)
	}
	// Misaligned buffers.
	r := newReader(f, path, func() []byte { return alignedBuf(bufSize + 1)[1:] })
	got, err := io.ReadAll(r)
	require.NoError(t, err)
	<-r.done
	assert.False(t, r.direct, "the misaligned read did not fail: the fallback was not taken")
	assert.True(t, bytes.Equal(want, got), "read back %d bytes of %d, or different", len(got), len(want))
	require.NoError(t, r.Close())
}
