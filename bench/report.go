package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/memtrace/memtrace/tracedir"
)

// The report group (issue 59): memtrace report beside memtrace lifetime
// --format json on the same trace, the CPU of each (the report runs the
// same two passes with its details, and writes the page), and the page's
// size. The trace is the realworld group's largest: babel compiling ws's
// modules (7.3 GB, 390 M entries, 15,000 sites when measured; typescript's
// is 4.1 GB, handlebars' 3.3 GB), at scale 1 and at a tenth of it, so
// that the page's size is seen not to follow the trace's length.

// reportWorkload is the realworld workload whose trace is the largest.
const reportWorkload = "babel"

func benchReport() error {
	npm, script, dir, bin, err := realWorldSetup("report-")
	if err != nil {
		return err
	}
	defer dropWorkDir(dir)
	runs := max(1, min(*flagRuns, 3))
	t := &table{title: fmt.Sprintf("the report: memtrace report beside memtrace lifetime --format json on the same trace (the realworld group's largest, %s), CPU time (median of %d runs), peak RSS, and the page's size", reportWorkload, runs)}
	t.add("trace", "size", "entries", "sites", "lifetime --format json", "report", "ratio", "target", "peak RSS json / report", "HTML", "")
	for _, scale := range []string{"1", "0.1"} {
		out := filepath.Join(dir, "trace-"+scale)
		gen := exec.Command(bin, "node", "-q", "--out", out, script, reportWorkload, scale, filepath.Join(dir, "result"))
		gen.Env = append(os.Environ(), "MT_NPM="+npm)
		if b, err := trackedCombinedOutput(gen); err != nil {
			return fmt.Errorf("tracing %s at scale %s: %v\n%s", reportWorkload, scale, err, b)
		}
		se, err := tracedir.ReadSession(out)
		if err != nil {
			return err
		}
		file := filepath.Join(out, tracedir.TraceFile)
		summary := filepath.Join(dir, "summary.json")
		js, err := measureRuns("report: lifetime --format json", file, false, runs, func() *exec.Cmd {
			cmd := exec.Command("sh", "-c", `exec "$1" lifetime --format json "$2" > "$3"`, "sh", bin, out, summary)
			return cmd
		})
		if err != nil {
			return err
		}
		page := filepath.Join(dir, "report.html")
		rep, err := measureRuns("report: memtrace report", file, false, runs, func() *exec.Cmd {
			return exec.Command(bin, "report", "-o", page, out)
		})
		if err != nil {
			return err
		}
		html, err := os.Stat(page)
		if err != nil {
			return err
		}
		var doc struct {
			Totals struct {
				Sites int `json:"sites"`
			} `json:"totals"`
		}
		if b, err := os.ReadFile(summary); err == nil {
			json.Unmarshal(b, &doc)
		}
		ratio := rep.cpu.Seconds() / js.cpu.Seconds()
		note := ""
		if busy := js.busy.worst(rep.busy); busy.loaded() {
			note = busy.String()
		}
		t.add(fmt.Sprintf("%s at scale %s", reportWorkload, scale), mb(se.Bytes), fmt.Sprintf("%.1f M", float64(se.Entries)/1e6),
			fmt.Sprint(doc.Totals.Sites), js.cpu.Round(time.Millisecond).String(), rep.cpu.Round(time.Millisecond).String(),
			fmt.Sprintf("%.2fx", ratio), fmt.Sprintf("<= 1.5x: %s", verdict(ratio <= 1.5)),
			fmt.Sprintf("%s / %s", mb(js.maxRSS), mb(rep.maxRSS)), mb(html.Size()), note)
		fmt.Fprintf(os.Stderr, "report %s %s: json %v, report %v (%.2fx), page %s\n", reportWorkload, scale,
			js.cpu.Round(time.Millisecond), rep.cpu.Round(time.Millisecond), ratio, mb(html.Size()))
		os.RemoveAll(out)
	}
	t.print()
	fmt.Println("  the page's size follows the program's allocation sites (every site has a row; the first 100 a page of their own, timelines of 240 buckets, 16 moments of retainers), not the trace's length")
	return nil
}
