package ondemand

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
)

func request(id int64, name, goal, src string) string {
	h, _ := json.Marshal(Request{ID: id, Name: name, Goal: goal, Len: len(src)})
	return string(h) + "\n" + src
}

type answer struct{ err, code, sites string }

// readAnswers reads the server's answers, by id.
func readAnswers(t *testing.T, out []byte) map[int64]answer {
	t.Helper()
	got := map[int64]answer{}
	br := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := br.ReadBytes('\n')
		if err == io.EOF && len(line) == 0 {
			break
		}
		require.NoError(t, err)
		var r Response
		require.NoError(t, json.Unmarshal(line, &r))
		buf := make([]byte, r.Len)
		_, err = io.ReadFull(br, buf)
		require.NoError(t, err)
		got[r.ID] = answer{r.Error, string(buf), r.Sites}
	}
	return got
}

// TestServe: the instrument-server answers each request with what
// instrument.Instrument makes of it (in any order), an error for a syntax
// error, the source itself for an excluded name or instrumented code.
func TestServe(t *testing.T) {
	var in strings.Builder
	var srcs []string
	for i := 0; i < 40; i++ {
		src := fmt.Sprintf("var o%d = { v: %d, w: [%d] };\nmodule.exports = o%d;\n", i, i, i, i)
		srcs = append(srcs, src)
		in.WriteString(request(int64(i+1), fmt.Sprintf("m%d.js", i), "commonjs", src))
	}
	in.WriteString(request(100, "bad.js", "commonjs", "var = ;"))
	in.WriteString(request(101, "vendor/x.js", "commonjs", "var keep = {};"))
	in.WriteString(request(102, "e.mjs", "module", "export const q = [1];\n"))
	done, err := instrument.Instrument([]byte(srcs[0]), instrument.Options{Goal: js.CommonJS, File: "m0.js"})
	require.NoError(t, err)
	in.WriteString(request(103, "again.js", "commonjs", string(done.Code)))

	var out bytes.Buffer
	require.NoError(t, Serve(strings.NewReader(in.String()), &out, Options{Exclude: []string{"vendor"}}))
	got := readAnswers(t, out.Bytes())
	require.Len(t, got, 44)
	code := func(id int64) (string, string) { return got[id].err, got[id].code }
	for i, src := range srcs {
		want, err := instrument.Instrument([]byte(src), instrument.Options{Goal: js.CommonJS, File: fmt.Sprintf("m%d.js", i)})
		require.NoError(t, err)
		e, c := code(int64(i + 1))
		assert.Empty(t, e)
		assert.Equal(t, string(want.Code), c)
	}
	e, c := code(100)
	assert.Contains(t, e, "bad.js:1:5")
	assert.Empty(t, c)
	e, c = code(101)
	assert.Empty(t, e)
	assert.Equal(t, "var keep = {};", c)
	e, c = code(102)
	assert.Empty(t, e)
	assert.True(t, strings.HasPrefix(c, `var H = __mt$h(); function __mt$h() { return H || (H = __mt.S("e.mjs"`), c)
	e, c = code(103)
	assert.Empty(t, e)
	assert.Equal(t, string(done.Code), c)
}

// TestServeSitesApart: an eval request with sitesApart gets code whose
// prologue passes 0 for its site table and the table in the answer's
// header (instrument.Options.SitesApart); without it, the table stays in
// the code and the header has none.
func TestServeSitesApart(t *testing.T) {
	src := "var o = { v: [1] }; o.v"
	var in strings.Builder
	for i, apart := range []bool{true, false} {
		h, _ := json.Marshal(Request{ID: int64(i + 1), Name: "eval", Goal: "script", Eval: true, SitesApart: apart, Len: len(src)})
		in.WriteString(string(h) + "\n" + src)
	}
	var out bytes.Buffer
	require.NoError(t, Serve(strings.NewReader(in.String()), &out, Options{}))
	got := readAnswers(t, out.Bytes())
	want, err := instrument.Instrument([]byte(src), instrument.Options{Goal: js.Script, File: "eval", Eval: true, SitesApart: true})
	require.NoError(t, err)
	assert.Equal(t, answer{"", string(want.Code), string(want.SiteTable)}, got[1])
	assert.Contains(t, got[1].code, `__mt.S("eval", 0, `)
	assert.NotEmpty(t, got[1].sites)
	assert.Empty(t, got[2].sites)
	assert.Contains(t, got[2].code, `__mt.S("eval", "`+got[1].sites+`", `)
}

// TestServeBadRequest: a malformed header ends the server with an error.
func TestServeBadRequest(t *testing.T) {
	var out bytes.Buffer
	assert.Error(t, Serve(strings.NewReader("not json\n"), &out, Options{}))
	assert.Error(t, Serve(strings.NewReader(`{"id":1,"len":10}`+"\nshort"), &out, Options{}))
	assert.NoError(t, Serve(strings.NewReader(""), &out, Options{}))
}

