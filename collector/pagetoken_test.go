package collector

import (
	"net/http"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/collector/client"
	"github.com/memtrace/memtrace/tracedir"
)

// TestPageTokens: a page's token opens its session, no two pages get the
// same one, a forged or altered one opens nothing, and none of them
// reads the status or stops sessions (a page of any site the proxy
// serves holds one).
func TestPageTokens(t *testing.T) {
	tc := startCollector(t, Config{})
	a, b := tc.PageToken(), tc.PageToken()
	if a == b || a == tc.Token() {
		t.Fatalf("page tokens %q and %q (the collector's %q)", a, b, tc.Token())
	}
	c, end := send(t, tc.URL, a, genTrace(t, 3, 64<<10), client.Options{})
	if end.Status != tracedir.StatusComplete {
		t.Fatalf("a page token's session ended %s: %s", end.Status, end.Reason)
	}
	if s := readSession(t, tc.Out(), c.Session()); s.Status != tracedir.StatusComplete {
		t.Fatalf("session.json: %+v", s)
	}
	other := startCollector(t, Config{})
	for _, bad := range []string{
		other.PageToken(),                // another collector's
		a[:len(a)-1] + flip(a[len(a)-1]), // its MAC altered
		"p" + strings.Repeat("0", 24) + "." + strings.Repeat("0", 32),
		a + "0",
	} {
		if tc.SessionTokenOK(bad) {
			t.Errorf("%q opens a session", bad)
		}
	}
	if !tc.SessionTokenOK(b) || !tc.SessionTokenOK(tc.Token()) {
		t.Fatal("a page token or the collector's token is refused")
	}
	for _, p := range []string{StatusPath, Prefix} {
		resp, err := http.Get(tc.HTTP + p + "?token=" + a)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s with a page token: %s", p, resp.Status)
		}
	}
	resp, err := http.Post(tc.HTTP+StopPath+"?token="+a, "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("stop with a page token: %s", resp.Status)
	}
}

func flip(c byte) string {
	if c == '0' {
		return "1"
	}
	return "0"
}
