package serve

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/memtrace/memtrace/tracedir"
)

// TestModulePage: an ES module page with an import map (a bare
// specifier), a static import, a top-level await of a dynamic import and
// import.meta, served by memtrace serve, gives its untraced results, and
// every module is a script of the trace (module goal: the requests say
// so), whose original source the session's scripts/ keeps.
func TestModulePage(t *testing.T) {
	dir := filepath.Join("testdata", "modules")
	_, s, data := tracedAlike(t, dir, "JSON.stringify(window.results)")
	scripts := scriptNames(data)
	for _, name := range []string{"/index.html#inline-1", "/lib/shapes.js", "/lib/count.js", "/lib/lazy.js"} {
		if scripts[name] == 0 {
			t.Errorf("no script %s in the trace: %v", name, scripts)
		}
	}
	// The session's scripts/ keeps each one's original source.
	sd := filepath.Join(s.c.Out(), s.c.Sessions()[0])
	for name, file := range map[string]string{"/lib/shapes.js": "lib/shapes.js", "/lib/lazy.js": "lib/lazy.js"} {
		src, err := tracedir.ScriptSource(sd, name)
		if err != nil {
			t.Fatal(err)
		}
		orig, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(src, orig) {
			t.Errorf("scripts/ keeps for %s %q, not its source", name, src)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	inline, err := tracedir.ScriptSource(sd, "/index.html#inline-1")
	if err != nil || !bytes.Contains(page, inline) || !bytes.Contains(inline, []byte("import { area, Square } from 'shapes';")) {
		t.Errorf("scripts/ keeps for the inline module %q (%v)", inline, err)
	}
}
