// Command bench measures memtrace's performance figures, each beside a
// baseline measured in the same run, as a ratio. It is what `make bench`
// runs.
//
// Every measurement runs in a child process (this binary re-executed with
// -child), pinned to one core with GOMAXPROCS=1 unless a figure says
// otherwise, and reports the child's CPU time (user + system) and peak
// resident memory from the kernel's rusage. Each figure is the median of
// -runs runs. CPU time, not wall time, because the machines are shared.
//
// Its work directories (tens of GB of traces) go when it stops: see
// workdir.go.
package main

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	esbuild "github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/parse/v2"
	tdjs "github.com/tdewolff/parse/v2/js"

	"golang.org/x/sys/unix"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/instrument/scope"
	"github.com/memtrace/memtrace/internal/gctune"
	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/lifetime"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/trace/tracegen"
)

// nullShim stands in for the runtime shim in the overhead group's no-op
// hooks column.
//
//go:embed nullshim.js
var nullShim []byte

var (
	flagSize   = flag.Int("size", 200, "size of the large synthetic trace, in MB")
	flagSmall  = flag.Int("small", 20, "size of the small synthetic trace (memory comparison), in MB")
	flagRuns   = flag.Int("runs", 5, "runs per figure; the median is reported")
	flagDir    = flag.String("dir", "", "directory for generated inputs and the overhead group's traces (EarleyBoyer's takes about 42 GB; default: $TMPDIR/memtrace-bench)")
	flagOnly   = flag.String("only", "", "run only the groups whose name contains this")
	flagOctane = flag.String("octane", "RegExp,Splay", "Octane benchmarks for the run-time overhead group (comma-separated names, or all)")
	flagVia    = flag.String("octanevia", "shim", "how instrumented Octane runs: shim (the pre-instrumented files and the shim under plain node; run-time code instrumented by one memtrace process per string) or node (under memtrace node: run-time code through its long-lived instrumenter; the CPU of every process of the run counts)")
	flagChild  = flag.String("child", "", "internal: run one job in this process")
	flagFile   = flag.String("file", "", "internal: the child's input")
)

