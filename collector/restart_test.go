package collector

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/memtrace/memtrace/collector/client"
	"github.com/memtrace/memtrace/tracedir"
)

// TestHelperCollector is the collector process of TestKill9: it serves
// a collector on MEMTRACE_TEST_COLLECTOR (addr,out,fsync) until killed.
func TestHelperCollector(t *testing.T) {
	spec := os.Getenv("MEMTRACE_TEST_COLLECTOR")
	if spec == "" {
		t.Skip("the helper process of TestKill9")
	}
	parts := strings.Split(spec, ",")
	c, err := New(Config{Out: parts[1], Token: "feedfacefeedfacefeedfacefeedface", Fsync: parts[2] == "1",
		ResumeWait: 3 * time.Second, Log: log.New(os.Stderr, "helper: ", 0), FreeSpace: func() (int64, error) { return 1 << 40, nil }})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", parts[0])
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("ready")
	http.Serve(ln, c)
}

func startHelper(t *testing.T, addr, out string, fsync bool) *exec.Cmd {
	t.Helper()
	f := "0"
	if fsync {
		f = "1"
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperCollector$", "-test.v")
	cmd.Env = append(os.Environ(), "MEMTRACE_TEST_COLLECTOR="+addr+","+out+","+f)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if sc.Text() == "ready" {
			go func() {
				for sc.Scan() {
				}
			}()
			return cmd
		}
		if strings.HasPrefix(sc.Text(), "error:") {
			t.Fatal(sc.Text())
		}
	}
	t.Fatal("the helper collector did not start")
	return nil
}

// TestKill9 kills the collector process mid-stream: every acknowledged
// byte is on disk; restarted on the same directory, it resumes the
// sessions whose clients come back (byte for byte) and marks the one
// that does not incomplete with its last sequence number.
func TestKill9(t *testing.T) {
	for _, fsync := range []bool{false, true} {
		t.Run(fmt.Sprintf("fsync=%v", fsync), func(t *testing.T) { testKill9(t, fsync) })
	}
}

func testKill9(t *testing.T, fsync bool) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	out := filepath.Join(t.TempDir(), "out")
	helper := startHelper(t, addr, out, fsync)
	const token = "feedfacefeedfacefeedfacefeedface"
	const n = 4
	datas := make([][]byte, n)
	clients := make([]*client.Client, n)
	ctx := context.Background()
	for i := range clients {
		datas[i] = genTrace(t, uint64(40+i), 3<<20)
		c, err := client.Dial(ctx, client.Options{URL: "ws://" + addr, Token: token, ChunkSize: 16 << 10, ResumeWait: 20 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		clients[i] = c
	}
	// Half of each trace, then the kill, while the writes go on.
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func(c *client.Client, data []byte) {
			defer wg.Done()
			for off := 0; off < len(data)/2; off += 4096 {
				c.Write(data[off:min(off+4096, len(data)/2)])
			}
		}(c, datas[i])
	}
	wg.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, b := clients[0].Acked()
		if b > 256<<10 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	helper.Process.Signal(syscall.SIGKILL)
	helper.Wait()
	for i, c := range clients {
		seq, acked := c.Acked()
		if seq < 0 {
			continue
		}
		got, err := os.ReadFile(filepath.Join(out, c.Session(), tracedir.TraceFile))
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(got)) < acked || !bytes.Equal(got[:acked], datas[i][:acked]) {
			t.Fatalf("session %d: %d bytes acknowledged (chunk %d), %d on disk after kill -9, or they differ", i, acked, seq, len(got))
		}
	}
	// The last client does not come back.
	clients[n-1].Abort()
	lost := clients[n-1]
	lostSeq, _ := lost.Acked()
	startHelper(t, addr, out, fsync)
	for i, c := range clients[:n-1] {
		data := datas[i]
		for off := len(data) / 2; off < len(data); off += 4096 {
			c.Write(data[off:min(off+4096, len(data))])
		}
		ectx, cancel := context.WithTimeout(ctx, time.Minute)
		end, err := c.End(ectx, "exit")
		cancel()
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		if end.Status != tracedir.StatusComplete {
			t.Fatalf("session %d ended %s: %s", i, end.Status, end.Reason)
		}
		got, _ := os.ReadFile(filepath.Join(out, c.Session(), tracedir.TraceFile))
		if !bytes.Equal(got, data) {
			t.Fatalf("session %d: %d bytes, %d sent, or they differ", i, len(got), len(data))
		}
		if c.Reconnects() == 0 {
			t.Fatalf("session %d did not reconnect", i)
		}
	}
	// The session whose client is gone ends after the collector's wait.
	var s *tracedir.Session
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		s, err = tracedir.ReadSession(filepath.Join(out, lost.Session()))
		if err == nil && s.Status == tracedir.StatusIncomplete {
			break
		}
	}
	if s == nil || s.Status != tracedir.StatusIncomplete || !strings.Contains(s.Reason, "the collector restarted") || s.Received.LastSeq < lostSeq ||
		!strings.Contains(s.Reason, fmt.Sprintf("the last sequence number is %d", s.Received.LastSeq)) {
		t.Fatalf("the abandoned session: %+v", s)
	}
}

// TestRestartInProcess closes a collector (its sessions kept on disk) and
// opens another on the same directory; a client resumes.
func TestRestartInProcess(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	tc := startCollector(t, Config{Out: out})
	data := genTrace(t, 50, 1<<20)
	ctx := context.Background()
	c, err := client.Dial(ctx, client.Options{URL: tc.URL, Token: tc.Token(), ChunkSize: 8 << 10, ResumeWait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	c.Write(data[:len(data)/2])
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if _, b := c.Acked(); b > 64<<10 {
			break
		}
	}
	addr := tc.srv.Listener.Addr().String()
	tc.srv.CloseClientConnections()
	tc.srv.Close()
	tc.Collector.Close()
	c2, err := New(Config{Out: out, Log: log.New(tc.log, "", 0), FreeSpace: tc.cfg.FreeSpace})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if c2.Token() != tc.Token() {
		t.Fatal("the token changed across restarts")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: c2}
	go srv.Serve(ln)
	defer srv.Close()
	c.Write(data[len(data)/2:])
	end, err := c.End(ctx, "exit")
	if err != nil || end.Status != tracedir.StatusComplete {
		t.Fatalf("%v %+v", err, end)
	}
	if !bytes.Equal(traceBytes(t, out, c.Session()), data) {
		t.Fatal("the resumed trace differs")
	}
}
