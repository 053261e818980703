package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gorilla/websocket"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/collector/client"
	"github.com/memtrace/memtrace/internal/directio"
	"github.com/memtrace/memtrace/internal/gctune"
	"github.com/memtrace/memtrace/trace/tracegen"
	"github.com/memtrace/memtrace/tracedir"
)

// The collector group (issue 56): -collectsessions sessions streaming
// -collectmb MB each at once over loopback into a collector (a child
// process: its CPU time and peak RSS are its own), without and with
// --fsync, beside two baselines measured in the same run: raw loopback
// websocket throughput (the same clients' bytes, in the same messages,
// to a server that only reads them) and disk write throughput (the same
// number of files of the same size written at once, in the same chunks,
// to the same file system, the way the collector writes them: whole
// blocks with direct I/O, directio.Appender). A third row, for
// reference, writes the same files through the page cache, as the
// collector did before: on a machine with memory to spare that measures
// how fast the kernel takes 5 GB into its cache, not the disk (the bytes
// are still in memory when the writers return), and it is printed with
// its ratio but is not the target's baseline. Throughput is bytes over
// wall time, the median of the runs; every session's trace is compared
// with what was sent (sha256) before it is removed.

var (
	flagCollectSessions = flag.Int("collectsessions", 50, "the collector group's concurrent sessions")
	flagCollectMB       = flag.Int("collectmb", 100, "the collector group's MB per session")
	flagCollectRuns     = flag.Int("collectruns", 3, "the collector group's runs per figure")
)

const collectChunk = 256 << 10