func main() {
	flag.Parse()
	if *flagChild != "" {
		if err := runChild(*flagChild, *flagFile); err != nil {
			fmt.Fprintln(os.Stderr, "bench child:", err)
			os.Exit(1)
		}
		return
	}
	// Orphans (memtrace node's instrumenter server outlives node by a
	// moment) come back to this process, so that measureCmd can count
	// their CPU time.
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintln(os.Stderr, "bench: cannot become a subreaper:", err)
	}
	handleSignals()
	sweepAll()
	if err := runAll(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// ---- children ----

func runChild(job, file string) error {
	switch job {
	case "js-parse", "js-parse-scope", "tdewolff-parse", "instrument", "esbuild-transform":
		return frontEndChild(job, file)
	case "project-copy", "project-esbuild", "project-cold", "project-warm":
		return projectChild(job, file)
	case "collect-serve", "rawws-serve":
		return collectorChild(job, file)
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	switch job {
	case "raw-read":
		// The baseline: read the file through the same 64 KiB buffer size
		// the trace reader uses, doing nothing with the bytes.
		buf := make([]byte, 64<<10)
		_, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{f}, buf)
		return err
	case "trace-reader":
		r := trace.NewReader(f)
		for {
			_, err := r.Next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
		}
	case "trace-check":
		rep, err := trace.Check(f, 10)
		if err != nil {
			return err
		}
		if !rep.OK() {
			return fmt.Errorf("synthetic trace has findings: %v", rep.Findings)
		}
		return nil
	case "lifetime":
		var l countUnreachable
		return lifetime.Analyze(f, lifetime.Options{}, &l)
	case "lifetime-rc":
		// MemInsight's --ref output with a row per reported object
		// (-Drcverbose=yes), more than the Java run below prints.
		w := bufio.NewWriterSize(io.Discard, 64<<10)
		if err := lifetime.WriteRC(w, f, lifetime.Options{}, lifetime.RCOptions{Verbose: true}); err != nil {
			return err
		}
		return w.Flush()
	case "lifetime-staleness":
		// Both passes: MemInsight's side files and the JSON summary.
		dir, err := makeWorkDir("", "memtrace-bench-staleness-*")
		if err != nil {
			return err
		}
		defer dropWorkDir(dir)
		first := true
		open := func() (io.ReadCloser, error) {
			if first {
				first = false
				return io.NopCloser(f), nil
			}
			return os.Open(file)
		}
		return lifetime.Report(open, lifetime.ReportOptions{Dir: dir, TempDir: dir, Summary: io.Discard})
	}
	return fmt.Errorf("unknown job %q", job)
}

// frontEndChild parses a file over and over (at least 64 MB of source in
// all) and reports the loop's CPU time, plus the bytes one parse allocates
// with the garbage collector off, an upper bound of its peak heap.
func frontEndChild(job, file string) error {
	if job == "instrument" || job == "esbuild-transform" {
		// memtrace instrument's pace of collection, for esbuild too (its
		// own command line turns the collector off).
		gctune.Instrumenter()
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	goal := js.Script
	if _, err := js.Parse(src, js.Options{Goal: goal}); err != nil {
		goal = js.CommonJS
	}
	var outBytes int64
	once := func() error {
		switch job {
		case "js-parse":
			_, err := js.Parse(src, js.Options{Goal: goal})
			return err
		case "js-parse-scope":
			p, err := js.Parse(src, js.Options{Goal: goal})
			if err == nil {
				scope.Analyze(p)
			}
			return err
		case "instrument":
			res, err := instrument.Instrument(src, instrument.Options{Goal: goal, File: file})
			if err == nil {
				outBytes = int64(len(res.Code))
			}
			return err
		case "esbuild-transform":
			res := esbuild.Transform(string(src), esbuild.TransformOptions{Loader: esbuild.LoaderJS})
			if len(res.Errors) > 0 {
				return fmt.Errorf("esbuild: %s", res.Errors[0].Text)
			}
			outBytes = int64(len(res.Code))
			return nil
		default:
			_, err := tdjs.Parse(parse.NewInputBytes(src), tdjs.Options{})
			return err
		}
	}
	if err := once(); err != nil { // warm up
		return err
	}
	runtime.GC()
	old := debug.SetGCPercent(-1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := once(); err != nil {
		return err
	}
	runtime.ReadMemStats(&after)
	debug.SetGCPercent(old)
	runtime.GC()
	reps := int(64<<20/int64(len(src))) + 1
	start := processCPU()
	for i := 0; i < reps; i++ {
		if err := once(); err != nil {
			return err
		}
	}
	rep := childReport{
		CPUNanos: int64(processCPU() - start),
		Bytes:    int64(reps) * int64(len(src)),
		Alloc:    int64(after.TotalAlloc - before.TotalAlloc),
		Out:      outBytes,
	}
	return json.NewEncoder(os.Stdout).Encode(rep)
}

// countUnreachable is the cheapest useful listener: it counts reports.
type countUnreachable struct {
	lifetime.NopListener
	n int64
}

func (c *countUnreachable) Unreachable(lifetime.Unreachability) { c.n++ }

// ---- measurement ----

type sample struct {
	cpu    time.Duration
	maxRSS int64 // bytes
	bytes  int64
	alloc  int64
	out    int64
	busy   load
}

// load is what else ran on the machine while a child ran, on average, in
// cores: other processes' CPU time (the machine's busy time, from
// /proc/stat, less the child's and this process's) and the time the
// hypervisor gave this machine's CPUs to others (steal). Both slow the
// child down (shared caches, memory bandwidth, a core taken), so a figure
// measured under load is marked where it is printed.
type load struct {
	other, steal float64
}

// cpuStat returns the machine's busy time (user, nice, system: not the
// interrupts, which the child's own I/O raises) and steal time so far,
// from the first line of /proc/stat; ok is false where it cannot be read.
func cpuStat() (busy, steal time.Duration, ok bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, false
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0, false
	}
	var v [9]time.Duration
	for i := 1; i < 9; i++ {
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return 0, 0, false
		}
		v[i] = time.Duration(n) * time.Second / 100 // USER_HZ
	}
	return v[1] + v[2] + v[3], v[8], true
}

// loadSince is the load since busy0, steal0 and own0 (this process's CPU
// time) were taken, wall time ago, during which the child used cpu.
func loadSince(busy0, steal0, own0 time.Duration, ok0 bool, wall, cpu time.Duration) load {
	busy1, steal1, ok1 := cpuStat()
	if !ok0 || !ok1 || wall <= 0 {
		return load{}
	}
	other := busy1 - busy0 - cpu - (processCPU() - own0)
	return load{other: max(other.Seconds(), 0) / wall.Seconds(), steal: max((steal1-steal0).Seconds(), 0) / wall.Seconds()}
}

// worst is the larger load of l and m, part by part.
func (l load) worst(m load) load {
	return load{other: max(l.other, m.other), steal: max(l.steal, m.steal)}
}

// loaded reports whether figures measured under l should be marked: other
// processes took more than a quarter of a core on average, or the
// hypervisor more than 5% of a core.
func (l load) loaded() bool {
	return l.other > 0.25 || l.steal > 0.05
}

// String describes l for a note beside a figure.
func (l load) String() string {
	return fmt.Sprintf("measured under load: other processes %.2f cores, steal %.2f cores", l.other, l.steal)
}

// childReport is what a repeating child prints on standard output.
type childReport struct {
	CPUNanos int64 `json:"cpuNanos"`
	Bytes    int64 `json:"bytes"`
	Alloc    int64 `json:"alloc"` // bytes allocated by one iteration, GC off
	Out      int64 `json:"out"`   // output bytes of one iteration, where there is output
}

// processCPU returns this process's CPU time (user + system).
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type result struct {
	cpu    time.Duration // median
	maxRSS int64         // median
	bytes  int64
	alloc  int64
	out    int64
	busy   load // the worst of the runs
}

func (r result) mbps() float64 {
	return float64(r.bytes) / 1e6 / r.cpu.Seconds()
}

// measure runs job in a child process (this binary with -child) -runs
// times on file, with GOMAXPROCS=procs.
func measure(job, file string, procs int) (result, error) {
	self, err := os.Executable()
	if err != nil {
		return result{}, err
	}
	return measureCmd(job, file, true, func() *exec.Cmd {
		cmd := exec.Command(self, "-child", job, "-file", file)
		cmd.Env = append(os.Environ(), fmt.Sprintf("GOMAXPROCS=%d", procs))
		return cmd
	})
}

// measureCmd runs the command that mk makes -runs times and returns the
// medians of its CPU time (user + system, all threads, from the child's
// rusage) and peak RSS, for processing file. With reports, the child is
// one of ours and may print a childReport on standard output; otherwise
// its standard output is discarded and the whole process's CPU time
// counts, start-up included.
func measureCmd(label, file string, reports bool, mk func() *exec.Cmd) (result, error) {
	return measureRuns(label, file, reports, *flagRuns, mk)
}

// measureRuns is measureCmd with runs runs.
func measureRuns(label, file string, reports bool, runs int, mk func() *exec.Cmd) (result, error) {
	fi, err := os.Stat(file)
	if err != nil {
		return result{}, err
	}
	var samples []sample
	for i := 0; i < runs; i++ {
		cmd := mk()
		stderr := &tailBuffer{max: 64 << 10}
		var stdout bytes.Buffer
		cmd.Stderr = stderr
		if reports {
			cmd.Stdout = &stdout
		}
		busy0, steal0, ok0 := cpuStat()
		own0, start := processCPU(), time.Now()
		if err := runTracked(cmd); err != nil {
			return result{}, fmt.Errorf("%s: %v: %s", label, err, stderr.b)
		}
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		// Descendants the command left running (reparented here): wait
		// for them and count them.
		for {
			var ws syscall.WaitStatus
			var oru syscall.Rusage
			if _, err := syscall.Wait4(-1, &ws, 0, &oru); err != nil {
				break
			}
			cpu += time.Duration(oru.Utime.Nano() + oru.Stime.Nano())
		}
		s := sample{cpu: cpu, maxRSS: ru.Maxrss * 1024, bytes: fi.Size(), busy: loadSince(busy0, steal0, own0, ok0, time.Since(start), cpu)}
		// A child that repeats its work reports its own loop's CPU time
		// and bytes, so that process start-up does not count.
		var rep childReport
		if stdout.Len() > 0 {
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
				return result{}, fmt.Errorf("%s: bad report %q: %v", label, stdout.String(), err)
			}
			s.cpu, s.bytes, s.alloc, s.out = time.Duration(rep.CPUNanos), rep.Bytes, rep.Alloc, rep.Out
		}
		samples = append(samples, s)
	}
	cpus := make([]time.Duration, len(samples))
	rss := make([]int64, len(samples))
	var busy load
	for i, s := range samples {
		cpus[i], rss[i] = s.cpu, s.maxRSS
		busy = busy.worst(s.busy)
	}
	slices.Sort(cpus)
	slices.Sort(rss)
	return result{cpu: cpus[len(cpus)/2], maxRSS: rss[len(rss)/2], bytes: samples[0].bytes, alloc: samples[0].alloc, out: samples[0].out, busy: busy}, nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	b   []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// ---- inputs ----

// benchWorkDir makes a work directory (workdir.go) under benchDir.
func benchWorkDir(pattern string) (string, error) {
	base, err := benchDir()
	if err != nil {
		return "", err
	}
	return makeWorkDir(base, pattern)
}

// buildMemtrace builds this repository's memtrace binary into dir.
func buildMemtrace(dir string) (string, error) {
	bin := filepath.Join(dir, "memtrace")
	build := exec.Command("go", "build", "-o", bin, "./cmd/memtrace")
	build.Dir = repoRoot()
	if out, err := trackedCombinedOutput(build); err != nil {
		return "", fmt.Errorf("building memtrace: %v\n%s", err, out)
	}
	return bin, nil
}

func benchDir() (string, error) {
	dir := *flagDir
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "memtrace-bench")
	}
	return dir, os.MkdirAll(dir, 0o755)
}

