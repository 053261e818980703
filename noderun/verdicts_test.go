package noderun_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/lifetime"
)

// verdictRE is an expected verdict, a comment at the end of the line of
// the allocation it is about.
var verdictRE = regexp.MustCompile(`// verdict: (leaking|not leaking)\s*$`)

// TestVerdicts (issue 53, "Verdicts a person can trust"): each program in
// testdata/verdicts (README.md there) runs under memtrace node with the
// same output as under plain node, and the JSON summary, with the engine's
// defaults, gives every allocation site of the program the verdict its
// line states: no missed leak, no flagged non-leak. A site of the program
// whose line states nothing must not be leaking either.
func TestVerdicts(t *testing.T) {
	progs, err := filepath.Glob(filepath.Join(testcorpus.Root(), "testdata", "verdicts", "*.js"))
	require.NoError(t, err)
	require.NotEmpty(t, progs)
	for _, p := range progs {
		name := filepath.Base(p)
		t.Run(strings.TrimSuffix(name, ".js"), func(t *testing.T) {
			src, err := os.ReadFile(p)
			require.NoError(t, err)
			want := map[int]bool{} // line → leaking
			sc := bufio.NewScanner(bytes.NewReader(src))
			for line := 1; sc.Scan(); line++ {
				if m := verdictRE.FindStringSubmatch(sc.Text()); m != nil {
					want[line] = m[1] == "leaking"
				}
			}
			require.NotEmpty(t, want, "no verdicts in %s", name)

			data, _ := runDifferential(t, name, string(src))
			var sum bytes.Buffer
			require.NoError(t, lifetime.Report(opener(data), lifetime.ReportOptions{Summary: &sum, TempDir: t.TempDir()}))
			var doc lifetime.Summary
			require.NoError(t, json.Unmarshal(sum.Bytes(), &doc))

			seen := map[int]bool{}
			for _, s := range doc.Sites {
				file, line, ok := siteFileLine(s.Site)
				if !ok || filepath.Base(file) != name {
					continue
				}
				leak, stated := want[line]
				seen[line] = seen[line] || stated
				desc := name + ":" + strconv.Itoa(line) + ": " + siteJSON(s)
				switch {
				case stated && leak:
					assert.True(t, s.Leaking, "a missed leak: %s", desc)
				case s.Leaking:
					assert.False(t, s.Leaking, "a non-leak flagged leaking: %s", desc)
				}
			}
			var lines []int
			for l := range want {
				if !seen[l] {
					lines = append(lines, l)
				}
			}
			sort.Ints(lines)
			assert.Empty(t, lines, "lines with a verdict and no allocation site in the summary")
		})
	}
}

// siteFileLine splits a summary site, file:startLine:startCol:endLine:endCol.
func siteFileLine(site string) (string, int, bool) {
	parts := strings.Split(site, ":")
	if len(parts) < 5 {
		return "", 0, false
	}
	line, err := strconv.Atoi(parts[len(parts)-4])
	if err != nil {
		return "", 0, false
	}
	return strings.Join(parts[:len(parts)-4], ":"), line, true
}

func siteJSON(s lifetime.SiteSummary) string {
	b, _ := json.Marshal(s)
	return string(b)
}
