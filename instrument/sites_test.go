package instrument

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/internal/testswitch"
)

const meminsight = "../../shared/corpora/meminsight"

// TestSitesMatchJalangi checks the site conventions against MemInsight's
// expected traces: every range we map an iid to is one Jalangi 0.2.5 maps
// an iid to in the same program (SOURCE_MAPPING entries), and every
// Jalangi range other than those of return arguments (Rt, which has no
// site here) is one of ours, with every read's G kept (a superseded read
// has none, and no site).
func TestSitesMatchJalangi(t *testing.T) {
	progs, _ := filepath.Glob(filepath.Join(meminsight, "programs", "*.js"))
	if len(progs) == 0 {
		testcorpus.Missing(t, "MemInsight corpus not present")
	}
	for _, p := range progs {
		base := filepath.Base(p)
		exp, err := os.Open(filepath.Join(meminsight, "expected-trace", base+".expected"))
		if err != nil {
			continue
		}
		theirs := map[string]bool{}
		sc := bufio.NewScanner(exp)
		sc.Buffer(nil, 1<<20)
		enters := 0
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "[19,") {
				if enters++; enters > 1 {
					break // an eval'd script maps its own ranges
				}
			}
			if strings.HasPrefix(line, "[22,") {
				var iid, a, b, c, d int
				fmt.Sscanf(line, "[22,%d,%d,%d,%d,%d]", &iid, &a, &b, &c, &d)
				theirs[fmt.Sprintf("%d:%d-%d:%d", a, b, c, d)] = true
			}
		}
		exp.Close()
		src, _ := os.ReadFile(p)
		// KeepUses and KeepFlushes: Jalangi maps every property read
		// and statement end; superseded reads (supersede.go) and
		// statement ends that need no X (flushelide.go) have no site here.
		res, err := InstrumentWith(src, Options{Goal: js.Script, File: base}, testswitch.Switches{KeepUses: true, KeepFlushes: true})
		if err != nil {
			t.Errorf("%s: %v", base, err)
			continue
		}
		ours := map[string]bool{}
		for i, s := range res.Sites {
			k := fmt.Sprintf("%d:%d-%d:%d", s.StartLine, s.StartCol, s.EndLine, s.EndCol)
			ours[k] = true
			if !theirs[k] {
				t.Errorf("%s: iid %d maps to %s, which Jalangi never maps", base, i+1, k)
			}
		}
		for k := range theirs {
			if !ours[k] && !returnArg(src, k) {
				t.Errorf("%s: Jalangi maps %s, we never do", base, k)
			}
		}
	}
}

// returnArg reports whether a range is the argument of a return statement.
func returnArg(src []byte, k string) bool {
	var a, b, c, d int
	fmt.Sscanf(k, "%d:%d-%d:%d", &a, &b, &c, &d)
	lines := strings.Split(string(src), "\n")
	if a > len(lines) || b-1 > len(lines[a-1]) {
		return false
	}
	before := strings.TrimRight(lines[a-1][:b-1], " \t(")
	// Rt sites (return arguments) and for-in objects (H) have no site here.
	return strings.HasSuffix(before, "return") || strings.HasSuffix(before, " in")
}