// syntheticTrace returns the path of a generated trace of about mb MB,
// generating it once (the generator is deterministic).
func syntheticTrace(mb int) (string, error) {
	dir, err := benchDir()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, fmt.Sprintf("synthetic-%dMB-seed1.mem-trace", mb))
	if fi, err := os.Stat(path); err == nil && fi.Size() >= int64(mb)<<20 {
		return path, nil
	}
	fmt.Fprintf(os.Stderr, "generating %s ...\n", path)
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return "", err
	}
	if err := tracegen.Generate(f, tracegen.Options{Bytes: int64(mb) << 20, Seed: 1}); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return path, os.Rename(tmp, path)
}

// ---- report ----

type table struct {
	title string
	rows  [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) print() {
	fmt.Printf("\n%s\n", t.title)
	widths := map[int]int{}
	for _, r := range t.rows {
		for i, c := range r {
			widths[i] = max(widths[i], len(c))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		b.WriteString("  ")
		for i, c := range r {
			if i == 0 {
				fmt.Fprintf(&b, "%-*s", widths[i], c)
			} else {
				fmt.Fprintf(&b, "  %*s", widths[i], c)
			}
		}
		fmt.Println(strings.TrimRight(b.String(), " "))
	}
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT MET"
}

func runAll() error {
	fmt.Printf("memtrace bench: median of %d runs, CPU time (user+system) and peak RSS per child process\n", *flagRuns)
	groups := []struct {
		name string
		run  func() error
	}{
		{"trace", benchTrace},
		{"lifetime", benchLifetime},
		{"frontend", benchFrontEnd},
		{"instrument", benchInstrument},
		{"overhead", benchOverhead},
		{"realworld", benchRealWorld},
		{"shim-split", benchShimSplit},
		{"project", benchProject},
		{"collector", benchCollector},
		{"browser", benchBrowser},
		{"proxy", benchProxy},
		{"report", benchReport},
	}
	for _, g := range groups {
		if *flagOnly != "" && !strings.Contains(g.name, *flagOnly) {
			continue
		}
		if err := g.run(); err != nil {
			return fmt.Errorf("%s: %w", g.name, err)
		}
	}
	return nil
}

// benchTrace: issue 2, reader and checker throughput on one core against
// a raw read of the same file, and memory at two trace sizes.
func benchTrace() error {
	large, err := syntheticTrace(*flagSize)
	if err != nil {
		return err
	}
	small, err := syntheticTrace(*flagSmall)
	if err != nil {
		return err
	}
	raw, err := measure("raw-read", large, 1)
	if err != nil {
		return err
	}
	t := &table{title: fmt.Sprintf("trace format: synthetic trace of %s, one core (GOMAXPROCS=1)", mb(raw.bytes))}
	t.add("figure", "CPU", "throughput", "vs raw read", "peak RSS", "target")
	t.add("raw read (baseline)", raw.cpu.Round(time.Millisecond).String(), fmt.Sprintf("%.0f MB/s", raw.mbps()), "1.00x", mb(raw.maxRSS), "")
	for _, job := range []struct{ name, label string }{{"trace-reader", "trace.Reader"}, {"trace-check", "trace.Check"}} {
		r, err := measure(job.name, large, 1)
		if err != nil {
			return err
		}
		t.add(job.label, r.cpu.Round(time.Millisecond).String(), fmt.Sprintf("%.0f MB/s", r.mbps()),
			fmt.Sprintf("%.2fx", r.mbps()/raw.mbps()), mb(r.maxRSS),
			fmt.Sprintf(">= 300 MB/s: %s", verdict(r.mbps() >= 300)))
	}
	t.print()

	m := &table{title: "trace format: memory against trace size (peak RSS)"}
	m.add("figure", mb(fileSize(small)), mb(fileSize(large)), "ratio", "target")
	for _, job := range []struct{ name, label string }{{"raw-read", "raw read (baseline)"}, {"trace-reader", "trace.Reader"}, {"trace-check", "trace.Check"}} {
		s, err := measure(job.name, small, 1)
		if err != nil {
			return err
		}
		l, err := measure(job.name, large, 1)
		if err != nil {
			return err
		}
		ratio := float64(l.maxRSS) / float64(s.maxRSS)
		target := ""
		if job.name != "raw-read" {
			target = fmt.Sprintf("independent of size (<= 1.25x): %s", verdict(ratio <= 1.25))
		}
		m.add(job.label, mb(s.maxRSS), mb(l.maxRSS), fmt.Sprintf("%.2fx", ratio), target)
	}
	m.print()
	fmt.Println("  reference: MemInsight's Java engine (reading and analysing) is measured by the lifetime group when MEMINSIGHT_JAR is set")
	return nil
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// benchLifetime: issue 3, the lifetime engine's throughput on one core
// against decoding alone, and its memory at two trace sizes.
func benchLifetime() error {
	large, err := syntheticTrace(*flagSize)
	if err != nil {
		return err
	}
	small, err := syntheticTrace(*flagSmall)
	if err != nil {
		return err
	}
	dec, err := measure("trace-reader", large, 1)
	if err != nil {
		return err
	}
	eng, err := measure("lifetime", large, 1)
	if err != nil {
		return err
	}
	t := &table{title: fmt.Sprintf("lifetime engine: synthetic trace of %s, one core (GOMAXPROCS=1)", mb(eng.bytes))}
	t.add("figure", "CPU", "throughput", "vs decoding", "peak RSS", "target")
	t.add("trace.Reader (baseline)", dec.cpu.Round(time.Millisecond).String(), fmt.Sprintf("%.0f MB/s", dec.mbps()), "1.00x", mb(dec.maxRSS), "")
	rc, err := measure("lifetime-rc", large, 1)
	if err != nil {
		return err
	}
	t.add("lifetime.Analyze", eng.cpu.Round(time.Millisecond).String(), fmt.Sprintf("%.0f MB/s", eng.mbps()),
		fmt.Sprintf("%.2fx", eng.mbps()/dec.mbps()), mb(eng.maxRSS),
		fmt.Sprintf(">= 50 MB/s: %s", verdict(eng.mbps() >= 50)))
	t.add("lifetime.WriteRC, verbose rows", rc.cpu.Round(time.Millisecond).String(), fmt.Sprintf("%.0f MB/s", rc.mbps()),
		fmt.Sprintf("%.2fx", rc.mbps()/dec.mbps()), mb(rc.maxRSS), "")
	jar := os.Getenv("MEMINSIGHT_JAR")
	if jar != "" {
		// MemInsight's engine on the same trace, on one core: the JVM's
		// CPU time over all its threads, start-up included, as rusage
		// reports it for the child.
		java, err := measureCmd("MemInsight (java)", large, false, func() *exec.Cmd {
			return exec.Command("java", "-Xmx8g", "-XX:ActiveProcessorCount=1", "-jar", jar, "--ref", "--no-progress", "--trace", large)
		})
		if err != nil {
			return err
		}
		ratio := eng.mbps() / java.mbps()
		t.add("MemInsight's Java engine (--ref)", java.cpu.Round(time.Millisecond).String(), fmt.Sprintf("%.1f MB/s", java.mbps()),
			fmt.Sprintf("%.2fx", java.mbps()/dec.mbps()), mb(java.maxRSS), "")
		t.add("lifetime.Analyze vs MemInsight", "", fmt.Sprintf("%.1fx", ratio), "", "",
			fmt.Sprintf(">= 10x: %s", verdict(ratio >= 10)))
		t.add("lifetime.WriteRC, verbose rows, vs MemInsight", "", fmt.Sprintf("%.1fx", rc.mbps()/java.mbps()), "", "",
			fmt.Sprintf(">= 10x: %s", verdict(rc.mbps()/java.mbps() >= 10)))
	}
	t.print()
	if jar == "" {
		fmt.Println("  MemInsight's Java engine: not measured; set MEMINSIGHT_JAR to its jar (java on PATH) to measure it in the same run and compare (target >= 10x)")
	} else {
		fmt.Printf("  MemInsight's Java engine: java -Xmx8g -XX:ActiveProcessorCount=1 -jar %s --ref --no-progress --trace FILE\n", jar)
	}
	s, err := measure("lifetime", small, 1)
	if err != nil {
		return err
	}
	ss, err := measure("lifetime-staleness", small, 1)
	if err != nil {
		return err
	}
	sl, err := measure("lifetime-staleness", large, 1)
	if err != nil {
		return err
	}
	m := &table{title: "lifetime engine: memory against trace size (peak RSS; the synthetic heap's live size is the same at both sizes)"}
	m.add("figure", mb(fileSize(small)), mb(fileSize(large)), "ratio", "CPU (large)")
	m.add("lifetime.Analyze", mb(s.maxRSS), mb(eng.maxRSS), fmt.Sprintf("%.2fx", float64(eng.maxRSS)/float64(s.maxRSS)),
		eng.cpu.Round(time.Millisecond).String())
	m.add("lifetime.Report: side files + JSON summary (two passes)", mb(ss.maxRSS), mb(sl.maxRSS),
		fmt.Sprintf("%.2fx", float64(sl.maxRSS)/float64(ss.maxRSS)), sl.cpu.Round(time.Millisecond).String())
	m.print()
	return nil
}

// benchFrontEnd: issue 4, parse plus scope analysis on one core against
// tdewolff/parse's own parser (no positions, no scopes) on the same files,
// and the heap one parse allocates against the source size.
func benchFrontEnd() error {
	dir := filepath.Join(repoRoot(), "..", "shared", "corpora")
	files := []string{"octane/typescript.js", "octane/typescript-compiler.js", "node/lodash/lodash.js"}
	t := &table{title: "JavaScript front end: one core (GOMAXPROCS=1), CPU time of a loop over >= 64 MB of source"}
	t.add("file", "size", "tdewolff parse", "parse", "parse+scope", "vs tdewolff", "heap/source", "target")
	for _, rel := range files {
		path := filepath.Join(dir, rel)
		base, err := measure("tdewolff-parse", path, 1)
		if err != nil {
			return err
		}
		p, err := measure("js-parse", path, 1)
		if err != nil {
			return err
		}
		ps, err := measure("js-parse-scope", path, 1)
		if err != nil {
			return err
		}
		size := fileSize(path)
		ratio := float64(ps.alloc) / float64(size)
		t.add(rel, mb(size), fmt.Sprintf("%.0f MB/s", base.mbps()), fmt.Sprintf("%.0f MB/s", p.mbps()),
			fmt.Sprintf("%.0f MB/s", ps.mbps()), fmt.Sprintf("%.2fx", ps.mbps()/base.mbps()), fmt.Sprintf("%.1fx", ratio),
			fmt.Sprintf(">= 50 MB/s: %s; heap <= 20x: %s", verdict(ps.mbps() >= 50), verdict(ratio <= 20)))
	}
	t.print()
	fmt.Println("  heap/source: bytes allocated by one parse+scope with the GC off (an upper bound of the peak heap) over the source size")
	return nil
}

// repoRoot is the directory holding go.mod, found from the working directory.
func repoRoot() string {
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// benchInstrument: issue 5, the instrumenter end to end (parse, scopes,
// rewrite, site table) on one core, beside esbuild's Transform of the same
// files, and the output's size against the input's.
func benchInstrument() error {
	dir := filepath.Join(repoRoot(), "..", "shared", "corpora")
	files := []string{"octane/typescript.js", "octane/typescript-compiler.js", "node/lodash/lodash.js"}
	t := &table{title: "instrumenter: one core (GOMAXPROCS=1), CPU time of a loop over >= 64 MB of source"}
	t.add("file", "size", "esbuild Transform", "memtrace instrument", "vs esbuild", "output/input", "target")
	for _, rel := range files {
		path := filepath.Join(dir, rel)
		base, err := measure("esbuild-transform", path, 1)
		if err != nil {
			return err
		}
		in, err := measure("instrument", path, 1)
		if err != nil {
			return err
		}
		size := fileSize(path)
		growth := float64(in.out) / float64(size)
		t.add(rel, mb(size), fmt.Sprintf("%.0f MB/s", base.mbps()), fmt.Sprintf("%.0f MB/s", in.mbps()),
			fmt.Sprintf("%.2fx", in.mbps()/base.mbps()), fmt.Sprintf("%.2fx", growth),
			fmt.Sprintf(">= 30 MB/s: %s; output <= 4x: %s", verdict(in.mbps() >= 30), verdict(growth <= 4)))
	}
	t.print()
	fmt.Println("  reference: MemInsight's instrumenter (Jalangi 2) is about 0.3 MB/s (issue 5)")
	return nil
}

// prepareOctane writes Octane's files instrumented into dir, with the
// shim as shim.js, and returns the corpus's directory and the runner
// (instrument/semantics/testdata/octane.js: fixed iteration counts).
func prepareOctane(dir string) (corpus, runner string, err error) {
	root := repoRoot()
	corpus = filepath.Join(root, "..", "shared", "corpora", "octane")
	runner = filepath.Join(root, "instrument", "semantics", "testdata", "octane.js")
	entries, err := os.ReadDir(corpus)
	if err != nil {
		return "", "", err
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".js") || e.Name() == "run.js" {
			continue
		}
		src, err := os.ReadFile(filepath.Join(corpus, e.Name()))
		if err != nil {
			return "", "", err
		}
		res, err := instrument.Instrument(src, instrument.Options{Goal: js.Script, File: e.Name()})
		if err != nil {
			return "", "", fmt.Errorf("instrument %s: %w", e.Name(), err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), res.Code, 0o644); err != nil {
			return "", "", err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "shim.js"), []byte(runtimeshim.Source()), 0o644); err != nil {
		return "", "", err
	}
	return corpus, runner, nil
}

// benchOverhead: issue 5, Octane with fixed iteration counts
// (doDeterministic, no warm-up), instrumented with the trace written to a
// file, against plain Node in the same run: CPU time (node start-up
// included on both sides), peak RSS, trace bytes per entry. Instrumented
// runs are slow today, so the default is a subset (-octane).
func benchOverhead() error {
	// Under -dir: EarleyBoyer's full trace alone is about 42 GB.
	dir, err := benchWorkDir("octane-")
	if err != nil {
		return err
	}
	defer dropWorkDir(dir)
	corpus, runner, err := prepareOctane(dir)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "nullshim.js"), nullShim, 0o644); err != nil {
		return err
	}
	// eval'd code (CodeLoad, zlib) is instrumented by this memtrace binary.
	bin, err := buildMemtrace(dir)
	if err != nil {
		return err
	}
	tracePath := filepath.Join(dir, "mem-trace")
	statusPath := filepath.Join(dir, "status.json")
	sessionPath := filepath.Join(dir, "session.json")
	// The floor: CPU time to write bytes to a file in this directory with
	// 1 MiB write(2) calls, as the shim does (no encoding, no hooks).
	floor, direct, err := writeFloor(dir)
	if err != nil {
		return err
	}
	title := "run-time overhead: Octane, fixed iterations, one process each, CPU time (plain: median of at least 5 runs, no-op hooks: at least 3); instrumented writes its trace to a file (full: MemInsight's entries; compact: memtrace node --compact)"
	if *flagVia == "node" {
		title += "; run under memtrace node (its instrumenter server's CPU included)"
	}
	// The entry floor: CPU time per entry of the leanest JavaScript
	// encoder of MemInsight's format, writing to the same directory.
	entryNs, err := entryFloor(dir)
	if err != nil {
		return err
	}
	t := &table{title: title}
	t.add("benchmark", "plain", "no-op hooks", "full", "slowdown", "compact", "slowdown", "RSS ratio", "trace (compact)", "bytes/entry", "write floor", "entry floor", "target")
	var overFloor, leftOut []string
	var logFull, logCompact, logNull float64
	n := 0
	for _, b := range testcorpus.Octane {
		if *flagOctane != "all" && !strings.Contains(","+*flagOctane+",", ","+b.Name+",") {
			continue
		}
		files := append([]string{"base.js"}, b.Files...)
		// Plain runs take a second or two: at least 5 of them, so that the
		// slowdowns' common denominator is a median even when the
		// instrumented runs (minutes each) are measured once (a single
		// plain DeltaBlue run measured 379 ms and 524 ms in two runs of the
		// whole group, 429x against 315x for the same instrumented CPU).
		plain, err := measureRuns("octane "+b.Name, filepath.Join(corpus, "base.js"), false, max(*flagRuns, 5), func() *exec.Cmd {
			return exec.Command("node", append([]string{runner, corpus}, files...)...)
		})
		if err != nil {
			return err
		}
		// The same instrumented code with hooks that only do the program's
		// own work (nullshim.js): the floor of this design's hook calls.
		null, err := measureRuns("octane "+b.Name+" no-op hooks", filepath.Join(corpus, "base.js"), false, max(*flagRuns, 3), func() *exec.Cmd {
			return exec.Command("node", append([]string{runner, dir, "nullshim.js"}, files...)...)
		})
		if err != nil {
			return err
		}
		type run struct {
			res                  result
			size, entries, ltime int64
			stop                 string // why the trace ended early ("": it did not)
		}
		instrumented := func(compact string) (run, error) {
			// Why any of the runs' traces ended early, each read before
			// the next run removes it.
			stop := ""
			os.Remove(statusPath)
			os.Remove(sessionPath)
			res, err := measureCmd("octane "+b.Name+" instrumented", filepath.Join(corpus, "base.js"), false, func() *exec.Cmd {
				if s := traceStop(statusPath, sessionPath); s != "" {
					stop = s
				}
				// The previous run's trace goes here, not in the child: the
				// shim opens its file with O_TRUNC, and truncating tens of
				// GB (freeing their blocks, and ext4's flush at close of a
				// file truncated and rewritten) is no work of the run's.
				os.Remove(tracePath)
				os.Remove(statusPath)
				os.Remove(sessionPath)
				if *flagVia == "node" {
					args := []string{"node", "--out", dir}
					if compact == "1" {
						args = append(args, "--compact")
					}
					args = append(append(args, runner, dir, "shim.js"), files...)
					return exec.Command(bin, args...)
				}
				cmd := exec.Command("node", append([]string{runner, dir, "shim.js"}, files...)...)
				cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+tracePath, "MEMTRACE_BIN="+bin, "MEMTRACE_COMPACT="+compact, "MEMTRACE_STATUS="+statusPath)
				return cmd
			})
			if err != nil {
				return run{}, err
			}
			if s := traceStop(statusPath, sessionPath); s != "" {
				stop = s
			}
			r := run{res: res, stop: stop}
			if f, err := os.Open(tracePath); err == nil {
				tr := trace.NewReader(bufio.NewReaderSize(f, 1<<20))
				for {
					if _, err := tr.Next(); err != nil {
						break
					}
				}
				r.size, r.entries, r.ltime = tr.End(), tr.Index()+1, tr.Time()
				f.Close()
			}
			os.Remove(tracePath)
			return r, nil
		}
		full, err := instrumented("0")
		if err != nil {
			return err
		}
		compact, err := instrumented("1")
		if err != nil {
			return err
		}
		slow := full.res.cpu.Seconds() / plain.cpu.Seconds()
		slowC := compact.res.cpu.Seconds() / plain.cpu.Seconds()
		slowN := null.cpu.Seconds() / plain.cpu.Seconds()
		// A trace that ended early for another reason than the format's
		// time limit (a full disk, a write error) measured a run that
		// stopped paying for its writes part of the way: its slowdown
		// says nothing, and the geometric means leave it out.
		cut := cutShort(full.stop, full.ltime)
		if cut == "" {
			cut = cutShort(compact.stop, compact.ltime)
		}
		if cut == "" {
			logFull += math.Log(slow)
			logCompact += math.Log(slowC)
			logNull += math.Log(slowN)
			n++
		} else {
			leftOut = append(leftOut, b.Name)
		}
		perEntry := "-"
		if full.entries > 0 {
			perEntry = fmt.Sprintf("%.1f", float64(full.size)/float64(full.entries))
		}
		note := fmt.Sprintf("<= 25x: %s", verdict(math.Min(slow, slowC) <= 25))
		if cut != "" {
			note = "NOT MEASURED: the trace ended early (" + cut + "), left out of the geometric means"
		} else if atTimeLimit(full.ltime) || atTimeLimit(compact.ltime) {
			// The shim stopped writing at the format's logical-time
			// limit; the rest of the run paid the hooks but no writes.
			note += "; trace stopped at the 2^31 time limit: slowdown understated"
		}
		busy := plain.busy.worst(null.busy).worst(full.res.busy).worst(compact.res.busy)
		if busy.loaded() {
			note += "; " + busy.String()
		}
		// What writing the full trace's bytes alone costs, as a slowdown.
		wf := floor.Seconds() * float64(full.size) / float64(1<<30) / plain.cpu.Seconds()
		// What producing its entries alone costs in JavaScript.
		ef := entryNs * float64(full.entries) / 1e9 / plain.cpu.Seconds()
		if cut == "" && ef+slowN > 25 {
			overFloor = append(overFloor, fmt.Sprintf("%s %.0fx", b.Name, ef+slowN))
		}
		t.add(b.Name, plain.cpu.Round(time.Millisecond).String(), fmt.Sprintf("%.1fx", slowN),
			full.res.cpu.Round(time.Millisecond).String(), fmt.Sprintf("%.1fx", slow),
			compact.res.cpu.Round(time.Millisecond).String(), fmt.Sprintf("%.1fx", slowC),
			fmt.Sprintf("%.2fx / %.2fx", float64(full.res.maxRSS)/float64(plain.maxRSS), float64(compact.res.maxRSS)/float64(plain.maxRSS)),
			fmt.Sprintf("%s (%s)", mb(full.size), mb(compact.size)), perEntry, fmt.Sprintf("%.1fx", wf), fmt.Sprintf("%.1fx", ef), note)
		// Each benchmark as it completes, on standard error: the whole
		// group takes most of an hour, and a run cut short keeps these.
		if cut != "" {
			fmt.Fprintf(os.Stderr, "octane %s: NOT MEASURED, the trace ended early: %s\n", b.Name, cut)
		}
		fmt.Fprintf(os.Stderr, "octane %s: plain %v, no-op hooks %.1fx, full %v %.1fx, compact %v %.1fx, RSS %.2fx / %.2fx; load: other processes %.2f / %.2f / %.2f / %.2f cores, steal %.2f cores\n", b.Name,
			plain.cpu.Round(time.Millisecond), slowN, full.res.cpu.Round(time.Millisecond), slow, compact.res.cpu.Round(time.Millisecond), slowC,
			float64(full.res.maxRSS)/float64(plain.maxRSS), float64(compact.res.maxRSS)/float64(plain.maxRSS),
			plain.busy.other, null.busy.other, full.res.busy.other, compact.res.busy.other, busy.steal)
	}
	t.print()
	how := "direct (O_DIRECT, as the shim writes)"
	if !direct {
		how = "page cache (the file system takes no direct I/O; nor does the shim there)"
	}
	fmt.Printf("  write floor: %v of CPU per GiB written with 1 MiB %s write(2) calls to the same directory, measured in this run; the column is the full trace's bytes at that cost over plain Node's CPU time\n", floor.Round(time.Millisecond), how)
	fmt.Printf("  entry floor: %.1f ns of CPU per entry for the leanest JavaScript encoder of the format (bench/main.go entryFloorJS: fixed-size entries through a DataView into a 1 MiB buffer written to the same directory as the shim writes, no hooks, no ids, no last uses), measured in this run; the column is the full trace's entries at that cost over plain Node's CPU time\n", entryNs)
	if len(overFloor) > 0 {
		fmt.Printf("  out of reach in MemInsight's format: entry floor plus no-op hooks already above 25x for %s (traces stopped at the time limit count only their first 2^31 entries)\n", strings.Join(overFloor, ", "))
	}
	if len(leftOut) > 0 {
		fmt.Printf("  left out of the geometric means (their traces ended early, see their rows): %s\n", strings.Join(leftOut, ", "))
	}
	if n > 0 {
		geo, geoC := math.Exp(logFull/float64(n)), math.Exp(logCompact/float64(n))
		fmt.Printf("  geometric-mean slowdown over %d benchmarks: full %.1fx, compact %.1fx (target <= 10x: %s); -octane all runs the 14\n", n, geo, geoC, verdict(math.Min(geo, geoC) <= 10))
		fmt.Printf("  no-op hooks: the instrumented code with hooks that only do the program's own work (bench/nullshim.js: no ids, no trace, run-time code left as it is): geometric mean %.1fx, the floor of hook calls before the shim does anything\n", math.Exp(logNull/float64(n)))
	}
	return nil
}

