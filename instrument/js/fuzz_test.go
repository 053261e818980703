package js

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

// FuzzParse checks that the parser never panics or hangs, and that a
// successful parse yields spans inside the source, each child inside its
// parent. Seeds: small corpus files and snippets of the table tests.
//
//	go test -run '^$' -fuzz '^FuzzParse$' -fuzztime 60s ./instrument/js
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "a", "let [a, , b = 1, ...c] = d", "x = {a, b: 1, [c]: 2, get e() {}, ...j}",
		"class A extends B { #x = 1; static { this.y = `a${b}c` } get z() { return this.#x?.[0] ?? /re/g } }",
		"async function* f({a = 1, ...b}, [c, , d] = []) { for await (const x of y) yield* x; }",
		"export default async (a, b = c => d) => { try { await e } catch ({f}) { throw f } finally { g() } }",
		"import a, {b as c} from 'd' with { type: 'json' }; export * as e from 'f'",
		"a\n++b\n/re/g.test(c)<!--x\n-->y", "'\\u{1F600}\\uD800\\01'", "0x1_fn + 1e-3 + 010 + .5",
		"label: for (;;) { continue label }", "with (a) { if (b) function f() {} }",
		"@dec class A { @(x) m() {} }", "(a, b) => ({a = 1} = {})", "`${`${`${a}`}`}`",
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(1))
	}
	if root := testcorpus.Root(); root != "" {
		dir := filepath.Join(root, "..", "shared", "corpora")
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".js") || strings.Contains(path, "test262") {
				return nil
			}
			if info, err := d.Info(); err == nil && info.Size() <= 4096 {
				if src, err := os.ReadFile(path); err == nil {
					f.Add(src, uint8(0))
				}
			}
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, src []byte, goal uint8) {
		g := Goal(goal % 3)
		start := time.Now()
		prog, err := Parse(src, Options{Goal: g})
		// A linear-time parser needs far less than this; anything slower
		// is a hang in disguise.
		if budget := time.Second + time.Duration(len(src))*time.Microsecond; time.Since(start) > budget {
			t.Fatalf("parsing %d bytes took %v", len(src), time.Since(start))
		}
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("%q: %v", src, err)
			}
			return
		}
		checkSpans(t, src, prog)
	})
}
