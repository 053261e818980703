package htmlpage

import (
	"errors"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/js"
)

func fake3(src []byte, goal js.Goal, name string) ([]byte, error) {
	if strings.Contains(string(src), "SYNTAX") {
		return nil, errors.New("a syntax error")
	}
	g := "script"
	if goal == js.Module {
		g = "module"
	}
	return []byte("/*" + g + " " + name + "*/" + string(src)), nil
}

// fake drops the position (TestInlinePositions checks it).
func fake(src []byte, goal js.Goal, name string, line, col int) ([]byte, error) {
	return fake3(src, goal, name)
}

// TestInlinePositions: an inline script is instrumented with its start's
// line and UTF-16 column in the page (after a CRLF, a lone CR, and a
// character outside the BMP), and the instrumenter puts its sites there.
func TestInlinePositions(t *testing.T) {
	page := "<html>\r\n<head></head>\r<body>\n<p>\U0001F600</p><script>var a = {};</script></body></html>"
	var line, col int
	Rewrite([]byte(page), Options{Name: "p.html", Instrument: func(src []byte, goal js.Goal, name string, l, c int) ([]byte, error) {
		line, col = l, c
		return src, nil
	}})
	if line != 4 || col != 18 {
		t.Fatalf("the inline script starts at %d:%d, want 4:18", line, col)
	}
	res, err := instrument.Instrument([]byte("var a = {};\nvar b = [];"), instrument.Options{Goal: js.Script, File: "p.html#inline-1", Line: line, Col: col})
	if err != nil {
		t.Fatal(err)
	}
	var first, second bool
	for _, s := range res.Sites {
		first = first || s == instrument.Site{StartLine: 4, StartCol: 26, EndLine: 4, EndCol: 28}
		second = second || s == instrument.Site{StartLine: 5, StartCol: 9, EndLine: 5, EndCol: 11}
	}
	if !first || !second {
		t.Fatalf("sites %v: {} not at 4:26-28 and [] not at 5:9-11", res.Sites)
	}
}

func TestRewrite(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"head", "<!DOCTYPE html><HTML><HEAD lang=en><title>x</title></HEAD><body></body></HTML>",
			"<!DOCTYPE html><HTML><HEAD lang=en>[H]<title>x</title></HEAD><body></body></HTML>"},
		{"no head", "<html><body><p>x</p></body></html>", "<html>[H]<body><p>x</p></body></html>"},
		{"no html", "<p>x</p>", "[H]<p>x</p>"},
		{"text only", "just text", "just text[H]"},
		{"inline", "<head></head><script>var a = '</div>';</script><script type=module>import x from './x.js'</script>",
			"<head>[H]</head><script>/*script p.html#inline-1*/var a = '</div>';</script><script type=module>/*module p.html#inline-2*/import x from './x.js'</script>"},
		{"not js", "<head></head><script type=text/template><b>{{x}}</b></script><script src=a.js></script><script type='application/json'>{}</script>",
			"<head>[H]</head><script type=text/template><b>{{x}}</b></script><script src=a.js></script><script type='application/json'>{}</script>"},
		{"failure kept", "<head></head><script>SYNTAX(</script>", "<head>[H]</head><script>SYNTAX(</script>"},
	} {
		r := Rewrite([]byte(c.in), Options{Head: []byte("[H]"), Instrument: fake, Name: "p.html"})
		if string(r.HTML) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, r.HTML, c.want)
		}
		if c.name == "failure kept" && len(r.Failures) != 1 {
			t.Errorf("%s: failures %v", c.name, r.Failures)
		}
	}
}

// Without a head to insert and nothing to instrument, every byte stays.
func TestRewriteKeepsBytes(t *testing.T) {
	for _, in := range []string{"", "<", "<!-- x", "<script>unclosed", "<a href='x>y'>\x00é</a>", "<SCRIPT SRC=x></SCRIPT><Div ATTR>"} {
		if r := Rewrite([]byte(in), Options{}); string(r.HTML) != in {
			t.Errorf("%q became %q", in, r.HTML)
		}
	}
}

// TestAdjustPolicy: hash sources gain their rewritten text's hash, and
// connections are allowed where connect-src, or default-src without it,
// limits them; nothing else changes.
func TestAdjustPolicy(t *testing.T) {
	h := map[string]string{"sha256-OLD": "sha256-NEW"}
	for _, c := range []struct{ in, want string }{
		{"script-src 'sha256-OLD' 'self'", "script-src 'sha256-OLD' 'sha256-NEW' 'self'"},
		{"default-src 'self'; connect-src 'none'", "default-src 'self'; connect-src 'self' ws://c:1"},
		{"default-src https:; img-src *", "default-src https:; img-src *; connect-src https: 'self' ws://c:1"},
		{"img-src *", "img-src *"},
		{"connect-src 'self' ws://c:1", "connect-src 'self' ws://c:1"},
	} {
		if got := AdjustPolicy(c.in, Change{Hashes: h, Connect: []string{"'self'", "ws://c:1"}}); got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}

// TestAdjustPolicyShim: a policy of the response's headers lets
// memtrace's script elements run, by their nonce where inline scripts
// need one (strict-dynamic, nonces, hashes, nothing), by 'self' where
// 'unsafe-inline' lets them run (a nonce would turn it off); and a
// trusted-types directive allows the shim's policy.
func TestAdjustPolicyShim(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"script-src 'nonce-abc' 'strict-dynamic'", "script-src 'nonce-abc' 'strict-dynamic' 'nonce-N'"},
		{"script-src 'unsafe-inline' https:", "script-src 'unsafe-inline' https: 'self'"},
		{"script-src 'unsafe-inline' 'sha256-x'", "script-src 'unsafe-inline' 'sha256-x' 'nonce-N'"},
		{"script-src 'none'", "script-src 'nonce-N'"},
		{"default-src 'self'", "default-src 'self'; script-src 'self' 'nonce-N'"},
		{"script-src-elem 'self'; script-src 'self'", "script-src-elem 'self' 'nonce-N'; script-src 'self' 'nonce-N'"},
		{"require-trusted-types-for 'script'; trusted-types app", "require-trusted-types-for 'script'; trusted-types app memtrace"},
		{"trusted-types 'none'", "trusted-types memtrace"},
		{"img-src *", "img-src *"},
	} {
		if got := AdjustPolicy(c.in, Change{Shim: true, Nonce: "N", TrustedTypes: "memtrace"}); got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}
