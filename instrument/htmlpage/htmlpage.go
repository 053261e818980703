// Package htmlpage rewrites an HTML page so that it runs traced: what the
// caller gives (the page's configuration and the browser shim's script
// element) goes first in <head>, and the page's inline classic and module
// scripts, event handler attributes (onclick="...": function bodies) and
// javascript: URLs are instrumented in place, each at its line:col in the
// page. The page is tokenised with
// github.com/tdewolff/parse/v2's HTML5 lexer, never with regular
// expressions; every byte the rewriting does not touch is copied as it
// was. memtrace serve uses it, and the proxy will.
package htmlpage

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	stdhtml "html"
	"slices"
	"strings"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/html"

	"github.com/memtrace/memtrace/instrument/js"
)

// Options configure a rewriting.
type Options struct {
	// Head is inserted first in the page's <head> (after its start tag;
	// where the page has none, after <html>, else at the start).
	Head []byte
	// Instrument rewrites an inline script's text (goal Script or
	// Module), named name in the trace, which starts at line:col of the
	// page (1-based, the column in UTF-16 units: its sites are the
	// page's); an error leaves the script as it was (recorded in
	// Result.Failures).
	Instrument func(src []byte, goal js.Goal, name string, line, col int) ([]byte, error)
	// Name is the page's name (its URL); inline script k is named
	// Name#inline-k.
	Name string
	// Handler rewrites the code of an event handler attribute (onclick
	// ...: a function body), named Name#on<event>-k, at line:col of the
	// page; URLCode the code of a javascript: URL (href, src, action,
	// formaction: a classic script of its own, its completion value
	// kept), named Name#javascript-k. Nil, or an error: left as it is
	// (errors in Result.Failures).
	Handler, URLCode func(src []byte, name string, line, col int) ([]byte, error)
	// Policy is what a Content-Security-Policy meta element must allow
	// besides the rewritten scripts' hashes (AdjustPolicy): the shim's
	// connections ('self' for memtrace serve's), its Trusted Types
	// policy.
	Policy Change
	// Integrity gives the integrity value of a script the page loads
	// (a script element's src, a modulepreload or script preload link's
	// href: ref as written; module: it loads as one; old: the attribute's
	// value) for the bytes memtrace serves for it: "" leaves it as it is.
	Integrity func(ref string, module bool, old string) (string, error)
}

// Result is a rewritten page.
type Result struct {
	HTML     []byte
	Scripts  int     // inline scripts instrumented
	Handlers int     // event handler attributes and javascript: URLs instrumented
	Failures []error // inline scripts left as they were, and why
	// Hashes maps the hash sources of the page's rewritten scripts and
	// handlers to their new ones (Change.Hashes), for the policies of
	// the response's headers.
	Hashes map[string]string
}

// jsTypes are the type attribute values of classic scripts
// (HTML's "JavaScript MIME type essence match"), besides module.
var jsTypes = map[string]bool{
	"": true, "text/javascript": true, "application/javascript": true, "application/ecmascript": true,
	"application/x-ecmascript": true, "application/x-javascript": true, "text/ecmascript": true,
	"text/javascript1.0": true, "text/javascript1.1": true, "text/javascript1.2": true, "text/javascript1.3": true,
	"text/javascript1.4": true, "text/javascript1.5": true, "text/jscript": true, "text/livescript": true,
	"text/x-ecmascript": true, "text/x-javascript": true,
}

