package runtimeshim

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkGHook runs testdata/bench/getloop.js under node and reports the
// cost of the G hook per property read against the plain loop, as the
// metric "x-slowdown" (go test -bench GHook -run '^$' ./runtime-shim).
func BenchmarkGHook(b *testing.B) {
	node := nodeOrSkip(b)
	shim := shimFile(b)
	prog, err := filepath.Abs("testdata/bench/getloop.js")
	if err != nil {
		b.Fatal(err)
	}
	var r struct {
		PlainNsPerRead float64 `json:"plainNsPerRead"`
		HookNsPerRead  float64 `json:"hookNsPerRead"`
		Ratio          float64 `json:"ratio"`
	}
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(node, "-r", shim, prog)
		cmd.Dir = b.TempDir()
		cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+filepath.Join(cmd.Dir, "mem-trace"))
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("%v", err)
		}
		if err := json.Unmarshal(out, &r); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
	b.ReportMetric(r.PlainNsPerRead, "plain-ns/read")
	b.ReportMetric(r.HookNsPerRead, "hook-ns/read")
	b.ReportMetric(r.Ratio, "x-slowdown")
}