// TestServeVMAndPosMap: code given to vm comes as eval requests named by
// its file (file: the run's exclusions apply to the name) or as CommonJS
// and module bodies; a posmap request is answered with the position map
// of the code the same request without it gives (the source's own for an
// excluded name: "[]"), TypeScript's composed with esbuild's source map,
// and a syntax error as for the code.
func TestServeVMAndPosMap(t *testing.T) {
	req := func(r Request, src string) string {
		r.Len = len(src)
		h, err := json.Marshal(r)
		require.NoError(t, err)
		return string(h) + "\n" + src
	}
	script := "let kept = { a: [1] };\nfunction* g() { yield kept; }\n"
	body := "const o = { f() { return new Error('x'); } };\nreturn o.f();\n"
	ts := "function add(a: number, b: number): number { return a + b; }\nexport const s: number = add(1, 2);\n"
	var in strings.Builder
	in.WriteString(req(Request{ID: 1, Name: "app/v.js", Goal: "script", Eval: true, Global: true, File: true}, script))
	in.WriteString(req(Request{ID: 2, Name: "vendor/v.js", Goal: "script", Eval: true, Global: true, File: true}, script))
	in.WriteString(req(Request{ID: 3, Name: "app/b.js", Goal: "commonjs"}, body))
	in.WriteString(req(Request{ID: 4, Name: "app/b.js", Goal: "commonjs", PosMap: true}, body))
	in.WriteString(req(Request{ID: 5, Name: "vendor/b.js", Goal: "commonjs", PosMap: true}, body))
	in.WriteString(req(Request{ID: 6, Name: "app/v.js", Goal: "script", Eval: true, Global: true, File: true, PosMap: true}, script))
	in.WriteString(req(Request{ID: 7, Name: "app/t.ts", Goal: "module", Loader: "ts", PosMap: true}, ts))
	in.WriteString(req(Request{ID: 8, Name: "app/bad.js", Goal: "commonjs", PosMap: true}, "var = ;"))
	var out bytes.Buffer
	require.NoError(t, Serve(strings.NewReader(in.String()), &out, Options{Exclude: []string{"vendor"}}))
	got := readAnswers(t, out.Bytes())
	require.Len(t, got, 8)

	vmOpts := instrument.Options{Goal: js.Script, File: "app/v.js", Eval: true, GlobalCode: true}
	want, err := instrument.Instrument([]byte(script), vmOpts)
	require.NoError(t, err)
	assert.Equal(t, answer{code: string(want.Code)}, got[1])
	assert.Equal(t, answer{code: script}, got[2], "an excluded vm file runs as it is")
	cjs, err := instrument.Instrument([]byte(body), instrument.Options{Goal: js.CommonJS, File: "app/b.js", PosMap: true})
	require.NoError(t, err)
	assert.Equal(t, answer{code: string(cjs.Code)}, got[3])
	assert.Equal(t, answer{code: string(cjs.PosMap)}, got[4])
	// o.f() on line 2: its hook's name maps to "f" (2:10), kind 2.
	assert.Contains(t, got[4].code, ",2,10,2,")
	assert.Equal(t, answer{code: "[]"}, got[5])
	vmOpts.PosMap = true
	wantMap, err := instrument.Instrument([]byte(script), vmOpts)
	require.NoError(t, err)
	assert.Equal(t, answer{code: string(wantMap.PosMap)}, got[6])
	tsMap, err := instrument.Instrument([]byte(ts), instrument.Options{Goal: js.Module, File: "app/t.ts", Loader: instrument.TS, PosMap: true})
	require.NoError(t, err)
	assert.Equal(t, answer{code: string(tsMap.PosMap)}, got[7])
	// add(1, 2) is at 2:26 in the source, later in esbuild's output (the
	// types removed): the call's hook maps to the source's column.
	assert.Contains(t, got[7].code, ",2,26,2", got[7].code)
	assert.Contains(t, got[8].err, "app/bad.js:1:5")
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeSlowNotice: a request that takes longer than SlowAfter names
// its module on standard error while it runs, once per module however
// many requests for it are slow (its code, then its position map); quick
// ones are not named. The slow requests wait (serveDelay) until their
// module has been named, then long enough for a second notice.
func TestServeSlowNotice(t *testing.T) {
	const after = 150 * time.Millisecond
	var stderr syncBuffer
	serveDelay = func(req *Request) {
		if !strings.HasPrefix(req.Name, "slow") {
			return
		}
		for end := time.Now().Add(10 * time.Second); !strings.Contains(stderr.String(), req.Name) && time.Now().Before(end); {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(2 * after)
	}
	defer func() { serveDelay = nil }()
	big := "module.exports = 1;\n/*" + strings.Repeat("x", 2_500_000) + "*/\n"
	var in strings.Builder
	in.WriteString(request(1, "slow/big.js", "commonjs", big))
	in.WriteString(request(2, "quick.js", "commonjs", "module.exports = [1];\n"))
	h, _ := json.Marshal(Request{ID: 3, Name: "slow/big.js", Goal: "commonjs", PosMap: true, Len: len(big)})
	in.WriteString(string(h) + "\n" + big)
	h, _ = json.Marshal(Request{ID: 4, Name: "slow/map.js", Goal: "commonjs", PosMap: true, Len: 12})
	in.WriteString(string(h) + "\n" + "var o = {};\n")
	var out bytes.Buffer
	require.NoError(t, Serve(strings.NewReader(in.String()), &out, Options{SlowAfter: after, Stderr: &stderr}))
	got := readAnswers(t, out.Bytes())
	require.Len(t, got, 4)
	for id, a := range got {
		assert.Empty(t, a.err, "request %d", id)
	}
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	sort.Strings(lines)
	require.Len(t, lines, 2, "one notice per slow module: %q", lines)
	// big.js is named once, by whichever of its two slow requests (its
	// instrumentation, its position map) the server reached first: the
	// order of concurrent requests is the scheduler's.
	assert.Contains(t, []string{
		"memtrace: instrumenting slow/big.js (2.5 MB) is taking a while...",
		"memtrace: mapping the stack positions of slow/big.js (2.5 MB) is taking a while...",
	}, lines[0])
	assert.Equal(t, "memtrace: mapping the stack positions of slow/map.js (12 bytes) is taking a while...", lines[1])
}