// Rewrite rewrites src.
func Rewrite(src []byte, o Options) Result {
	var out bytes.Buffer
	out.Grow(len(src) + len(o.Head) + len(src)/2)
	var res Result
	// The lexer lower-cases names in its input: it reads a copy, and the
	// page's own bytes are what is copied out.
	l := html.NewLexer(parse.NewInputBytes(append([]byte(nil), src...)))
	pos := 0 // bytes of src consumed
	copied := 0
	flush := func(to int) {
		out.Write(src[copied:to])
		copied = to
	}
	inserted := len(o.Head) == 0
	insert := func(at int) {
		if inserted {
			return
		}
		flush(at)
		out.Write(o.Head)
		inserted = true
	}
	var tag string        // the start tag being read
	var attrs [][2]string // its attributes
	inline := 0
	handled := 0
	var spans []span                    // the tag's attribute values, where they are in src
	var policies []policySpan           // the page's CSP meta elements' content, where they go in out
	hashes := hashMap{}                 // the rewritten scripts' and handlers' hashes, old to new
	var pending *struct{ goal js.Goal } // the next text is an inline script's
	for {
		tt, data := l.Next()
		if tt == html.ErrorToken {
			break
		}
		start := pos
		pos += len(data)
		switch tt {
		case html.DoctypeToken, html.CommentToken:
		case html.StartTagToken:
			tag = strings.ToLower(string(l.Text()))
			attrs = attrs[:0]
			spans = spans[:0]
			if !inserted && tag != "html" && tag != "head" {
				// No <head>: first thing in the page, before this element.
				insert(start)
			}
		case html.AttributeToken:
			key := strings.ToLower(string(l.AttrKey()))
			raw := l.AttrVal()
			attrs = append(attrs, [2]string{key, unquote(raw)})
			// The value's bytes in the page: the token's last ones.
			if vstart := pos - len(raw); len(raw) > 0 && vstart >= start && string(src[vstart:pos]) == string(raw) {
				spans = append(spans, span{key, raw, vstart, pos})
			}
		case html.StartTagCloseToken, html.StartTagVoidToken:
			// The tag's attributes that change, in the page's order; a
			// Content-Security-Policy's is rewritten at the end, when the
			// hashes of the rewritten scripts are known.
			csp := tag == "meta" && isCSPMeta(attrs)
			for _, sp := range spans {
				if csp && sp.key == "content" {
					flush(sp.start)
					policies = append(policies, policySpan{out.Len(), stdhtml.UnescapeString(unquote(sp.raw))})
					copied = sp.end
					continue
				}
				v, ok := rewriteAttr(&o, &res, tag, attrs, sp, src, &handled)
				if !ok {
					continue
				}
				if code, kind := attrCode(sp.key, sp.raw); kind != "" && kind != "javascript" {
					hashes.add(code, []byte(v))
				}
				flush(sp.start)
				out.WriteByte('"')
				out.WriteString(stdhtml.EscapeString(v))
				out.WriteByte('"')
				copied = sp.end
			}
			spans = spans[:0]
			switch tag {
			case "head":
				insert(pos)
			case "html":
				// A <head> may follow; the insertion waits for it or for the
				// first other element.
			case "script":
				if g, ok := scriptGoal(attrs); ok {
					pending = &struct{ goal js.Goal }{g}
				}
			}
		case html.TextToken:
			if pending != nil && o.Instrument != nil {
				inline++
				name := fmt.Sprintf("%s#inline-%d", o.Name, inline)
				line, col := position(src, start)
				code, err := o.Instrument(data, pending.goal, name, line, col)
				if err != nil {
					res.Failures = append(res.Failures, fmt.Errorf("%s: %w", name, err))
				} else {
					flush(start)
					out.Write(code)
					copied = pos
					res.Scripts++
					hashes.add(data, code)
				}
			}
			pending = nil
		case html.EndTagToken:
			pending = nil
		}
	}
	if !inserted {
		insert(len(src))
	}
	flush(len(src))
	res.HTML = out.Bytes()
	res.Hashes = hashes
	if len(policies) > 0 {
		// Spliced in from the last, so that the earlier offsets hold.
		b := res.HTML
		for i := len(policies) - 1; i >= 0; i-- {
			p := policies[i]
			c := o.Policy
			c.Hashes, c.Shim = hashes, false
			v := `"` + stdhtml.EscapeString(AdjustPolicy(p.value, c)) + `"`
			b = append(b[:p.at], append([]byte(v), b[p.at:]...)...)
		}
		res.HTML = b
	}
	return res
}

