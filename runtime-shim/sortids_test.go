package runtimeshim

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSortIds runs src/sortids.js under node on lists of every kind a
// last-use block gives it: empty, one id, the insertion sort's sizes and
// the first radix sizes beside its limit (64), thousands to a hundred
// thousand ids, ids that need one to four bytes (under 2^8, 2^16, 2^24,
// up to 2^31 - 1), ids that differ only in their high bytes, ids in
// order, in reverse and with repeats. Each result
// must equal a comparison sort's, and the returned array must be one of
// the two given.
func TestSortIds(t *testing.T) {
	node := nodeOrSkip(t)
	dir := srcModules(t, "sortids")
	script := `
import { sortIds } from './sortids.mjs';
let seed = 7;
const rnd = (n) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed % n; };
const sizes = [0, 1, 2, 3, 63, 64, 65, 66, 100, 900, 2047, 2048, 2049, 5000, 100000];
const maxes = [1, 2, 255, 256, 257, 70000, (1 << 24) - 1, 1 << 24, 2147483647];
const count = new Int32Array(256);
let cases = 0;
for (const n of sizes) {
  for (const max of maxes) {
    for (const shape of ['random', 'ascending', 'descending', 'repeats', 'high']) {
      const a = new Int32Array(n + 3), b = new Int32Array(n + 3);
      a.fill(-5); // past n: must be left alone by the insertion sort
      let top = 0;
      for (let k = 0; k < n; k++) {
        let v;
        switch (shape) {
          case 'random': v = 1 + rnd(max); break;
          case 'ascending': v = 1 + Math.floor(k * max / Math.max(n, 1)); break;
          case 'descending': v = max - Math.floor(k * (max - 1) / Math.max(n, 1)); break;
          case 'repeats': v = 1 + rnd(Math.min(max, 5)); break;
          case 'high': v = Math.max(1, max - rnd(Math.min(max, 3)) * 65536 - rnd(2)); break;
        }
        a[k] = v;
        if (v > top) top = v;
      }
      const want = Array.from(a.subarray(0, n)).sort((x, y) => x - y);
      const got = sortIds(a, b, count, n, top);
      if (got !== a && got !== b) throw new Error('n ' + n + ': returned another array');
      for (let k = 0; k < n; k++) {
        if (got[k] !== want[k]) throw new Error(shape + ' n ' + n + ' max ' + max + ': at ' + k + ' got ' + got[k] + ' want ' + want[k]);
      }
      cases++;
    }
  }
}
console.log('cases ' + cases);
`
	if err := os.WriteFile(filepath.Join(dir, "run.mjs"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, filepath.Join(dir, "run.mjs")).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "cases 675" {
		t.Fatalf("output %q, want %q", got, "cases 675")
	}
}
