package body

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

// t262Driver runs test262 scripts, each in a new context, and prints each
// one's outcome: how it threw, or what it printed (async tests print
// their verdict once their promises settle).
const t262Driver = `
const vm = require("vm");
const jobs = JSON.parse(require("fs").readFileSync(0, "utf8"));
const results = {};
process.on("unhandledRejection", () => {});
for (const job of jobs) {
  const log = [];
  results[job.id] = log;
  const ctx = vm.createContext({print: (...a) => log.push(a.join(" "))});
  try {
    vm.runInContext(job.src, ctx, {timeout: 5000});
    log.push("completed");
  } catch (e) {
    const name = e && e.constructor && e.constructor.name;
    log.push("threw " + name + (name === "Test262Error" ? ": " + e.message : ""));
  }
}
setTimeout(() => console.log(JSON.stringify(results)), 200);
`

var (
	t262Flags    = regexp.MustCompile(`(?m)^flags:\s*\[([^\]]*)\]`)
	t262Includes = regexp.MustCompile(`(?m)^includes:\s*\[([^\]]*)\]`)
	t262IncBlock = regexp.MustCompile(`(?m)^includes:\s*\n((?:\s+-\s*\S+\n)+)`)
)

func t262List(re *regexp.Regexp, src string) []string {
	var out []string
	if m := re.FindStringSubmatch(src); m != nil {
		for _, x := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ',' || r == ' ' || r == '-' || r == '\n' }) {
			out = append(out, strings.TrimSpace(x))
		}
	}
	return out
}

// TestJSASCIITest262 escapes every script test of the shared test262
// corpus that holds a character beyond ASCII (with its harness: the
// program node runs) and requires the escaped program to end as the
// original does: both complete, or both throw the same error (a parse
// error included), or both print the same async verdict. Module tests
// are left out (the driver runs scripts).
func TestJSASCIITest262(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	root := testcorpus.Dir(t, "test262")
	harness := func(name string) string {
		b, err := os.ReadFile(filepath.Join(root, "harness", name))
		require.NoError(t, err)
		return string(b)
	}
	type job struct {
		ID  string `json:"id"`
		Src string `json:"src"`
	}
	var orig, esc []job
	refused := map[string]bool{}
	modules := 0
	err = filepath.WalkDir(filepath.Join(root, "test"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") || strings.Contains(p, "_FIXTURE") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil || isASCII(b) {
			return err
		}
		src := string(b)
		flags := map[string]bool{}
		for _, f := range t262List(t262Flags, src) {
			flags[f] = true
		}
		if flags["module"] {
			modules++
			return nil
		}
		prog := src
		if !flags["raw"] {
			var h strings.Builder
			if flags["onlyStrict"] {
				h.WriteString("\"use strict\";\n")
			}
			incs := []string{"assert.js", "sta.js"}
			if flags["async"] {
				incs = append(incs, "doneprintHandle.js")
			}
			incs = append(incs, t262List(t262Includes, src)...)
			incs = append(incs, t262List(t262IncBlock, src)...)
			for _, inc := range incs {
				h.WriteString(harness(inc))
				h.WriteString("\n")
			}
			prog = h.String() + src
		}
		id, _ := filepath.Rel(root, p)
		out, ok := JSASCII([]byte(prog))
		if !ok {
			refused[id] = true
			return nil
		}
		requireASCII(t, out)
		orig = append(orig, job{id, prog})
		esc = append(esc, job{id, string(out)})
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, orig)

	run := func(jobs []job) map[string][]string {
		in, err := json.Marshal(jobs)
		require.NoError(t, err)
		cmd := exec.Command(node, "-e", t262Driver)
		cmd.Stdin = bytes.NewReader(in)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, err := cmd.Output()
		require.NoError(t, err, stderr.String())
		var res map[string][]string
		require.NoError(t, json.Unmarshal(stdout, &res))
		return res
	}
	want, got := run(orig), run(esc)
	var ids []string
	for _, j := range orig {
		ids = append(ids, j.ID)
	}
	sort.Strings(ids)
	for _, id := range ids {
		require.Equal(t, want[id], got[id], id)
	}
	hist := map[string]int{}
	for _, id := range ids {
		hist[strings.Join(want[id], "|")]++
	}
	t.Logf("outcomes: %v", hist)
	var r []string
	for id := range refused {
		r = append(r, id)
	}
	sort.Strings(r)
	t.Logf("%d tests escaped and run alike, %d refused, %d modules left out; refused: %v", len(orig), len(refused), modules, r)
	// Refusals are safe but should stay rare: the tests of characters
	// that cannot be in a name, of templates, and the like.
	require.Less(t, len(refused), len(orig)/4)
}

// TestJSASCIILodash escapes lodash (whose deburring tables and word
// regular expressions are full of Latin-1 and other letters) and
// compares the two copies' answers on text beyond ASCII.
func TestJSASCIILodash(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := testcorpus.Dir(t, "node", "lodash")
	src, err := os.ReadFile(filepath.Join(dir, "lodash.js"))
	require.NoError(t, err)
	out, ok := JSASCII(src)
	require.True(t, ok)
	requireASCII(t, out)
	tmp := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "orig.js"), src, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "esc.js"), out, 0o600))
	probe := `
const _ = require(process.argv[1]);
const inputs = ["déjà vu", "Crème Brûlée", "ÀÉÎÕÜ àéîõü ß Æ œ", "fred, barney, & pebbles", "日本語 テキスト", "😀 emoji 😀",
  "camelCaseÀÉ", "Ĳsselmeer ŉ", "São Paulo—Zürich", "\u00a0nbsp\u2028ls"];
const fns = ["deburr", "words", "kebabCase", "camelCase", "snakeCase", "startCase", "upperFirst", "escape", "unescape",
  "escapeRegExp", "pad", "trim", "toUpper", "split", "size", "toArray", "truncate"];
const res = {};
for (const f of fns) res[f] = inputs.map(s => { try { return _[f](s) } catch (e) { return "threw " + e.name } });
res.template = _.template("héllo <%= name %> ${ x } 😀")({name: "wörld", x: "ß"});
console.log(JSON.stringify(res));`
	runProbe := func(lib string) string {
		cmd := exec.Command(node, "-e", probe, filepath.Join(tmp, lib))
		b, err := cmd.CombinedOutput()
		require.NoError(t, err, string(b))
		return string(b)
	}
	want := runProbe("orig.js")
	require.Equal(t, want, runProbe("esc.js"))
	require.Contains(t, want, `"deja vu"`)
}
