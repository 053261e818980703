//go:build !race

package collector

// The load test runs without the race detector (make test runs it
// apart): under it, 5 GB through the checker and the websockets' masking
// takes most of CI's budget, and the race tests cover the same code on
// smaller traces.

import (
	"context"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/memtrace/memtrace/collector/client"
	"github.com/memtrace/memtrace/trace/tracegen"
	"github.com/memtrace/memtrace/tracedir"
)

// TestLoad: 50 sessions streaming 100 MB each at once over loopback
// arrive byte for byte (sha256 of what was generated against the file),
// complete; the collector's heap stays bounded, not proportional to the
// data.
func TestLoad(t *testing.T) {
	const sessions = 50
	const size = 100 << 20
	tc := startCollector(t, Config{MaxConns: 100})
	var wg sync.WaitGroup
	type result struct {
		name string
		sum  [32]byte
		err  error
	}
	results := make([]result, sessions)
	var peak uint64
	stopWatch := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-stopWatch:
				return
			case <-time.After(200 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
		}
	}()
	start := time.Now()
	for i := 0; i < sessions; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
			defer cancel()
			c, err := client.Dial(ctx, client.Options{URL: tc.URL, Token: tc.Token(), MaxBuffer: 4 << 20, Block: true})
			if err != nil {
				results[i].err = err
				return
			}
			h := sha256.New()
			if err := tracegen.Generate(io.MultiWriter(h, c), tracegen.Options{Bytes: size, Seed: uint64(1000 + i)}); err != nil {
				results[i].err = err
				return
			}
			end, err := c.End(ctx, "exit")
			if err == nil && end.Status != tracedir.StatusComplete {
				t.Errorf("session %d ended %s: %s", i, end.Status, end.Reason)
			}
			results[i] = result{name: c.Session(), err: err}
			copy(results[i].sum[:], h.Sum(nil))
		}(i)
	}
	wg.Wait()
	close(stopWatch)
	wall := time.Since(start)
	var total int64
	for i, r := range results {
		if r.err != nil {
			t.Fatalf("session %d: %v", i, r.err)
		}
		path := filepath.Join(tc.Out(), r.name, tracedir.TraceFile)
		if got := fileSum(t, path); got != r.sum {
			t.Fatalf("session %d (%s): the trace is not what was sent", i, r.name)
		}
		fi, _ := os.Stat(path)
		total += fi.Size()
		os.Remove(path)
	}
	t.Logf("%d sessions, %.0f MB in %v (%.0f MB/s, generation included); peak heap in use %.0f MB", sessions, float64(total)/1e6, wall.Round(time.Millisecond), float64(total)/1e6/wall.Seconds(), float64(peak)/1e6)
	// The clients keep at most 4 MiB each here, in the same process: the
	// bound covers them and the collector's buffers.
	if peak > 1<<30 {
		t.Fatalf("peak heap %d bytes for %d bytes of traces: not bounded", peak, total)
	}
}
