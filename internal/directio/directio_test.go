package directio

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

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
	if f, err := openDirect(path); err != nil {
		t.Skipf("no direct I/O here: %v", err)
	} else {
		f.Close()
	}
	ended := make(chan struct{})
	close(ended)
	r := newReader(path, ended, 0, func(n int) []byte { return alignedBuf(n + 1)[1:] })
	got, err := io.ReadAll(r)
	require.NoError(t, err)
	<-r.done
	assert.False(t, r.direct, "the misaligned read did not fail: the fallback was not taken")
	assert.True(t, bytes.Equal(want, got), "read back %d bytes of %d, or different", len(got), len(want))
	require.NoError(t, r.Close())
}

// TestFollowsAWriter: Follow reads a file that another writer appends to
// as the runtime shim does (whole blocks by direct I/O where it can, and a
// tail under a block through the page cache now and then, which the next
// whole block writes again; a probe block at the start, cut away before
// any entry), and returns every byte once the writer has ended, not one
// of the probe's.
func TestFollowsAWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace")
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	// The probe: a block of bytes that are not the data, then cut.
	_, err = f.WriteAt(bytes.Repeat([]byte{0xEE}, align), 0)
	require.NoError(t, err)
	ended := make(chan struct{})
	r := Follow(path, ended, align)
	defer r.Close()
	require.NoError(t, f.Truncate(0))
	rng := rand.New(rand.NewPCG(5, 6))
	want := make([]byte, 0, 6*bufSize)
	var got []byte
	readDone := make(chan error)
	go func() {
		var err error
		got, err = io.ReadAll(r)
		readDone <- err
	}()
	written := int64(0)
	for len(want) < 5*bufSize {
		// Append a run of bytes; write the whole blocks, and the tail
		// (under a block) now and then.
		k := 1 + rng.IntN(3*bufSize/2)
		for i := 0; i < k; i++ {
			want = append(want, byte(rng.Uint32()|1)) // never 0xEE's pattern alone
		}
		whole := int64(len(want)) &^ (align - 1)
		if whole > written {
			_, err := f.WriteAt(want[written:whole], written)
			require.NoError(t, err)
			written = whole
		}
		if rng.IntN(2) == 0 && int64(len(want)) > written {
			_, err := f.WriteAt(want[written:], written)
			require.NoError(t, err)
		}
		time.Sleep(time.Duration(rng.IntN(30)) * time.Millisecond)
	}
	_, err = f.WriteAt(want[written:], written)
	require.NoError(t, err)
	close(ended)
	require.NoError(t, <-readDone)
	assert.Equal(t, len(want), len(got))
	assert.True(t, bytes.Equal(want, got), "the bytes read differ from those written")
}

// TestFollowNoFile: a file that never appears is an error once the writer
// has ended.
func TestFollowNoFile(t *testing.T) {
	ended := make(chan struct{})
	r := Follow(filepath.Join(t.TempDir(), "none"), ended, 0)
	defer r.Close()
	close(ended)
	_, err := io.ReadAll(r)
	assert.ErrorIs(t, err, os.ErrNotExist)
}
