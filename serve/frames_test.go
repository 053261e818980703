package serve

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/tracedir"
)

// TestFrames: a page with a same-origin iframe is two sessions, the
// frame's linked to the page's in session.json (parent), both complete.
func TestFrames(t *testing.T) {
	s := startServe(t, filepath.Join("testdata", "frames"))
	browse(t, []string{s.url + "/index.html"}, true)
	sessions := waitSessions(t, s.c, 2)
	byPage := map[string]*tracedir.Session{}
	names := map[string]string{}
	for i, ss := range sessions {
		page := ss.URL[strings.LastIndex(ss.URL, "/")+1:]
		byPage[page] = ss
		names[page] = s.c.Sessions()[i]
	}
	page, frame := byPage["index.html"], byPage["frame.html"]
	if page == nil || frame == nil {
		t.Fatalf("sessions: %+v", sessions)
	}
	if page.Status != tracedir.StatusComplete || frame.Status != tracedir.StatusComplete {
		t.Fatalf("page %s (%s), frame %s (%s)", page.Status, page.Reason, frame.Status, frame.Reason)
	}
	if frame.Parent != names["index.html"] || page.Parent != "" {
		t.Fatalf("the frame's parent is %q, the page's %q; want %q and none", frame.Parent, page.Parent, names["index.html"])
	}
}
