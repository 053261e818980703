package project

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

// TestWebApp: a web app's pages get the configuration and the browser
// shim first in <head> and their inline scripts instrumented; its scripts
// are instrumented without the Node prelude, named by their path from the
// root, as modules when a page loads them so or they parse only as one;
// the browser shim is written to WebShimFile; a second run finds
// everything up to date, and a page that starts loading a script as a
// module makes that script's output change.
func TestWebApp(t *testing.T) {
	in := filepath.Join(t.TempDir(), "dist")
	out := filepath.Join(t.TempDir(), "out")
	write(t, in, map[string]string{
		"index.html":       "<!doctype html><html><head><title>t</title></head><body><script>var inline = {a: 1};</script><script src=\"app.js\"></script><script type=\"module\" src=\"./js/main.js\"></script></body></html>",
		"app.js":           "var app = { n: 1 };\n",
		"js/main.js":       "const m = { n: 2 };\nwindow.m = m;\n",
		"js/dep.js":        "export const d = { n: 3 };\n",
		"sub/page.htm":     "<p>no head<script type=module>import '/js/dep.js';</script>",
		"assets/style.css": "body { color: red }\n",
	})
	cfg := runtimeshim.Config{Collector: "ws://127.0.0.1:9/?token=t"}
	sum, err := Run(Options{In: in, Out: out, Web: true, PageConfig: []byte(cfg.JSON())})
	require.NoError(t, err)
	require.Zero(t, sum.Failed)
	require.Empty(t, sum.Warnings)
	page := read(t, filepath.Join(out, "index.html"))
	require.True(t, strings.HasPrefix(page, `<!doctype html><html><head><script>globalThis.__memtraceConfig={"collector":"ws://127.0.0.1:9/?token=t"};</script><script src="/__memtrace__/shim.js"></script><title>`), page)
	require.Contains(t, page, `"/index.html#inline-1"`)
	require.NotContains(t, page, "var inline = {a: 1};")
	require.Contains(t, read(t, filepath.Join(out, "sub", "page.htm")), `"/sub/page.htm#inline-1"`)
	require.Equal(t, runtimeshim.BrowserSource(), read(t, filepath.Join(out, WebShimFile)))
	app := read(t, filepath.Join(out, "app.js"))
	require.Contains(t, app, `"/app.js"`)
	require.NotContains(t, app, "require(")
	main := read(t, filepath.Join(out, "js", "main.js"))
	require.Contains(t, main, `"/js/main.js"`)
	require.NotContains(t, main, ".memtrace-shim")
	require.Contains(t, main, "import(s, o)") // a module's handle
	dep := read(t, filepath.Join(out, "js", "dep.js"))
	require.Contains(t, dep, "export")
	require.Equal(t, "body { color: red }\n", read(t, filepath.Join(out, "assets", "style.css")))

	sum, err = Run(Options{In: in, Out: out, Web: true, PageConfig: []byte(cfg.JSON())})
	require.NoError(t, err)
	require.Equal(t, 6, sum.UpToDate)

	// app.js loaded as a module now: instrumented as one.
	write(t, in, map[string]string{"index.html": "<html><head></head><body><script type=module src=/app.js></script></body></html>"})
	_, err = Run(Options{In: in, Out: out, Web: true, PageConfig: []byte(cfg.JSON())})
	require.NoError(t, err)
	require.NotEqual(t, app, read(t, filepath.Join(out, "app.js")))
}
