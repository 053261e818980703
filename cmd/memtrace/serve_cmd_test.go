package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

func TestServeCommand(t *testing.T) {
	app := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(app, "index.html"), []byte("<html><head></head><body><script src=a.js></script></body></html>"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(app, "a.js"), []byte("var o = { a: 1 };\n"), 0o644))
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(app, "leak")))
	out := filepath.Join(t.TempDir(), "traces")
	errOut := &syncBuffer{}
	ios := &IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: errOut}
	ready := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	cmd := newCmdServe(ios, func(o *serveOptions) error {
		o.Ready, o.ctx = ready, ctx
		err := serveRun(o)
		done <- err
		return err
	})
	cmd.SetArgs([]string{"--listen", "127.0.0.1:0", "--out", out, app})
	go cmd.Execute()
	addr := <-ready
	require.Contains(t, errOut.String(), "instrumented at http://"+addr+"/")
	get := func(p string) (int, string) {
		resp, err := http.Get("http://" + addr + p)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, page := get("/")
	require.Equal(t, 200, code)
	require.Contains(t, page, `<head><script>globalThis.__memtraceConfig=`)
	require.Contains(t, page, `<script src="/__memtrace__/shim.js"></script></head>`)
	code, js := get("/a.js")
	require.Equal(t, 200, code)
	require.Contains(t, js, `__mt.Sg(`)
	code, shim := get("/__memtrace__/shim.js")
	require.Equal(t, 200, code)
	require.Equal(t, runtimeshim.BrowserSource(), shim)
	code, _ = get("/leak")
	require.Equal(t, http.StatusForbidden, code, "a link out of the app is not followed")
	code, _ = get("/../../etc/passwd")
	require.Equal(t, http.StatusNotFound, code)
	cancel()
	require.NoError(t, <-done)
}