// scriptGoal reports whether a script element with attrs holds inline
// JavaScript that runs (no src; a JavaScript or module type), and its
// goal.
func scriptGoal(attrs [][2]string) (js.Goal, bool) {
	typ := ""
	for _, a := range attrs {
		switch a[0] {
		case "src":
			return 0, false
		case "type":
			typ = strings.ToLower(strings.TrimSpace(a[1]))
		}
	}
	if typ == "module" {
		return js.Module, true
	}
	return js.Script, jsTypes[typ]
}

// position is the 1-based line and UTF-16 column of byte offset off of
// src (lines end at \n, \r\n or \r, as JavaScript's do within a page).
func position(src []byte, off int) (line, col int) {
	line, ls := 1, 0
	for i := 0; i < off; i++ {
		switch src[i] {
		case '\n':
			line, ls = line+1, i+1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			line, ls = line+1, i+1
		}
	}
	col = 1
	for _, r := range string(src[ls:off]) {
		col++
		if r >= 0x10000 {
			col++
		}
	}
	return line, col
}

// policySpan is a CSP meta element's content: where its value goes in the
// output, and the value as the page had it.
type policySpan struct {
	at    int
	value string
}

// isCSPMeta reports whether a meta element's attributes make it a
// Content-Security-Policy (report-only policies are not read from meta
// elements).
func isCSPMeta(attrs [][2]string) bool {
	for _, a := range attrs {
		if a[0] == "http-equiv" && strings.EqualFold(strings.TrimSpace(a[1]), "content-security-policy") {
			return true
		}
	}
	return false
}

// hashMap maps, per algorithm, the base64 hash of a script's or a
// handler's text as the page had it to the hash of the text memtrace
// gives the browser.
type hashMap map[string]string

func (h hashMap) add(old, new []byte) {
	s1, n1 := sha256.Sum256(old), sha256.Sum256(new)
	h["sha256-"+base64.StdEncoding.EncodeToString(s1[:])] = "sha256-" + base64.StdEncoding.EncodeToString(n1[:])
	s2, n2 := sha512.Sum384(old), sha512.Sum384(new)
	h["sha384-"+base64.StdEncoding.EncodeToString(s2[:])] = "sha384-" + base64.StdEncoding.EncodeToString(n2[:])
	s3, n3 := sha512.Sum512(old), sha512.Sum512(new)
	h["sha512-"+base64.StdEncoding.EncodeToString(s3[:])] = "sha512-" + base64.StdEncoding.EncodeToString(n3[:])
}

// TrustedTypesPolicy is the name of the shim's Trusted Types policy,
// which a page's trusted-types directive is made to allow.
const TrustedTypesPolicy = "memtrace"

// Change is what a Content-Security-Policy must allow for a page memtrace
// rewrote.
type Change struct {
	// Hashes maps the hash sources of the scripts and handlers memtrace
	// rewrote (old to new: Result.Hashes).
	Hashes map[string]string
	// Connect lists the sources the shim connects to (its collector, the
	// instrument service).
	Connect []string
	// Shim: memtrace's own script elements (Head's) must be allowed, as
	// a policy of the response's headers needs (a meta element's comes
	// after them, and does not apply to them). A policy that limits
	// inline scripts gains Nonce (Head's nonce); one that lets them run
	// gains 'self' for the shim instead (a nonce there would turn
	// 'unsafe-inline' off).
	Shim  bool
	Nonce string
	// TrustedTypes names the shim's Trusted Types policy, added where a
	// trusted-types directive limits the policies a page may make.
	TrustedTypes string
}

