package runtimeshim

import (
	"strconv"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/trace"
)

// TestShimResumeMarker: the shim declares a generator's or async
// function's resume function in the function's first context under the
// name trace.ResumeMarker, which the FREE_VARS the instrumenter writes
// for it keep (docs/instrumentation.md §7). The shim's source spells the
// name literally; the bundle must carry the Go constant's value.
func TestShimResumeMarker(t *testing.T) {
	if q := strconv.Quote(trace.ResumeMarker); !strings.Contains(Source(), q) {
		t.Fatalf("the shim bundle does not contain %s (trace.ResumeMarker)", q)
	}
}