func benchCollector() error {
	dir, err := benchWorkDir("collector-")
	if err != nil {
		return err
	}
	defer dropWorkDir(dir)
	n, size := *flagCollectSessions, int64(*flagCollectMB)<<20
	// Distinct traces (at most 8, reused round robin), so that a session
	// that received another's bytes is caught.
	kinds := min(n, 8)
	datas := make([][]byte, kinds)
	sums := make([][32]byte, kinds)
	for i := range datas {
		var b bytes.Buffer
		b.Grow(int(size) + 1<<20)
		if err := tracegen.Generate(&b, tracegen.Options{Bytes: size, Seed: uint64(100 + i)}); err != nil {
			return err
		}
		datas[i] = b.Bytes()
		sums[i] = sha256.Sum256(datas[i])
	}
	var total int64
	for i := 0; i < n; i++ {
		total += int64(len(datas[i%kinds]))
	}
	type figure struct {
		label  string
		wall   []time.Duration
		cpu    []time.Duration
		client []time.Duration
		rss    []int64
	}
	figs := map[string]*figure{}
	const (
		rawRow   = "raw loopback websocket (baseline)"
		diskRow  = "disk write (baseline)"
		cacheRow = "page-cache write (reference)"
	)
	order := []string{rawRow, diskRow, cacheRow, "collector", "collector --fsync"}
	for _, l := range order {
		figs[l] = &figure{label: l}
	}
	for run := 0; run < *flagCollectRuns; run++ {
		for _, l := range order {
			var r runFigures
			var err error
			switch l {
			case rawRow:
				r, err = collectRun(dir, "rawws-serve", "", datas, n, nil)
			case diskRow:
				r, err = diskRun(dir, datas, n, true)
			case cacheRow:
				r, err = diskRun(dir, datas, n, false)
			default:
				out := filepath.Join(dir, "out")
				mode := "0"
				if strings.HasSuffix(l, "--fsync") {
					mode = "1"
				}
				r, err = collectRun(dir, "collect-serve", out+","+mode, datas, n, func(names []string) error {
					return verifySessions(out, names, datas, sums)
				})
				os.RemoveAll(out)
			}
			if err != nil {
				return fmt.Errorf("%s: %w", l, err)
			}
			f := figs[l]
			f.wall, f.cpu, f.client, f.rss = append(f.wall, r.wall), append(f.cpu, r.server), append(f.client, r.client), append(f.rss, r.rss)
			fmt.Fprintf(os.Stderr, "collector %s: run %d: %v wall, %.0f MB/s, CPU %v server, %v clients\n", l, run+1, r.wall.Round(time.Millisecond), float64(total)/1e6/r.wall.Seconds(), r.server.Round(time.Millisecond), r.client.Round(time.Millisecond))
		}
	}
	med := func(ds []time.Duration) time.Duration {
		s := append([]time.Duration(nil), ds...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s[len(s)/2]
	}
	medI := func(xs []int64) int64 {
		s := append([]int64(nil), xs...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s[len(s)/2]
	}
	tput := func(l string) float64 { return float64(total) / 1e6 / med(figs[l].wall).Seconds() }
	lower := min(tput(rawRow), tput(diskRow))
	t := &table{title: fmt.Sprintf("collector: %d sessions of %s at once over loopback (%s in all), median of %d runs, wall time", n, mb(size), mb(total), *flagCollectRuns)}
	t.add("figure", "wall", "throughput", "vs the lower baseline", "server CPU", "client CPU", "server peak RSS", "target")
	for _, l := range order {
		f := figs[l]
		target := ""
		if strings.HasPrefix(l, "collector") {
			r := tput(l) / lower
			// Each run's own ratio too: the baselines move between runs
			// (the disk's pace most), and so does the verdict.
			lo, hi := math.Inf(1), 0.0
			for i, w := range f.wall {
				// The lower baseline's throughput is the longer wall's.
				ri := max(figs[rawRow].wall[i], figs[diskRow].wall[i]).Seconds() / w.Seconds()
				lo, hi = min(lo, ri), max(hi, ri)
			}
			target = fmt.Sprintf(">= 0.70: %s (runs %.2f-%.2f; %.2f of the page-cache write); peak RSS %.3f of the data: bounded", verdict(r >= 0.70), lo, hi, tput(l)/tput(cacheRow), float64(medI(f.rss))/float64(total))
		}
		t.add(l, med(f.wall).Round(time.Millisecond).String(), fmt.Sprintf("%.0f MB/s", tput(l)), fmt.Sprintf("%.2f", tput(l)/lower),
			med(f.cpu).Round(time.Millisecond).String(), med(f.client).Round(time.Millisecond).String(), mb(medI(f.rss)), target)
	}
	t.print()
	fmt.Println("  every session's trace was the bytes sent (sha256), status complete")
	fmt.Println("  client CPU: the sending clients' (the disk rows': their writers'), in the bench's process; both share the machine's cores with the server")
	fmt.Println("  disk write: as the collector writes (whole blocks direct); page-cache write: the same files buffered, still in memory when timed (not a baseline)")
	return nil
}

// runFigures are one run's measurements.
type runFigures struct {
	wall, server, client time.Duration
	rss                  int64
}

// collectRun starts the server child job (collect-serve: a collector on
// out,fsync; rawws-serve: a websocket server that reads and drops), sends
// n sessions at once, and returns the wall time of the sending, and the
// server's CPU time and peak RSS. check, if set, runs on the sessions'
// names before the server is stopped.
func collectRun(dir, job, arg string, datas [][]byte, n int, check func([]string) error) (runFigures, error) {
	var none runFigures
	self, err := os.Executable()
	if err != nil {
		return none, err
	}
	cmd := exec.Command(self, "-child", job, "-file", arg)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return none, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return none, err
	}
	stderr := &tailBuffer{max: 64 << 10}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return none, err
	}
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() {
		cmd.Process.Kill()
		cmd.Wait()
		return none, fmt.Errorf("the server did not start: %s", stderr.b)
	}
	addr, token, _ := strings.Cut(sc.Text(), " ")
	// Its last line: its peak RSS (VmHWM), which the rusage of a child
	// started by a process this large does not give (it counts the
	// parent's pages shared until exec).
	hwm := make(chan int64, 1)
	go func() {
		var v int64
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == "hwm" {
				fmt.Sscan(f[1], &v)
			}
		}
		hwm <- v
	}()
	names := make([]string, n)
	errs := make(chan error, n)
	if p := os.Getenv("MEMTRACE_BENCH_CLIENTPROFILE"); p != "" {
		// The clients' profile, one per server job: PATH.JOB.
		f, err := os.Create(p + "." + job)
		if err != nil {
			return none, err
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	var ru0 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			data := datas[i%len(datas)]
			var err error
			if job == "rawws-serve" {
				err = sendRaw(addr, data)
			} else {
				names[i], err = sendCollected(addr, token, data)
			}
			if err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	wall := time.Since(start)
	var ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	clientCPU := time.Duration(ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano())
	close(errs)
	var ferr error
	for e := range errs {
		ferr = e
		break
	}
	if ferr == nil && check != nil {
		ferr = check(names)
	}
	stdin.Close()
	werr := cmd.Wait()
	if ferr != nil {
		return none, ferr
	}
	if werr != nil {
		return none, fmt.Errorf("the server: %v: %s", werr, stderr.b)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return runFigures{wall: wall, server: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), client: clientCPU, rss: <-hwm}, nil
}

// sendRaw writes data to the raw server in collectChunk messages (with an
// 8-byte header, as the protocol's chunks have), then waits for the
// server's word that it read them all.
func sendRaw(addr string, data []byte) error {
	// The write buffer of the collector's client (a message, one frame).
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second, WriteBufferSize: 8 + collectChunk}
	ws, _, err := d.Dial("ws://"+addr+"/", nil)
	if err != nil {
		return err
	}
	defer ws.Close()
	msg := make([]byte, 8+collectChunk)
	for off := 0; off < len(data); off += collectChunk {
		n := copy(msg[8:], data[off:min(off+collectChunk, len(data))])
		if err := ws.WriteMessage(websocket.BinaryMessage, msg[:8+n]); err != nil {
			return err
		}
	}
	if err := ws.WriteMessage(websocket.TextMessage, []byte("end")); err != nil {
		return err
	}
	_, _, err = ws.ReadMessage()
	return err
}

