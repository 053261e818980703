package directio

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// directWorks reports whether dir's file system takes O_DIRECT writes.
func directWorks(t *testing.T, dir string) bool {
	if runtime.GOOS != "linux" {
		return false
	}
	p := filepath.Join(dir, "probe")
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|syscall.O_DIRECT, 0o644)
	if err != nil {
		return false
	}
	defer os.Remove(p)
	defer f.Close()
	_, err = f.Write(alignedBuf(align))
	return err == nil
}

// appendAndCompare appends pieces of random sizes (every case of the
// alignment: empty, under a block, just under and over the least direct
// span, over the buffer) and checks the file after each one.
func appendAndCompare(t *testing.T, dir string, direct bool) *Appender {
	t.Helper()
	path := filepath.Join(dir, "trace")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	a := NewAppender(f, 0)
	t.Cleanup(func() { a.Close() })
	if !direct {
		a.Close() // from now on through the page cache alone
	}
	r := rand.New(rand.NewPCG(1, 2))
	sizes := []int{0, 1, align - 1, align, minDirect - 1, minDirect, minDirect + 1, minDirect + align + 7, appendBuf, 4 * appendBuf, appendBuf + 3*align + 5, 3*appendBuf - 1}
	var want []byte
	for i := 0; i < 120; i++ {
		n := sizes[r.IntN(len(sizes))]
		if i%3 == 0 {
			n = r.IntN(300 << 10)
		}
		p := make([]byte, n)
		for j := range p {
			p[j] = byte(r.Uint32())
		}
		if err := a.Append(p); err != nil {
			t.Fatalf("append %d of %d bytes: %v", i, n, err)
		}
		want = append(want, p...)
		if a.Size() != int64(len(want)) {
			t.Fatalf("after append %d: Size %d, want %d", i, a.Size(), len(want))
		}
		// Another reader sees every byte at once, and no more.
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("after append %d (%d bytes at %d): the file (%d bytes) is not the bytes appended (%d)", i, n, len(want)-n, len(got), len(want))
		}
		if i == 60 {
			// Cut back into the middle of a block, and go on from there.
			cut := int64(len(want)/2 + 123)
			if err := a.Truncate(cut); err != nil {
				t.Fatal(err)
			}
			want = want[:cut]
		}
	}
	return a
}

func TestAppenderWritesExactly(t *testing.T) {
	dir := t.TempDir()
	a := appendAndCompare(t, dir, true)
	if directWorks(t, dir) && !a.Direct() {
		t.Fatalf("%s takes direct I/O, and the Appender did not use it", dir)
	}
	t.Logf("direct: %v", a.Direct())
}

// TestAppenderWithoutDirectIO: the same bytes through the page cache (a
// file system that refuses O_DIRECT, another system than Linux).
func TestAppenderWithoutDirectIO(t *testing.T) {
	if a := appendAndCompare(t, t.TempDir(), false); a.Direct() {
		t.Fatal("Direct after the direct handle was closed")
	}
}

// TestAppenderResumesAFile appends to a file that has bytes already (a
// restarted collector's session), at an unaligned length.
func TestAppenderResumesAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace")
	old := bytes.Repeat([]byte("memtrace"), 10000) // 80000 bytes: not a block multiple
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a := NewAppender(f, int64(len(old)))
	defer a.Close()
	more := bytes.Repeat([]byte{7, 1, 3}, 100000)
	if err := a.Append(more); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, append(old, more...)) {
		t.Fatalf("the file is %d bytes, not the %d before and the %d appended", len(got), len(old), len(more))
	}
}
