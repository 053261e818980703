package serve

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/memtrace/memtrace/tracedir"
)

// TestWorker: a page's dedicated worker, served by memtrace serve, gets
// the browser shim before its instrumented script (a worker has no page
// to load it), answers the page as it does untraced, and is a session of
// its own (kind worker) beside the page's, with its objects' trace, which
// ends complete when the page goes away (the page's shim tells it).
func TestWorker(t *testing.T) {
	dir := filepath.Join("testdata", "worker")
	plain := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer plain.Close()
	want := workerResult(t, plain.URL+"/index.html")
	s := startServe(t, dir)
	got := workerResult(t, s.url+"/index.html")
	if got != want {
		t.Fatalf("the page shows %q traced, %q untraced", got, want)
	}
	sessions := waitSessions(t, s.c, 2)
	kinds := map[string]*tracedir.Session{}
	for _, ss := range sessions {
		kinds[ss.Kind] = ss
	}
	if kinds["page"] == nil || kinds["worker"] == nil {
		t.Fatalf("sessions: %+v", sessions)
	}
	if kinds["page"].Status != tracedir.StatusComplete {
		t.Errorf("the page's session ended %s: %s", kinds["page"].Status, kinds["page"].Reason)
	}
	// The page going away ends the worker's trace in order.
	if w := kinds["worker"]; w.Status != tracedir.StatusComplete || w.Bytes < 10000 {
		t.Errorf("the worker's session ended %s (%s) with %d bytes", w.Status, w.Reason, w.Bytes)
	}
}

func workerResult(t *testing.T, page string) string {
	t.Helper()
	return pageValue(t, page, "document.getElementById('out').textContent")
}

// TestSharedWorker: a shared worker, served by memtrace serve, gets the
// shim too, answers the page as it does untraced, and is a session of its
// own (kind worker) with its trace. (It outlives any one page: its
// session ends when the browser ends the worker.)
func TestSharedWorker(t *testing.T) {
	dir := filepath.Join("testdata", "sharedworker")
	plain := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer plain.Close()
	want := workerResult(t, plain.URL+"/index.html")
	if want != "shared says 500" {
		t.Fatalf("untraced, the page shows %q", want)
	}
	s := startServe(t, dir)
	if got := workerResult(t, s.url+"/index.html"); got != want {
		t.Fatalf("the page shows %q traced, %q untraced", got, want)
	}
	var worker string
	for deadline := time.Now().Add(10 * time.Second); worker == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, ss := range s.c.Status().Sessions {
			if ss.Kind == "worker" && ss.Bytes > 10000 {
				worker = ss.Name
			}
		}
	}
	if worker == "" {
		t.Fatalf("no session of the shared worker with its trace: %+v", s.c.Status().Sessions)
	}
}