// AdjustPolicy adjusts a Content-Security-Policy just enough for the
// rewritten page: beside each hash source of a script or handler memtrace
// rewrote, the new text's hash; memtrace's script elements allowed
// (c.Nonce); the sources of c.Connect allowed where connect-src, or
// default-src without it, limits connections; the shim's Trusted Types
// policy named. Everything else stays as the page wrote it.
func AdjustPolicy(policy string, c Change) string {
	dirs := strings.Split(policy, ";")
	has := map[string]bool{}
	defaultAt := -1
	for i, d := range dirs {
		toks := strings.Fields(d)
		if len(toks) == 0 {
			continue
		}
		name := strings.ToLower(toks[0])
		if has[name] {
			continue // a repeated directive is ignored by browsers
		}
		has[name] = true
		var out []string
		for _, t := range toks {
			out = append(out, t)
			if len(t) > 2 && t[0] == '\'' && t[len(t)-1] == '\'' {
				if n, ok := c.Hashes[t[1:len(t)-1]]; ok {
					out = append(out, "'"+n+"'")
				}
			}
		}
		switch name {
		case "connect-src":
			out = allow(out, c.Connect)
		case "script-src", "script-src-elem":
			if c.Shim {
				out = allowShim(out, c.Nonce)
			}
		case "trusted-types":
			if c.TrustedTypes != "" {
				out = allow(out, []string{c.TrustedTypes})
			}
		case "default-src":
			defaultAt = i
		}
		dirs[i] = " " + strings.Join(out, " ")
	}
	if defaultAt >= 0 {
		toks := strings.Fields(dirs[defaultAt])
		if !has["connect-src"] && len(c.Connect) > 0 {
			dirs = append(dirs, " "+strings.Join(allow(append([]string{"connect-src"}, toks[1:]...), c.Connect), " "))
		}
		if c.Shim && !has["script-src"] && !has["script-src-elem"] {
			dirs = append(dirs, " "+strings.Join(allowShim(append([]string{"script-src"}, toks[1:]...), c.Nonce), " "))
		}
	}
	return strings.TrimSpace(strings.Join(dirs, ";"))
}

// allowShim lets a script directive (name first) run memtrace's script
// elements: by their nonce where inline scripts need one, else by
// 'self' (the shim is served from the page's origin).
func allowShim(toks []string, nonce string) []string {
	inline, keyed := false, false
	for _, t := range toks[1:] {
		l := strings.ToLower(t)
		switch {
		case l == "'unsafe-inline'":
			inline = true
		case l == "'strict-dynamic'", strings.HasPrefix(l, "'nonce-"), strings.HasPrefix(l, "'sha256-"),
			strings.HasPrefix(l, "'sha384-"), strings.HasPrefix(l, "'sha512-"):
			keyed = true
		}
	}
	if inline && !keyed || nonce == "" {
		return allow(toks, []string{"'self'"})
	}
	return allow(toks, []string{"'nonce-" + nonce + "'"})
}

// allow adds srcs to a directive's tokens (name first), replacing 'none'.
func allow(toks []string, srcs []string) []string {
	out := toks[:1]
	for _, t := range toks[1:] {
		if !strings.EqualFold(t, "'none'") {
			out = append(out, t)
		}
	}
	for _, s := range srcs {
		if !slices.ContainsFunc(out[1:], func(t string) bool { return strings.EqualFold(t, s) }) {
			out = append(out, s)
		}
	}
	return out
}

// span is an attribute value's place in the page: its key, its raw
// bytes (quotes and character references included), [start, end).
type span struct {
	key        string
	raw        []byte
	start, end int
}