// traceStop is why an instrumented run's trace ended before the program
// did, as the shim reported it: "stopped" in its MEMTRACE_STATUS file
// (under plain node), or the reason of an incomplete session.json (under
// memtrace node); "" when it did not.
func traceStop(statusPath, sessionPath string) string {
	if b, err := os.ReadFile(statusPath); err == nil {
		var st struct {
			Stopped string `json:"stopped"`
		}
		if json.Unmarshal(b, &st) == nil && st.Stopped != "" {
			return st.Stopped
		}
	}
	if b, err := os.ReadFile(sessionPath); err == nil {
		var se struct {
			Status string `json:"status"`
			Reason string `json:"reason"`
		}
		if json.Unmarshal(b, &se) == nil && se.Status == "incomplete" {
			if se.Reason == "" {
				return "incomplete"
			}
			return se.Reason
		}
	}
	return ""
}

// atTimeLimit: a trace whose logical time reached the format's limit,
// where the shim stops writing on purpose (the rest of the run pays the
// hooks but no writes: its slowdown is understated, and marked so).
func atTimeLimit(ltime int64) bool {
	return ltime >= math.MaxInt32-1<<20
}

// cutShort is the reason a trace that ended early makes its run's figure
// meaningless: any reason the shim gave (stop) but the time limit; "" if
// there is none.
func cutShort(stop string, ltime int64) string {
	if stop == "" || atTimeLimit(ltime) {
		return ""
	}
	return stop
}

