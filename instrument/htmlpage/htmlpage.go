// Package htmlpage rewrites an HTML page so that it runs traced: what the
// caller gives (the page's configuration and the browser shim's script
// element) goes first in <head>, and the page's inline classic and module
// scripts are instrumented in place. The page is tokenised with
// github.com/tdewolff/parse/v2's HTML5 lexer, never with regular
// expressions; every byte the rewriting does not touch is copied as it
// was. memtrace serve uses it, and the proxy will.
package htmlpage

import (
	"bytes"
	"fmt"
	stdhtml "html"
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
}

// Result is a rewritten page.
type Result struct {
	HTML     []byte
	Scripts  int     // inline scripts instrumented
	Failures []error // inline scripts left as they were, and why
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
			if !inserted && tag != "html" && tag != "head" {
				// No <head>: first thing in the page, before this element.
				insert(start)
			}
		case html.AttributeToken:
			attrs = append(attrs, [2]string{strings.ToLower(string(l.AttrKey())), unquote(l.AttrVal())})
		case html.StartTagCloseToken, html.StartTagVoidToken:
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

func unquote(v []byte) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	return string(v)
}

// Head is what memtrace puts first in a page's <head>: the page's
// configuration (config, JSON: runtimeshim.Config's fields the browser
// host reads) and the browser shim's script element (shim: its URL).
func Head(config []byte, shim string) []byte {
	c := strings.ReplaceAll(string(config), "</", "<\\/")
	return []byte("<script>globalThis.__memtraceConfig=" + c + ";</script><script src=\"" + stdhtml.EscapeString(shim) + "\"></script>")
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