// rewriteAttr returns the new value of the attribute at sp of a tag (its
// attributes attrs), and whether it changes: an event handler's and a
// javascript: URL's code instrumented, a script's integrity recomputed.
func rewriteAttr(o *Options, res *Result, tag string, attrs [][2]string, sp span, src []byte, handled *int) (string, bool) {
	if sp.key == "integrity" {
		if o.Integrity == nil {
			return "", false
		}
		var ref string
		var module, has bool
		for _, a := range attrs {
			switch a[0] {
			case "src":
				if tag == "script" {
					ref, has = a[1], true
				}
			case "href":
				if tag == "link" {
					ref, has = a[1], true
				}
			case "type":
				module = strings.EqualFold(strings.TrimSpace(a[1]), "module")
			case "rel":
				module = module || strings.EqualFold(strings.TrimSpace(a[1]), "modulepreload")
			}
		}
		if !has || tag == "link" && !linksScript(attrs) {
			return "", false
		}
		v, err := o.Integrity(ref, module, stdhtml.UnescapeString(unquote(sp.raw)))
		if err != nil {
			res.Failures = append(res.Failures, fmt.Errorf("%s: the integrity of %s: %w", o.Name, ref, err))
			return "", false
		}
		return v, v != ""
	}
	code, kind := attrCode(sp.key, sp.raw)
	if kind == "" || kind == "javascript" && o.URLCode == nil || kind != "javascript" && o.Handler == nil {
		return "", false
	}
	*handled++
	name := fmt.Sprintf("%s#%s-%d", o.Name, kind, *handled)
	at := sp.start
	if sp.raw[0] == '"' || sp.raw[0] == '\'' {
		at++
	}
	line, col := position(src, at)
	var got []byte
	var err error
	if kind == "javascript" {
		got, err = o.URLCode(code, name, line, col)
	} else {
		got, err = o.Handler(code, name, line, col)
	}
	if err != nil {
		res.Failures = append(res.Failures, fmt.Errorf("%s: %w", name, err))
		return "", false
	}
	res.Handlers++
	if kind == "javascript" {
		return "javascript:" + string(urlEscape(got)), true
	}
	return string(got), true
}

// linksScript reports whether a link element loads a script
// (rel=modulepreload, or rel=preload as=script).
func linksScript(attrs [][2]string) bool {
	var rel, as string
	for _, a := range attrs {
		switch a[0] {
		case "rel":
			rel = strings.ToLower(a[1])
		case "as":
			as = strings.ToLower(strings.TrimSpace(a[1]))
		}
	}
	for _, r := range strings.Fields(rel) {
		if r == "modulepreload" || r == "preload" && as == "script" {
			return true
		}
	}
	return false
}

// attrCode returns the code of an attribute that holds some (key, its
// raw value as written, quotes and character references included): an
// event handler's ("on..." and the event's name as its kind), or a
// javascript: URL's ("javascript", percent-decoded as the browser does
// before it runs the code); kind "" for any other attribute.
func attrCode(key string, raw []byte) ([]byte, string) {
	v := stdhtml.UnescapeString(unquote(raw))
	if len(key) > 2 && strings.HasPrefix(key, "on") {
		return []byte(v), key
	}
	switch key {
	case "href", "src", "action", "formaction":
		t := strings.TrimLeft(v, " \t\n\f\r")
		if len(t) >= 11 && strings.EqualFold(t[:11], "javascript:") {
			return []byte(percentDecode(t[11:])), "javascript"
		}
	}
	return nil, ""
}

// percentDecode decodes %XX sequences (others are kept), as a browser
// does with a javascript: URL's code.
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && ishex(s[i+1]) && ishex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func ishex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// urlEscape escapes code for a javascript: URL: % and the characters URL
// parsing drops (tab, line feed, carriage return) become %XX, so that the
// browser's decoding gives the code back.
func urlEscape(code []byte) []byte {
	var out []byte
	for _, c := range code {
		switch c {
		case '%', '\t', '\n', '\r':
			out = append(out, '%', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
		default:
			out = append(out, c)
		}
	}
	return out
}

func unquote(v []byte) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	return string(v)
}

// Head is what memtrace puts first in a page's <head>: the page's
// configuration (config, JSON: runtimeshim.Config's fields the browser
// host reads) and the browser shim's script element (shim: its URL),
// both with nonce when it is not "" (Options.Policy's).
func Head(config []byte, shim, nonce string) []byte {
	c := strings.ReplaceAll(string(config), "</", "<\\/")
	n := ""
	if nonce != "" {
		n = ` nonce="` + stdhtml.EscapeString(nonce) + `"`
	}
	return []byte("<script" + n + ">globalThis.__memtraceConfig=" + c + ";</script><script" + n + " src=\"" + stdhtml.EscapeString(shim) + "\"></script>")
}