// entryFloorJS encodes argv[2] entries the way the shim's writer does at
// its leanest (a type byte and int32 fields through a DataView into a
// reused 1 MiB buffer, written with writeSync when full), alternating a
// 13-byte entry (a CALL's shape) and a 19-byte one (a flush's: a length
// and 7 UTF-16 code units), 16 bytes on average as in real traces, to the
// file argv[3]; it prints the CPU nanoseconds per entry.
const entryFloorJS = `'use strict';
const fs = require('fs');
const n = +process.argv[2];
const fd = fs.openSync(process.argv[3], 'w');
const SIZE = 1 << 20;
// Whole 4 KB blocks by direct I/O from an aligned start, as the shim
// writes (its sink), where the file system takes it.
let dfd = -1, base = 0, foff = 0;
const ab = new ArrayBuffer(SIZE + 8192);
try { dfd = fs.openSync(process.argv[3], fs.constants.O_WRONLY | fs.constants.O_DIRECT); } catch {}
if (dfd >= 0) {
  base = -1;
  for (let o = 0; o < 4096 && base < 0; o += 8) { try { fs.writeSync(dfd, new Uint8Array(ab), o, 4096, 0); base = o; } catch {} }
  fs.ftruncateSync(fd, 0);
  if (base < 0) { fs.closeSync(dfd); dfd = -1; base = 0; }
}
const u8 = new Uint8Array(ab, base, SIZE);
const dv = new DataView(ab, base, SIZE);
let pos = 0;
function flush() {
  if (dfd < 0) { fs.writeSync(fd, u8, 0, pos); pos = 0; return; }
  const w = pos - (pos & 4095);
  fs.writeSync(dfd, u8, 0, w, foff);
  foff += w;
  u8.copyWithin(0, w, pos);
  pos -= w;
}
function e4(t, a, b, c) {
  if (pos + 13 > SIZE) flush();
  dv.setUint8(pos, t); dv.setInt32(pos + 1, a); dv.setInt32(pos + 5, b); dv.setInt32(pos + 9, c);
  pos += 13;
}
function es(t, s) {
  if (pos + 5 + 2 * s.length > SIZE) flush();
  dv.setUint8(pos, t); dv.setInt32(pos + 1, s.length);
  let p = pos + 5;
  for (let k = 0; k < s.length; k++) { dv.setUint16(p, s.charCodeAt(k)); p += 2; }
  pos = p;
}
const sites = [];
for (let k = 0; k < 1024; k++) sites.push('3:' + (10000 + k));
const t0 = process.cpuUsage();
for (let i = 0; i < n; i++) {
  if (i & 1) es(8, sites[i & 1023]);
  else e4(18, i, 1000 + (i & 255), 7);
}
flush();
if (dfd >= 0 && pos > 0) fs.writeSync(fd, u8, 0, pos, foff);
fs.closeSync(fd);
const c = process.cpuUsage(t0);
console.log(((c.user + c.system) * 1000 / n).toFixed(3));
`

