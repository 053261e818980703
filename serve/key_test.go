package serve

import (
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/memtrace/memtrace/tracedir"
)

// TestKeyEndsTheTrace: Alt+Shift+T (MemInsight's key) in a page ends its
// trace in order, while the page stays open: the session is complete,
// its end reason "key".
func TestKeyEndsTheTrace(t *testing.T) {
	s := startServe(t, filepath.Join("testdata", "handlers"))
	tctx := openPage(t, s.url+"/index.html")
	if err := chromedp.Do(tctx, chromedp.KeyEvent("T", chromedp.KeyModifiers(chromedp.ModifierAlt, chromedp.ModifierShift))); err != nil {
		t.Fatal(err)
	}
	sessions := waitSessions(t, s.c, 1)
	if sessions[0].Status != tracedir.StatusComplete || sessions[0].EndReason != "key" {
		t.Fatalf("the session ended %s (%s), reason %q", sessions[0].Status, sessions[0].Reason, sessions[0].EndReason)
	}
	// The page is still there and works.
	if n, err := chromedp.Run(tctx, chromedp.Evaluate[int]("document.querySelectorAll('button').length")); err != nil || n != 1 {
		t.Fatalf("the page after the key: %d buttons, %v", n, err)
	}
}