// ScriptRef is a script element of a page that loads a file.
type ScriptRef struct {
	Src    string // the src attribute, as written
	Module bool   // type="module"
}

// Scripts lists the page's script elements with a src that run
// (a JavaScript or module type), in order.
func Scripts(src []byte) []ScriptRef {
	var out []ScriptRef
	l := html.NewLexer(parse.NewInputBytes(append([]byte(nil), src...)))
	var tag string
	var attrs [][2]string
	for {
		tt, _ := l.Next()
		switch tt {
		case html.ErrorToken:
			return out
		case html.StartTagToken:
			tag = strings.ToLower(string(l.Text()))
			attrs = attrs[:0]
		case html.AttributeToken:
			attrs = append(attrs, [2]string{strings.ToLower(string(l.AttrKey())), unquote(l.AttrVal())})
		case html.StartTagCloseToken, html.StartTagVoidToken:
			if tag != "script" {
				continue
			}
			var s, typ string
			has := false
			for _, a := range attrs {
				switch a[0] {
				case "src":
					s, has = a[1], true
				case "type":
					typ = strings.ToLower(strings.TrimSpace(a[1]))
				}
			}
			if has && (typ == "module" || jsTypes[typ]) {
				out = append(out, ScriptRef{Src: s, Module: typ == "module"})
			}
		}
	}
}

// IntegrityMatches reports whether b matches the integrity value v as a
// browser checks it: against the hashes of the strongest algorithm v
// names (a value naming none matches anything).
func IntegrityMatches(v string, b []byte) bool {
	rank := map[string]int{"sha256": 1, "sha384": 2, "sha512": 3}
	best, any := 0, false
	var sums []string
	for _, tok := range strings.Fields(v) {
		alg, h, ok := strings.Cut(tok, "-")
		alg = strings.ToLower(alg)
		if !ok || rank[alg] == 0 {
			continue
		}
		h, _, _ = strings.Cut(h, "?") // options
		if rank[alg] > best {
			best, sums = rank[alg], nil
		}
		if rank[alg] == best {
			sums = append(sums, h)
		}
		any = true
	}
	if !any {
		return true
	}
	var sum []byte
	switch best {
	case 1:
		s := sha256.Sum256(b)
		sum = s[:]
	case 2:
		s := sha512.Sum384(b)
		sum = s[:]
	default:
		s := sha512.Sum512(b)
		sum = s[:]
	}
	got := base64.StdEncoding.EncodeToString(sum)
	for _, h := range sums {
		// Base64url is accepted as well.
		h = strings.NewReplacer("-", "+", "_", "/").Replace(h)
		if strings.TrimRight(h, "=") == strings.TrimRight(got, "=") {
			return true
		}
	}
	return false
}

// IntegrityOf is an integrity value for b in the strongest algorithm that
// old names (sha256, sha384 or sha512; sha384 when it names none), as a
// page's integrity attribute holds it.
func IntegrityOf(old string, b []byte) string {
	alg := ""
	for _, tok := range strings.Fields(old) {
		a, _, _ := strings.Cut(tok, "-")
		switch strings.ToLower(a) {
		case "sha512":
			alg = "sha512"
		case "sha384":
			if alg != "sha512" {
				alg = "sha384"
			}
		case "sha256":
			if alg == "" {
				alg = "sha256"
			}
		}
	}
	var sum []byte
	switch alg {
	case "sha512":
		s := sha512.Sum512(b)
		sum = s[:]
	case "sha256":
		s := sha256.Sum256(b)
		sum = s[:]
	default:
		alg = "sha384"
		s := sha512.Sum384(b)
		sum = s[:]
	}
	return alg + "-" + base64.StdEncoding.EncodeToString(sum)
}
