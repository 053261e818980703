package lifetime

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/trace/tracegen"
)

// TestAgainstMemInsightJar is a differential test against MemInsight's own
// Java engine on generated traces, which no golden covers. The jar cannot
// be built from this repository (its dependencies come from outside the
// registries this project may use), so the test runs only when
// MEMINSIGHT_JAR names a built lifetime-analysis jar; it is a cross-check,
// not part of the acceptance suite.
func TestAgainstMemInsightJar(t *testing.T) {
	jar := os.Getenv("MEMINSIGHT_JAR")
	if jar == "" {
		t.Skip("MEMINSIGHT_JAR is not set (optional cross-check against MemInsight's Java engine)")
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Fatalf("MEMINSIGHT_JAR is set but java is missing: %v", err)
	}
	compare := func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "mem-trace")
		require.NoError(t, os.WriteFile(path, data, 0o644))
		cmd := exec.Command("java", "-ea", "-Dtesting=yes", "-Drcverbose=yes", "-jar", jar, "--ref", "--no-progress", "--trace", path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		want, err := cmd.Output()
		require.NoError(t, err, stderr.String())
		var got bytes.Buffer
		require.NoError(t, WriteRC(&got, bytes.NewReader(data), Options{MemInsightReturns: true}, RCOptions{Testing: true, Verbose: true}))
		require.Equal(t, strings.TrimSpace(string(want)), strings.TrimSpace(got.String()))
	}
	// tracegen: large, consistent heaps.
	for _, c := range []tracegen.Options{
		{Bytes: 64 << 10, Seed: 1},
		{Bytes: 1 << 20, Seed: 2},
		{Bytes: 1 << 20, Seed: 3, Slots: 8, Children: 2},
		{Bytes: 4 << 20, Seed: 4, Slots: 2000},
	} {
		t.Run(fmt.Sprintf("tracegen-seed%d", c.Seed), func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, tracegen.Generate(&buf, c))
			compare(t, buf.Bytes())
		})
	}
	// The property tests' generator: closures, cycles, DOM, DEBUG points.
	// One JVM per trace is slow, so a handful of seeds.
	for seed := int64(1); seed <= 40; seed++ {
		t.Run(fmt.Sprintf("random-seed%d", seed), func(t *testing.T) {
			compare(t, newGen(seed).program(300))
		})
	}
}
