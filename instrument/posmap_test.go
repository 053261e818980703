package instrument_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testcorpus"
)

// utf16Lines splits text into lines of UTF-16 units, as the engine counts
// columns.
func utf16Lines(text string) [][]uint16 {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var out [][]uint16
	for _, l := range strings.Split(text, "\n") {
		out = append(out, utf16.Encode([]rune(l)))
	}
	return out
}

// TestPosMap: over real code (lodash, Octane's typescript compiler and a
// file of modern forms), every entry of a position map says something
// true of the two texts: original text entries run over equal text up to
// the next entry, and hook-call entries are at the name of a hook whose
// call stands for the operation at the original position (a call's
// callee or property name, "(", "[", "new", an assignment operator or a
// template). Instrumenting with the map gives the same code.
func TestPosMap(t *testing.T) {
	files := map[string]js.Goal{
		testcorpus.Dir(t, "node", "lodash", "lodash.js"):      js.CommonJS,
		testcorpus.Dir(t, "octane", "typescript-compiler.js"): js.Script,
	}
	modern := filepath.Join(t.TempDir(), "modern.js")
	require.NoError(t, os.WriteFile(modern, []byte("const o = { m() { return 1; }, get g() { return 2; }, s: 0 };\n"+
		"const f = () => o, ü = 'ünï' + o.m() + f().m() + f()\n  .m() + o?.m() + o['m']() + (f)().g + f?.().s;\n"+
		"o.s = new Map([[1, 2]]).size; o.s += 1; String.raw`x${o.g}`; class K extends Map { constructor() { super(); this.x = super.size; } }\n"+
		"const a = [o]; a[0] = 2;\n"), 0o644))
	files[modern] = js.CommonJS
	for path, goal := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			res, err := instrument.Instrument(src, instrument.Options{Goal: goal, File: "x.js", PosMap: true})
			require.NoError(t, err)
			plain, err := instrument.Instrument(src, instrument.Options{Goal: goal, File: "x.js"})
			require.NoError(t, err)
			require.Equal(t, string(plain.Code), string(res.Code), "the map changes the code")
			var m []int
			nums, names, _ := strings.Cut(string(res.PosMap), "\n")
			require.NoError(t, json.Unmarshal([]byte(nums), &m))
			if names != "" {
				// name, line, column of a function literal of the original
				var ns []any
				require.NoError(t, json.Unmarshal([]byte(names), &ns))
				require.Zero(t, len(ns)%3)
				for k := 0; k < len(ns); k += 3 {
					l, c := int(ns[k+1].(float64)), int(ns[k+2].(float64))
					at := string(utf16.Decode(utf16Lines(string(src))[l-1][c-1:]))
					require.True(t, strings.HasPrefix(at, "function") || strings.HasPrefix(at, "(") || strings.HasPrefix(at, "async") ||
						strings.ContainsAny(at[:1], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$"), "name %v at %q", ns[k], at[:min(len(at), 20)])
				}
			}
			require.Zero(t, len(m)%5)
			orig, inst := utf16Lines(string(src)), utf16Lines(string(res.Code))
			points, runs, stores, lookups := 0, 0, 0, 0
			for k := 0; k < len(m); k += 5 {
				line, col, ol, oc, kind := m[k], m[k+1], m[k+2], m[k+3], m[k+4]
				require.True(t, line >= 1 && line <= len(inst) && ol >= 1 && ol <= len(orig), "entry %d: lines %d, %d", k/5, line, ol)
				il, olText := inst[line-1], orig[ol-1]
				require.True(t, col >= 1 && col <= len(il)+1 && oc >= 1 && oc <= len(olText)+1, "entry %d: columns %d, %d", k/5, col, oc)
				switch kind {
				case 0:
					// Equal text up to the next entry of the line (or its end).
					end := len(il) + 1
					if k+5 < len(m) && m[k+5] == line {
						end = m[k+6]
					}
					n := end - col
					require.LessOrEqual(t, oc-1+n, len(olText), "entry %d: run past its original line", k/5)
					require.Equal(t, string(utf16.Decode(olText[oc-1:oc-1+n])), string(utf16.Decode(il[col-1:end-1])), "entry %d (line %d)", k/5, line)
					runs++
				case 2:
					// A hook's name after "H." (or the dot of a read), and
					// an operation of the original at the position.
					if il[col-1] == '.' {
						require.Contains(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$", string(rune(olText[oc-1])), "entry %d: read", k/5)
						break
					}
					if il[col-1] == '=' {
						// The store of an element write the program
						// performs itself: the original's "=".
						require.Equal(t, "] = ", string(utf16.Decode(il[col-3:col+1])), "entry %d: store", k/5)
						require.Equal(t, uint16('='), olText[oc-1], "entry %d: store's original", k/5)
						stores++
						points++
						break
					}
					if il[col-1] == '[' {
						// A method lookup the program performs, o[k]:
						// the original's "[".
						require.Equal(t, uint16('['), olText[oc-1], "entry %d: lookup's original", k/5)
						lookups++
						points++
						break
					}
					require.Equal(t, uint16('.'), il[col-2], "entry %d: not a hook name", k/5)
					name := string(utf16.Decode(il[col-1:]))
					if e := strings.IndexFunc(name, func(c rune) bool { return !strings.ContainsRune(identChars, c) }); e >= 0 && name[e] != '(' {
						// A method lookup the program performs, o.m: the
						// original's name (or the dot after a call).
						at := string(utf16.Decode(olText[oc-1:]))
						require.True(t, strings.HasPrefix(at, name[:e]) || at[0] == '.', "entry %d: lookup %q at %q", k/5, name[:e], at[:min(len(at), 20)])
						lookups++
						points++
						break
					}
					name = name[:strings.IndexByte(name, '(')]
					require.Contains(t, []string{"c", "m", "n", "M", "Mt", "Mk", "P", "Pq", "Pm", "Pu", "Pt", "ct", "mt"}, strings.TrimRight(name, "0123456789"), "entry %d: hook %s", k/5, name)
					at := string(utf16.Decode(olText[oc-1:]))
					require.True(t, strings.ContainsAny(at[:1], "([`=+-*/%&|^<>?!~.") || strings.HasPrefix(at, "new") ||
						strings.ContainsAny(at[:1], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$\\") || at[0] >= 0x80,
						"entry %d: %q at an original position", k/5, at)
					points++
				}
			}
			require.Positive(t, points)
			require.Positive(t, runs)
			require.Positive(t, stores)
			require.Positive(t, lookups)
			t.Logf("%d entries (%d points, %d of them lookups), %d bytes of map for %d bytes of code", len(m)/5, points, lookups, len(res.PosMap), len(res.Code))
		})
	}
}

// identChars are the ASCII characters of identifiers.
const identChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$"