// entryFloor returns the median CPU nanoseconds per entry of
// entryFloorJS over 3 runs of 20 million entries, writing in dir.
func entryFloor(dir string) (float64, error) {
	script := filepath.Join(dir, "entryfloor.js")
	if err := os.WriteFile(script, []byte(entryFloorJS), 0o644); err != nil {
		return 0, err
	}
	out := filepath.Join(dir, "entryfloor.bin")
	defer os.Remove(out)
	var runs []float64
	for r := 0; r < 3; r++ {
		b, err := trackedOutput(exec.Command("node", script, "20000000", out))
		if err != nil {
			return 0, fmt.Errorf("entry floor: %v", err)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
		if err != nil {
			return 0, fmt.Errorf("entry floor: %q: %v", b, err)
		}
		runs = append(runs, v)
	}
	slices.Sort(runs)
	return runs[1], nil
}

// writeFloor returns the median CPU time (user + system) of writing 1 GiB
// to a file in dir with 1 MiB write(2) calls, over 3 runs: direct I/O from
// an aligned buffer, as the shim writes, where the file system takes it
// (direct reports whether it did).
func writeFloor(dir string) (floor time.Duration, direct bool, err error) {
	runtime.LockOSThread() // RUSAGE_THREAD measures this thread
	defer runtime.UnlockOSThread()
	raw := make([]byte, 1<<20+4096)
	at := (4096 - int(uintptr(unsafe.Pointer(&raw[0]))&4095)) & 4095
	buf := raw[at : at+1<<20]
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	direct = true
	var runs []time.Duration
	for r := 0; r < 3; r++ {
		path := filepath.Join(dir, "floor")
		var f *os.File
		if direct {
			f, err = os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY|syscall.O_DIRECT, 0o644)
			if err == nil {
				if _, err = f.Write(buf); err != nil {
					f.Close()
				}
			}
			if err != nil {
				direct = false
			}
		}
		if !direct {
			f, err = os.Create(path)
		}
		if err != nil {
			return 0, false, err
		}
		var before, after syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_THREAD, &before)
		for i := 0; i < 1024; i++ {
			if _, err := f.Write(buf); err != nil {
				f.Close()
				return 0, false, err
			}
		}
		syscall.Getrusage(syscall.RUSAGE_THREAD, &after)
		f.Close()
		os.Remove(path)
		runs = append(runs, time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()))
	}
	slices.Sort(runs)
	return runs[1], direct, nil
}