func sendCollected(addr, token string, data []byte) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	c, err := client.Dial(ctx, client.Options{URL: "ws://" + addr, Token: token, ChunkSize: collectChunk, MaxBuffer: 8 << 20, Block: true,
		Meta: map[string]any{"kind": "bench", "script": "bench.js"}})
	if err != nil {
		return "", err
	}
	for off := 0; off < len(data); off += collectChunk {
		if _, err := c.Write(data[off:min(off+collectChunk, len(data))]); err != nil {
			return "", err
		}
	}
	end, err := c.End(ctx, "exit")
	if err != nil {
		return "", err
	}
	if end.Status != tracedir.StatusComplete {
		return "", fmt.Errorf("session %s ended %s: %s", c.Session(), end.Status, end.Reason)
	}
	return c.Session(), nil
}

// verifySessions compares each session's trace with the data sent.
func verifySessions(out string, names []string, datas [][]byte, sums [][32]byte) error {
	for i, name := range names {
		f, err := os.Open(filepath.Join(out, name, tracedir.TraceFile))
		if err != nil {
			return err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return err
		}
		var got [32]byte
		copy(got[:], h.Sum(nil))
		if got != sums[i%len(datas)] {
			return fmt.Errorf("session %s: the trace is not the bytes sent", name)
		}
		os.RemoveAll(filepath.Join(out, name))
	}
	return nil
}

// diskRun writes n files of the traces' sizes at once, in collectChunk
// writes, under dir, and returns the wall time and the writers' CPU time.
// direct: through a directio.Appender each, as the collector writes; else
// plain writes through the page cache.
func diskRun(dir string, datas [][]byte, n int, direct bool) (runFigures, error) {
	d := filepath.Join(dir, "disk")
	if err := os.MkdirAll(d, 0o755); err != nil {
		return runFigures{}, err
	}
	defer os.RemoveAll(d)
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			data := datas[i%len(datas)]
			f, err := os.Create(filepath.Join(d, fmt.Sprintf("%d", i)))
			if err != nil {
				errs <- err
				return
			}
			defer f.Close()
			var a *directio.Appender
			if direct {
				a = directio.NewAppender(f, 0)
				defer a.Close()
			}
			for off := 0; off < len(data); off += collectChunk {
				p := data[off:min(off+collectChunk, len(data))]
				if a != nil {
					err = a.Append(p)
				} else {
					_, err = f.Write(p)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}(i)
	}
	wg.Wait()
	wall := time.Since(start)
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	close(errs)
	for e := range errs {
		return runFigures{}, e
	}
	return runFigures{wall: wall, client: time.Duration(ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano())}, nil
}

// collectorChild serves the collector group's servers until standard
// input closes; it prints "ADDR TOKEN" once it listens.
func collectorChild(job, arg string) error {
	if p := os.Getenv("MEMTRACE_BENCH_CPUPROFILE"); p != "" && job == "collect-serve" {
		// One profile per row: PATH.fsync0, PATH.fsync1.
		_, fsync, _ := strings.Cut(arg, ",")
		f, err := os.Create(p + ".fsync" + fsync)
		if err != nil {
			return err
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	// Both servers run as memtrace collect does (its Ps per core).
	gctune.Collector()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	var h http.Handler
	token := "-"
	var c *collector.Collector
	switch job {
	case "collect-serve":
		out, fsync, _ := strings.Cut(arg, ",")
		c, err = collector.New(collector.Config{Out: out, Fsync: fsync == "1", MaxConns: 4096, Log: log.New(io.Discard, "", 0)})
		if err != nil {
			return err
		}
		h, token = c, c.Token()
	case "rawws-serve":
		up := websocket.Upgrader{ReadBufferSize: 64 << 10}
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ws, err := up.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer ws.Close()
			buf := make([]byte, 64<<10)
			for {
				mt, rd, err := ws.NextReader()
				if err != nil {
					return
				}
				if mt == websocket.TextMessage {
					ws.WriteMessage(websocket.TextMessage, []byte("read"))
					return
				}
				if _, err := io.CopyBuffer(io.Discard, rd, buf); err != nil {
					return
				}
			}
		})
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	fmt.Printf("%s %s\n", ln.Addr(), token)
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
	if c != nil {
		c.Close()
	}
	// The peak RSS, from the kernel's count for this process.
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "VmHWM:") {
				var kb int64
				fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, "VmHWM:"), "kB")), &kb)
				fmt.Printf("hwm %d\n", kb*1024)
			}
		}
	}
	return nil
}
