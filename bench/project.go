package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	esbuild "github.com/evanw/esbuild/pkg/api"

	"github.com/memtrace/memtrace/internal/gctune"
	"github.com/memtrace/memtrace/project"
)

// The project group (issue 6): `memtrace instrument DIR -o OUT` over a
// tree of about 50 MB of real JavaScript on both cores (GOMAXPROCS=2),
// cold (an empty cache) and warm (the cache of an earlier run), beside two
// baselines from the same run: a plain parallel copy of the tree, and
// esbuild's Transform of every file in parallel (no writing).

const projectProcs = 2

// projectTree builds the tree: the JavaScript files (and package.json
// files, which decide goals) of the Octane, lodash and test262 corpora and
// of testdata/npm/node_modules (less test262-parser-tests, whose fail/
// and early/ programs are not JavaScript and whose modules are named
// .js), copied as r0/, r1/, … until the tree reaches mb MB.
func projectTree(mb int) (dir string, size int64, files int, err error) {
	root := repoRoot()
	corpora := filepath.Join(root, "..", "shared", "corpora")
	sources := map[string]string{
		"octane":           filepath.Join(corpora, "octane"),
		"lodash":           filepath.Join(corpora, "node", "lodash"),
		"test262":          filepath.Join(corpora, "test262"),
		"npm/node_modules": filepath.Join(root, "testdata", "npm", "node_modules"),
	}
	dir, err = makeWorkDir(projectBase(), "memtrace-project-")
	if err != nil {
		return "", 0, 0, err
	}
	names := []string{"lodash", "npm/node_modules", "octane", "test262"}
	for r := 0; size < int64(mb)<<20; r++ {
		before := size
		for _, name := range names {
			src, err := filepath.EvalSymlinks(sources[name])
			if err != nil {
				return dir, 0, 0, fmt.Errorf("%s: %v (run npm ci --prefix testdata/npm)", name, err)
			}
			err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if d.IsDir() {
					if d.Name() == "test262-parser-tests" {
						return filepath.SkipDir
					}
					return nil
				}
				ext := strings.ToLower(filepath.Ext(p))
				if !d.Type().IsRegular() || !(ext == ".js" || ext == ".mjs" || ext == ".cjs" || d.Name() == "package.json") {
					return nil
				}
				rel, _ := filepath.Rel(src, p)
				dst := filepath.Join(dir, fmt.Sprintf("r%d", r), name, rel)
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					return err
				}
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				size += int64(len(data))
				files++
				return os.WriteFile(dst, data, 0o644)
			})
			if err != nil {
				return dir, 0, 0, err
			}
		}
		if size == before {
			return dir, 0, 0, fmt.Errorf("the corpora hold no JavaScript")
		}
	}
	return dir, size, files, nil
}

// projectReport is what a project child prints.
type projectReport struct {
	CPUNanos  int64 `json:"cpuNanos"`
	WallNanos int64 `json:"wallNanos"`
	Bytes     int64 `json:"bytes"`
	Failed    int   `json:"failed"`
	Hits      int   `json:"hits"`
	Files     int   `json:"files"`
}

// projectChild runs one job over the tree; the cache of project-warm is
// named by MEMTRACE_BENCH_CACHE.
func projectChild(job, tree string) error {
	gctune.Instrumenter() // as memtrace instrument DIR; esbuild's side too
	// MEMTRACE_BENCH_OUT: a lasting output directory (a second run into it).
	out := os.Getenv("MEMTRACE_BENCH_OUT")
	if out == "" {
		var err error
		if out, err = makeWorkDir(filepath.Dir(tree), "memtrace-project-out-"); err != nil {
			return err
		}
		defer dropWorkDir(out)
	}
	var err error
	var rep projectReport
	start, wall := processCPU(), time.Now()
	switch job {
	case "project-copy", "project-esbuild":
		rep.Bytes, rep.Files, err = parallelTree(tree, out, job == "project-esbuild")
	case "project-cold", "project-warm":
		cache := os.Getenv("MEMTRACE_BENCH_CACHE")
		if job == "project-cold" {
			cache, err = makeWorkDir(filepath.Dir(tree), "memtrace-project-cache-")
			if err != nil {
				return err
			}
			defer dropWorkDir(cache)
		}
		var sum *project.Summary
		sum, err = project.Run(project.Options{In: tree, Out: filepath.Join(out, "o"), NodeModules: true, Cache: cache, ToolID: "bench"})
		if err == nil {
			rep.Bytes, rep.Failed, rep.Hits, rep.Files = sum.InBytes(), sum.Failed, sum.CacheHits+sum.UpToDate, sum.Instrumented+sum.Copied
		}
	default:
		return fmt.Errorf("unknown job %s", job)
	}
	if err != nil {
		return err
	}
	rep.CPUNanos, rep.WallNanos = int64(processCPU()-start), int64(time.Since(wall))
	return json.NewEncoder(os.Stdout).Encode(rep)
}

