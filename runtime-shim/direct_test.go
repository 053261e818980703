//go:build linux

package runtimeshim

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/memtrace/memtrace/trace"
)

// directProgram allocates enough to write some MiB of trace, then idles
// for a while (the shim's idle flush runs), then ends.
const directProgram = `
const keep = [];
for (let i = 0; i < 120000; i++) { const o = { i, next: null }; if (i % 3 === 0) keep.push(o); }
console.log("idle", keep.length);
setTimeout(() => { keep.push({ last: true }); console.log("done"); }, 2500);
`

// TestDirectWrites: a trace written to a regular file goes to the disk by
// direct I/O where the file system takes it (the kernel neither copies it
// into its page cache nor keeps it there), and is the trace the page cache
// path writes, byte for byte (MEMTRACE_DIRECT=0). While the program idles,
// the file holds every byte the shim has handed over, whole entries only:
// the tail short of a block goes through the ordinary descriptor.
func TestDirectWrites(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	prog := instrumentTo(t, dir, "direct.js", []byte(directProgram))

	// The file is read while the program idles in a run of its own: the
	// read brings its pages into the page cache.
	direct := runDirect(t, node, shim, prog, dir, "direct", false, nil)
	buffered := runDirect(t, node, shim, prog, dir, "buffered", false, []string{"MEMTRACE_DIRECT=0"})
	peeked := runDirect(t, node, shim, prog, dir, "peeked", true, nil)
	if direct.resident >= 0 && directIOWorks(t, dir) {
		// A few blocks at most: the tails written through the page cache.
		if direct.resident > direct.pages/20 {
			t.Errorf("direct: %d of the trace's %d pages are in the page cache", direct.resident, direct.pages)
		}
		if buffered.resident < buffered.pages/2 {
			t.Logf("buffered: only %d of %d pages cached (memory pressure?)", buffered.resident, buffered.pages)
		}
	} else {
		t.Logf("the file system of %s takes no direct I/O: the page cache path only", dir)
	}
	final := mustRead(t, direct.path)
	if !bytes.Equal(final, mustRead(t, buffered.path)) {
		t.Fatalf("the direct trace (%d bytes) differs from the page cache's (%d bytes)", len(final), len(mustRead(t, buffered.path)))
	}
	if len(final) < 2<<20 {
		t.Fatalf("trace of %d bytes: too small to go through direct writes", len(final))
	}
	check(t, "direct", final)
	// A file system without direct I/O (tmpfs) gets the same trace
	// through the page cache.
	if shm, err := os.MkdirTemp("/dev/shm", "memtrace-direct-"); err == nil {
		defer os.RemoveAll(shm)
		if directIOWorks(t, shm) {
			t.Logf("%s takes direct I/O", shm)
		}
		r := runDirect(t, node, shim, prog, shm, "tmpfs", false, nil)
		if !bytes.Equal(final, mustRead(t, r.path)) {
			t.Fatalf("the trace written to %s differs", shm)
		}
	}
	if !bytes.Equal(final, mustRead(t, peeked.path)) {
		t.Fatalf("the trace of the run whose file was read while it idled differs")
	}
	for _, r := range []directRun{peeked} {
		if !bytes.HasPrefix(final, r.idle) {
			t.Fatalf("%s: the file while the program idled (%d bytes) is not a prefix of the trace", r.name, len(r.idle))
		}
		// What the file held while idle is whole entries: repairing it
		// cuts nothing.
		if n := wholeEntries(t, r.idle); n != len(r.idle) {
			t.Fatalf("%s: while the program idled the file held %d bytes, of which %d are whole entries", r.name, len(r.idle), n)
		}
		if len(r.idle) < len(final)/2 {
			t.Fatalf("%s: while the program idled the file held %d of the trace's %d bytes", r.name, len(r.idle), len(final))
		}
	}
}

type directRun struct {
	name            string
	path            string
	idle            []byte // the file while the program idled (peek)
	pages, resident int    // the trace's pages, and those in the page cache after the run (-1: unknown)
}

func runDirect(t *testing.T, node, shim, prog, dir, name string, peek bool, env []string) directRun {
	t.Helper()
	out := filepath.Join(dir, name+".trace")
	cmd := exec.Command(node, "-r", shim, prog)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "MEMTRACE_OUT="+out), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := directRun{name: name, path: out, resident: -1}
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || !strings.HasPrefix(lines.Text(), "idle") {
		cmd.Wait()
		t.Fatalf("%s: no idle line: %q\n%s", name, lines.Text(), stderr.String())
	}
	if peek {
		// The idle flush runs every second.
		time.Sleep(1500 * time.Millisecond)
		r.idle = mustRead(t, out)
	}
	for lines.Scan() {
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, stderr.String())
	}
	r.pages, r.resident = residentPages(t, out)
	return r
}

// residentPages reports how many pages path has, and how many of them are
// in the page cache (-1: unknown).
func residentPages(t *testing.T, path string) (pages, resident int) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return 0, -1
	}
	size := int(st.Size())
	m, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return 0, -1
	}
	defer unix.Munmap(m)
	ps := os.Getpagesize()
	vec := make([]byte, (size+ps-1)/ps)
	if _, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(size), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		return len(vec), -1
	}
	for _, v := range vec {
		if v&1 != 0 {
			resident++
		}
	}
	return len(vec), resident
}

// directIOWorks reports whether the file system of dir takes a direct
// write of a 4 KB block from a 4 KB-aligned address, as the shim's probe
// finds one.
func directIOWorks(t *testing.T, dir string) bool {
	path := filepath.Join(dir, "odirect-probe")
	defer os.Remove(path)
	fd, err := unix.Open(path, unix.O_CREAT|unix.O_WRONLY|unix.O_DIRECT, 0o644)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	raw := make([]byte, 2*4096)
	at := (4096 - int(uintptr(unsafe.Pointer(&raw[0]))&4095)) & 4095
	n, err := unix.Write(fd, raw[at:at+4096])
	return err == nil && n == 4096
}

// wholeEntries returns the length of the longest prefix of b made of whole
// entries.
func wholeEntries(t *testing.T, b []byte) int {
	r := trace.NewReader(bytes.NewReader(b))
	n := 0
	for {
		if _, err := r.Next(); err != nil {
			return n
		}
		n = int(r.End())
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
