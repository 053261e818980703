package runtimeshim

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

// TestUnderConstructionSet checks the shim's set of objects under
// construction (an open-addressing table with backward-shift deletion)
// against a Set, through random adds and removals with many collisions and
// growth, as core.js defines it.
func TestUnderConstructionSet(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testcorpus.Missing(t, "node")
		return
	}
	src, err := os.ReadFile(filepath.Join("src", "core.js"))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(src, []byte("  var ucKeys ="))
	j := bytes.Index(src, []byte("  var pendingStatic = []"))
	if i < 0 || j < i {
		t.Fatal("the set is not where this test looks (core.js)")
	}
	prog := "const imul = Math.imul;\n" + string(src[i:j]) + `
let seed = 7;
const rnd = (n) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
const ref = new Set();
for (let step = 0; step < 200000; step++) {
  const range = step < 100000 ? 40 : 3000;
  const id = 1 + rnd(range);
  switch (rnd(3)) {
    case 0: setUnder(id); ref.add(id); break;
    case 1: clearUnder(id); ref.delete(id); break;
    default:
      if (isUnder(id) !== ref.has(id)) { console.log('step ' + step + ': isUnder(' + id + ') is ' + isUnder(id)); process.exit(1); }
  }
  if (nUnder !== ref.size) { console.log('step ' + step + ': ' + nUnder + ' members, want ' + ref.size); process.exit(1); }
}
for (let id = 1; id <= 3000; id++) if (isUnder(id) !== ref.has(id)) { console.log('at the end: isUnder(' + id + ')'); process.exit(1); }
console.log('ok ' + ucKeys.length);
`
	out, err := exec.Command(node, "-e", prog).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "ok ") {
		t.Fatalf("%v: %s", err, out)
	}
}
