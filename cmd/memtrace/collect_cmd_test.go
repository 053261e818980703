package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/collector/client"
	"github.com/memtrace/memtrace/trace/tracegen"
	"github.com/memtrace/memtrace/tracedir"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestCollectFlagErrors(t *testing.T) {
	code, _, errOut := runCmd(t, "", "collect", "--engine", "java")
	require.Equal(t, ExitUsage, code, errOut)
	require.Contains(t, errOut, "--engine-cmd")
	code, _, errOut = runCmd(t, "", "collect", "--engine", "builtin", "--engine-cmd", "cat")
	require.Equal(t, ExitUsage, code, errOut)
	code, _, errOut = runCmd(t, "", "collect", "extra")
	require.Equal(t, ExitUsage, code, errOut)
}

func TestCollectRefusesADirectoryNotItsOwn(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644))
	code, _, errOut := runCmd(t, "", "collect", "--listen", "127.0.0.1:0", "--out", dir)
	require.Equal(t, ExitFailure, code)
	require.Contains(t, errOut, "notes.txt, which memtrace did not write")
	b, _ := os.ReadFile(filepath.Join(dir, "notes.txt"))
	require.Equal(t, "mine", string(b))
}

// TestCollectSessionsAndStop: a session streams and ends; at the stop
// (the signal's stand-in), a connected client is asked to end, ends, and
// its session is complete.
func TestCollectSessionsAndStop(t *testing.T) {
	out := filepath.Join(t.TempDir(), "traces")
	errOut := &syncBuffer{}
	ios := &IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: errOut}
	ready := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var runErr error
	done := make(chan struct{})
	cmd := newCmdCollect(ios, func(o *collectOptions) error {
		o.Ready, o.ctx = ready, ctx
		runErr = collectRun(o)
		close(done)
		return runErr
	})
	cmd.SetArgs([]string{"--listen", "127.0.0.1:0", "--out", out})
	go cmd.Execute()
	addr := <-ready
	printed := errOut.String()
	require.Contains(t, printed, "token: ")
	token := strings.TrimSpace(strings.SplitN(strings.SplitN(printed, "token: ", 2)[1], "\n", 2)[0])
	require.Contains(t, printed, "memtrace node --collector 'ws://"+addr+"/?token="+token+"'")
	require.Contains(t, printed, "status: http://"+addr+"/__memtrace__/?token="+token)

	var data bytes.Buffer
	require.NoError(t, tracegen.Generate(&data, tracegen.Options{Bytes: 1 << 20, Seed: 3}))
	c, err := client.Dial(ctx, client.Options{URL: "ws://" + addr + "/?token=" + token})
	require.NoError(t, err)
	c.Write(data.Bytes())
	end, err := c.End(ctx, "exit")
	require.NoError(t, err)
	require.Equal(t, tracedir.StatusComplete, end.Status, end.Reason)

	// A second client, still streaming at the stop.
	c2, err := client.Dial(ctx, client.Options{URL: "ws://" + addr, Token: token})
	require.NoError(t, err)
	c2.Write(data.Bytes()[:4096])
	cancel()
	select {
	case <-c2.Stopped():
	case <-time.After(10 * time.Second):
		t.Fatal("the client was not asked to stop")
	}
	c2.Write(data.Bytes()[4096:])
	end2, err := c2.End(context.Background(), "stop")
	require.NoError(t, err)
	require.Equal(t, tracedir.StatusComplete, end2.Status, end2.Reason)
	<-done
	require.NoError(t, runErr)
	s, err := tracedir.ReadSession(filepath.Join(out, c2.Session()))
	require.NoError(t, err)
	require.Equal(t, "stop", s.EndReason)
	got, _ := os.ReadFile(filepath.Join(out, c2.Session(), tracedir.TraceFile))
	require.Equal(t, data.Bytes(), got)
	st, err := os.Stat(filepath.Join(out, ".memtrace-token"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
}
