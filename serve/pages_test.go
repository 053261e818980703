package serve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/internal/pagetest"
	"github.com/memtrace/memtrace/tracedir"
)

// The helpers of package pagetest, as this package's tests name them.
func newBrowser(t *testing.T) context.Context               { return pagetest.Browser(t) }
func pageBrowser(t *testing.T, page string) context.Context { return pagetest.PageBrowser(t, page) }
func openPage(t *testing.T, page string) context.Context    { return pagetest.OpenPage(t, page) }
func waitDone(t *testing.T, ctx context.Context)            { pagetest.WaitDone(t, ctx) }
func leave(t *testing.T, ctx context.Context)               { pagetest.Leave(t, ctx) }
func pageValue(t *testing.T, page, expr string) string      { return pagetest.PageValue(t, page, expr) }
func browse(t *testing.T, pages []string, wait bool)        { pagetest.Browse(t, pages, wait) }
func completeTrace(t *testing.T, c *collector.Collector) []byte {
	return pagetest.CompleteTrace(t, c)
}
func waitSessions(t *testing.T, c *collector.Collector, n int) []*tracedir.Session {
	return pagetest.WaitSessions(t, c, n)
}
func scriptNames(data []byte) map[string]int { return pagetest.ScriptNames(data) }
func runTodo(t *testing.T, page string, want []string) []string {
	return pagetest.RunTodoLike(t, page, want)
}

// pageResults is pageValue of window.results as JSON.
func pageResults(t *testing.T, page string) string {
	t.Helper()
	return pageValue(t, page, "JSON.stringify(window.results)")
}

// tracedAlike runs the app in dir's page untraced (a static server) and
// through memtrace serve, requires the same value of expr from both, and
// returns it with the traced run's server and trace, which is complete
// and passes every rule.
func tracedAlike(t *testing.T, dir, expr string) (string, *served, []byte) {
	t.Helper()
	plain := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer plain.Close()
	want := pageValue(t, plain.URL+"/index.html", expr)
	s := startServe(t, dir)
	if got := pageValue(t, s.url+"/index.html", expr); got != want {
		t.Fatalf("traced, the page gives\n%s\nuntraced\n%s", got, want)
	}
	return want, s, completeTrace(t, s.c)
}
