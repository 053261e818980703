package ondemand

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
)

// post sends one request to the server and returns the status, the
// answer's header and code.
func post(t *testing.T, url string, body string) (int, Response, string) {
	t.Helper()
	resp, err := http.Post(url, "application/octet-stream", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, Response{}, string(b)
	}
	head, code, ok := bytes.Cut(b, []byte("\n"))
	require.True(t, ok, "%q", b)
	var r Response
	require.NoError(t, json.Unmarshal(head, &r))
	require.Equal(t, r.Len, len(code))
	return resp.StatusCode, r, string(code)
}

// TestHandler: over HTTP (a real server on loopback) the service answers
// as it does on a stream: the same code for the same request, run-time
// code with its site table apart, an instrumenter's error in the answer;
// requests in parallel; and it refuses what is not one request.
func TestHandler(t *testing.T) {
	h, err := Handler(Options{Exclude: []string{"vendor/**"}}, 4096)
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()

	src := "function f(o) { return o.a; }\nmodule.exports = f({ a: [1] });\n"
	want, err := instrument.Instrument([]byte(src), instrument.Options{Goal: js.CommonJS, File: "app/m.js"})
	require.NoError(t, err)
	code, r, got := post(t, srv.URL, request(7, "app/m.js", "commonjs", src))
	require.Equal(t, http.StatusOK, code)
	assert.Equal(t, int64(7), r.ID)
	assert.Empty(t, r.Error)
	assert.Equal(t, string(want.Code), got)

	// Excluded: given back as it is.
	_, r, got = post(t, srv.URL, request(8, "vendor/x.js", "commonjs", src))
	assert.Equal(t, src, got)

	// Run-time code, its sites apart.
	h2, _ := json.Marshal(Request{ID: 9, Name: "eval", Goal: "script", Eval: true, SitesApart: true, Len: len("({ a: 1 })")})
	_, r, got = post(t, srv.URL, string(h2)+"\n({ a: 1 })")
	ev, err := instrument.Instrument([]byte("({ a: 1 })"), instrument.Options{Goal: js.Script, File: "eval", Eval: true, SitesApart: true})
	require.NoError(t, err)
	assert.Equal(t, string(ev.Code), got)
	assert.Equal(t, string(ev.SiteTable), r.Sites)

	// A syntax error: the answer says so, with no code.
	_, r, got = post(t, srv.URL, request(10, "app/bad.js", "commonjs", "let = = 1;\n"))
	assert.Contains(t, r.Error, "app/bad.js:1:")
	assert.Empty(t, got)

	// In parallel.
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, r, got := post(t, srv.URL, request(int64(100+i), "app/m.js", "commonjs", src))
			assert.Equal(t, int64(100+i), r.ID)
			assert.Equal(t, string(want.Code), got)
		}()
	}
	wg.Wait()

	// Not one request.
	resp, err := http.Get(srv.URL)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.Equal(t, "POST", resp.Header.Get("Allow"))
	for body, want := range map[string]string{
		"":        "no request header line",
		"{nope\n": "bad request header",
		request(1, "a.js", "commonjs", "x") + "more": "the header says 1 bytes of source, the body has 5",
		`{"id":1,"len":-1}` + "\n":                   "bad request length -1",
		`{"id":1,"goal":"nope","len":1}` + "\nx":     "",
	} {
		code, r, got := post(t, srv.URL, body)
		if want == "" {
			assert.Equal(t, http.StatusOK, code)
			assert.Equal(t, `unknown goal "nope"`, r.Error)
			continue
		}
		assert.Equal(t, http.StatusBadRequest, code, "%q", body)
		assert.Contains(t, got, want, "%q", body)
	}
	code, _, got = post(t, srv.URL, request(1, "big.js", "commonjs", strings.Repeat("x", 5000)))
	assert.Equal(t, http.StatusRequestEntityTooLarge, code)
	assert.Contains(t, got, "larger than 4096 bytes")
}
