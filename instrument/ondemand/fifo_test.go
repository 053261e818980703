//go:build unix

package ondemand

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLaunchFIFORefuses: a directory that is missing, not a directory,
// open to others, or already holds the FIFOs is refused with its reason,
// and nothing is made or started (self does not exist: a start would
// fail differently).
func TestLaunchFIFORefuses(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	open := filepath.Join(base, "open")
	require.NoError(t, os.Mkdir(open, 0o755))
	taken := filepath.Join(base, "taken")
	require.NoError(t, os.Mkdir(taken, 0o700))
	require.NoError(t, syscall.Mkfifo(filepath.Join(taken, fifoRequests), 0o600))
	for dir, want := range map[string]string{
		filepath.Join(base, "missing"): "no such file",
		file:                           "not a private directory",
		open:                           "not a private directory",
		taken:                          "file exists",
	} {
		err := LaunchFIFO("/nonexistent/memtrace", dir, 0, nil)
		require.Error(t, err, dir)
		assert.Contains(t, err.Error(), want, dir)
	}
	ents, err := os.ReadDir(open)
	require.NoError(t, err)
	assert.Empty(t, ents, "FIFOs made in a directory open to others")
	ents, err = os.ReadDir(taken)
	require.NoError(t, err)
	assert.Len(t, ents, 1, "the taken directory's FIFO was not left as it was")

	// A server that does not start: the FIFOs made for it go again.
	ok := filepath.Join(base, "ok")
	require.NoError(t, os.Mkdir(ok, 0o700))
	require.Error(t, LaunchFIFO("/nonexistent/memtrace", ok, 0, nil))
	ents, err = os.ReadDir(ok)
	require.NoError(t, err)
	assert.Empty(t, ents, "FIFOs left for a server that did not start")
}

// TestServeFIFO: ServeFIFO answers a request on the FIFOs as Serve does
// on pipes, ends when the client closes its end, and removes the FIFOs
// and their directory; with an idle limit it ends on its own when no
// request comes, closing its end (the client reads the end of its
// answers). Fails if it outlives the client, or leaves the directory.
func TestServeFIFO(t *testing.T) {
	for _, idle := range []time.Duration{0, 100 * time.Millisecond} {
		dir := filepath.Join(t.TempDir(), "fifos")
		require.NoError(t, os.Mkdir(dir, 0o700))
		for _, n := range []string{fifoRequests, fifoAnswers} {
			require.NoError(t, syscall.Mkfifo(filepath.Join(dir, n), 0o600))
		}
		done := make(chan error, 1)
		go func() { done <- ServeFIFO(dir, idle, Options{}) }()
		w, err := os.OpenFile(filepath.Join(dir, fifoRequests), os.O_WRONLY, 0)
		require.NoError(t, err)
		r, err := os.OpenFile(filepath.Join(dir, fifoAnswers), os.O_RDONLY, 0)
		require.NoError(t, err)
		br := bufio.NewReader(r)
		ask := func() {
			_, err := io.WriteString(w, request(7, "evalIndirect", "script", "var o = { a: 1 };"))
			require.NoError(t, err)
			line, err := br.ReadBytes('\n')
			require.NoError(t, err)
			var resp Response
			require.NoError(t, json.Unmarshal(line, &resp))
			assert.Equal(t, int64(7), resp.ID)
			assert.Empty(t, resp.Error)
			code := make([]byte, resp.Len)
			_, err = io.ReadFull(br, code)
			require.NoError(t, err)
			assert.Contains(t, string(code), "var o = ")
		}
		if idle == 0 {
			ask()
			require.NoError(t, w.Close())
		} else {
			// The shim starts a server for the string it sends next:
			// before its first request the server waits however long
			// that takes (it left after idle, and a program slow to send
			// its first string, on a loaded machine, lost each new server
			// until it gave up on them).
			require.NoError(t, r.SetReadDeadline(time.Now().Add(3*idle)))
			_, err := r.Read(make([]byte, 1))
			require.ErrorIs(t, err, os.ErrDeadlineExceeded, "the server left before its first request")
			require.NoError(t, r.SetReadDeadline(time.Time{}))
			ask()
			// Then no request: the server leaves, and its end closes (a
			// deadline, so that a server that stays fails the test).
			require.NoError(t, r.SetReadDeadline(time.Now().Add(5*time.Second)))
			start := time.Now()
			n, err := r.Read(make([]byte, 1))
			assert.Equal(t, 0, n)
			assert.ErrorIs(t, err, io.EOF)
			assert.Less(t, time.Since(start), 5*time.Second)
			w.Close()
		}
		select {
		case err := <-done:
			require.NoError(t, err, "idle %v", idle)
		case <-time.After(5 * time.Second):
			t.Fatalf("idle %v: the server still runs 5 s after its client closed or went quiet", idle)
		}
		r.Close()
		_, err = os.Lstat(dir)
		assert.ErrorIs(t, err, os.ErrNotExist, "idle %v: the FIFOs' directory is left", idle)
	}
}

// TestRemoveFIFOsOnlyFIFOs: what is left of a server's directory is
// removed only if it is a FIFO, and the directory only if it is empty
// then (the --fifo-serve flag names any directory).
func TestRemoveFIFOsOnlyFIFOs(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, fifoRequests), []byte("keep"), 0o600))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, fifoAnswers), 0o600))
	removeFIFOs(dir)
	b, err := os.ReadFile(filepath.Join(dir, fifoRequests))
	require.NoError(t, err)
	assert.Equal(t, "keep", string(b))
	_, err = os.Lstat(filepath.Join(dir, fifoAnswers))
	assert.ErrorIs(t, err, os.ErrNotExist)
}
