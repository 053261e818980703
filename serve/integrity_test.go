package serve

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/memtrace/memtrace/project"
)

// TestIntegrity: a page's scripts with integrity attributes (a classic
// crossorigin one, sha384; a module, sha256) load traced as untraced: the
// rewritten page carries the integrity of the bytes memtrace serve
// sends, and the crossorigin classic script is served as a classic one.
func TestIntegrity(t *testing.T) {
	want, _, _ := tracedAlike(t, filepath.Join("testdata", "integrity"), "JSON.stringify(window.results)")
	if want != `{"lib":true,"mod":"module"}` {
		t.Fatalf("the page gives %s", want)
	}
}

// TestIntegrityAheadOfTime: the same page instrumented ahead of time
// (project.Run, Web) and served by a plain static server.
func TestIntegrityAheadOfTime(t *testing.T) {
	dir := filepath.Join("testdata", "integrity")
	out := filepath.Join(t.TempDir(), "app")
	if _, err := project.Run(project.Options{In: dir, Out: out, Web: true, PageConfig: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	static := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer static.Close()
	if got, want := pageResults(t, static.URL+"/index.html"), `{"lib":true,"mod":"module"}`; got != want {
		t.Fatalf("the instrumented page gives %s, want %s", got, want)
	}
}