// parallelTree copies the tree (or, with transform, runs esbuild's
// Transform on each JavaScript file and discards the output) with
// GOMAXPROCS workers.
func parallelTree(tree, out string, transform bool) (int64, int, error) {
	type file struct {
		rel  string
		size int64
	}
	var files []file
	err := filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(tree, p)
		if d.IsDir() {
			if !transform {
				return os.MkdirAll(filepath.Join(out, rel), 0o755)
			}
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, file{rel, fi.Size()})
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	slices.SortFunc(files, func(a, b file) int { return int(b.size - a.size) })
	ch := make(chan file)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var total int64
	var firstErr error
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range ch {
				var err error
				if transform {
					var data []byte
					if data, err = os.ReadFile(filepath.Join(tree, f.rel)); err == nil && strings.HasSuffix(f.rel, "js") {
						esbuild.Transform(string(data), esbuild.TransformOptions{Loader: esbuild.LoaderJS, Sourcemap: esbuild.SourceMapExternal, LogLevel: esbuild.LogLevelSilent})
					}
				} else {
					err = copyOne(filepath.Join(tree, f.rel), filepath.Join(out, f.rel))
				}
				mu.Lock()
				total += f.size
				if err != nil && firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}()
	}
	for _, f := range files {
		ch <- f
	}
	close(ch)
	wg.Wait()
	return total, len(files), firstErr
}

func copyOne(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

type projectResult struct {
	cpu, wall time.Duration // medians
	rep       projectReport
}

// mbpsCPU is the throughput on projectProcs cores if the CPU time were
// spread evenly over them; mbpsWall the throughput by the clock.
func (r projectResult) mbpsCPU() float64 {
	return float64(r.rep.Bytes) / 1e6 / (r.cpu.Seconds() / projectProcs)
}
func (r projectResult) mbpsWall() float64 { return float64(r.rep.Bytes) / 1e6 / r.wall.Seconds() }

func measureProject(job, tree string, env ...string) (projectResult, error) {
	self, err := os.Executable()
	if err != nil {
		return projectResult{}, err
	}
	var cpus, walls []time.Duration
	var rep projectReport
	for i := 0; i < *flagRuns; i++ {
		cmd := exec.Command(self, "-child", job, "-file", tree)
		cmd.Env = append(append(os.Environ(), fmt.Sprintf("GOMAXPROCS=%d", projectProcs)), env...)
		stderr := &tailBuffer{max: 64 << 10}
		cmd.Stderr = stderr
		outb, err := trackedOutput(cmd)
		if err != nil {
			return projectResult{}, fmt.Errorf("%s: %v: %s", job, err, stderr.b)
		}
		if err := json.Unmarshal(outb, &rep); err != nil {
			return projectResult{}, fmt.Errorf("%s: bad report %q: %v", job, outb, err)
		}
		cpus = append(cpus, time.Duration(rep.CPUNanos))
		walls = append(walls, time.Duration(rep.WallNanos))
	}
	slices.Sort(cpus)
	slices.Sort(walls)
	return projectResult{cpu: cpus[len(cpus)/2], wall: walls[len(walls)/2], rep: rep}, nil
}

func benchProject() error {
	tree, size, files, err := projectTree(50)
	if tree != "" {
		defer dropWorkDir(tree)
	}
	if err != nil {
		return err
	}
	cache, err := makeWorkDir(filepath.Dir(tree), "memtrace-project-cache-")
	if err != nil {
		return err
	}
	defer dropWorkDir(cache)
	t := &table{title: fmt.Sprintf("project: memtrace instrument DIR -o OUT over %s of JavaScript in %d files, GOMAXPROCS=%d; MB/s by CPU time spread over %d cores, and by the clock (shared machine); tree, outputs and cache in %s (-projectfs)",
		mb(size), files, projectProcs, projectProcs, filepath.Dir(tree))}
	t.add("job", "CPU time", "MB/s (CPU/2)", "wall", "MB/s (wall)", "note")
	row := func(name string, r projectResult, note string) {
		t.add(name, fmt.Sprintf("%.2fs", r.cpu.Seconds()), fmt.Sprintf("%.0f", r.mbpsCPU()),
			fmt.Sprintf("%.2fs", r.wall.Seconds()), fmt.Sprintf("%.0f", r.mbpsWall()), note)
	}
	cp, err := measureProject("project-copy", tree)
	if err != nil {
		return err
	}
	row("baseline: parallel copy", cp, "")
	es, err := measureProject("project-esbuild", tree)
	if err != nil {
		return err
	}
	row("baseline: esbuild Transform", es, "no output written")
	cold, err := measureProject("project-cold", tree)
	if err != nil {
		return err
	}
	row("memtrace, cold cache", cold, fmt.Sprintf("%d failed; >= 30 MB/s: %s", cold.rep.Failed, verdict(cold.mbpsCPU() >= 30)))
	// Fill the cache once, then measure runs that use it.
	self, _ := os.Executable()
	fill := exec.Command(self, "-child", "project-warm", "-file", tree)
	fill.Env = append(os.Environ(), "MEMTRACE_BENCH_CACHE="+cache)
	if out, err := trackedCombinedOutput(fill); err != nil {
		return fmt.Errorf("filling the cache: %v: %s", err, out)
	}
	warm, err := measureProject("project-warm", tree, "MEMTRACE_BENCH_CACHE="+cache)
	if err != nil {
		return err
	}
	ratio := cold.cpu.Seconds() / warm.cpu.Seconds()
	row("memtrace, warm cache, new OUT", warm, fmt.Sprintf("%d hits; %.1fx faster than cold (CPU; %.1fx wall)",
		warm.rep.Hits, ratio, cold.wall.Seconds()/warm.wall.Seconds()))
	// The second run of a user: the same OUT, the cache warm.
	out, err := makeWorkDir(filepath.Dir(tree), "memtrace-project-out-")
	if err != nil {
		return err
	}
	defer dropWorkDir(out)
	first := exec.Command(self, "-child", "project-warm", "-file", tree)
	first.Env = append(os.Environ(), "MEMTRACE_BENCH_CACHE="+cache, "MEMTRACE_BENCH_OUT="+out)
	if b, err := trackedCombinedOutput(first); err != nil {
		return fmt.Errorf("first run: %v: %s", err, b)
	}
	again, err := measureProject("project-warm", tree, "MEMTRACE_BENCH_CACHE="+cache, "MEMTRACE_BENCH_OUT="+out)
	if err != nil {
		return err
	}
	ratio = cold.cpu.Seconds() / again.cpu.Seconds()
	row("memtrace, second run, same OUT", again, fmt.Sprintf("%.1fx faster than cold (CPU; %.1fx wall): >= 10x: %s",
		ratio, cold.wall.Seconds()/again.wall.Seconds(), verdict(ratio >= 10)))
	t.print()
	fmt.Printf("  cold vs esbuild Transform: %.2fx the CPU time; warm vs a plain copy: %.2fx\n", cold.cpu.Seconds()/es.cpu.Seconds(), warm.cpu.Seconds()/cp.cpu.Seconds())
	return nil
}

var flagProjectFS = flag.String("projectfs", "ram", "where the project group puts its tree, outputs and caches: ram (/dev/shm when it exists, so the figure measures memtrace rather than this machine's file creation) or disk ($TMPDIR)")

// projectBase is the directory the project group works in.
func projectBase() string {
	if *flagProjectFS == "ram" {
		if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
			return "/dev/shm"
		}
	}
	return os.TempDir()
}
