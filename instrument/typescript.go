package instrument

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/memtrace/memtrace/instrument/diag"
	js "github.com/memtrace/memtrace/instrument/js"
)

// Loader is the language of a source: JavaScript, or a language that
// esbuild turns into JavaScript before it is instrumented.
type Loader uint8

const (
	JS  Loader = iota // JavaScript, instrumented as it is
	TS                // TypeScript (.ts, .mts, .cts)
	TSX               // TypeScript with JSX (.tsx)
	JSX               // JavaScript with JSX (.jsx)
)

func (l Loader) String() string {
	switch l {
	case TS:
		return "ts"
	case TSX:
		return "tsx"
	case JSX:
		return "jsx"
	}
	return "js"
}

// ParseLoader reads a loader name: "js", "ts", "tsx" or "jsx".
func ParseLoader(s string) (Loader, bool) {
	switch s {
	case "js":
		return JS, true
	case "ts":
		return TS, true
	case "tsx":
		return TSX, true
	case "jsx":
		return JSX, true
	}
	return JS, false
}

// LoaderOf decides the loader from a file name's extension: .ts, .mts and
// .cts are TS, .tsx TSX, .jsx JSX, anything else JS.
func LoaderOf(path string) Loader {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ts", ".mts", ".cts":
		return TS
	case ".tsx":
		return TSX
	case ".jsx":
		return JSX
	}
	return JS
}

// FindTsconfig returns the path and text of the tsconfig.json nearest to
// the file path (in its directory or above), or "" when there is none.
// Its "extends" is not followed: esbuild's Transform reads one file.
func FindTsconfig(path string) (file, text string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", ""
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		f := filepath.Join(dir, "tsconfig.json")
		if data, err := os.ReadFile(f); err == nil {
			return f, string(data)
		}
		if filepath.Dir(dir) == dir {
			return "", ""
		}
	}
}

// instrumentTransformed instruments TypeScript, TSX or JSX: esbuild turns
// the source into JavaScript (types and JSX removed, nothing lowered but
// decorators, imports and exports kept as written but in CommonJS) with a
// source map, the
// JavaScript is instrumented, and every site is mapped back to the
// original text through the map (siteMapper).
func instrumentTransformed(src []byte, opts config) (*Result, error) {
	name := fileName(opts.Options)
	loader := map[Loader]api.Loader{TS: api.LoaderTS, TSX: api.LoaderTSX, JSX: api.LoaderJSX}[opts.Loader]
	// Imports and exports stay as written, except in CommonJS files (.cts,
	// or .ts in a CommonJS package), where they become require and
	// exports, as tsc compiles them.
	format := api.FormatDefault
	if opts.Goal == js.CommonJS {
		format = api.FormatCommonJS
	}
	tr := api.Transform(string(src), api.TransformOptions{
		Loader:         loader,
		Target:         api.ESNext,
		Format:         format,
		Sourcemap:      api.SourceMapExternal,
		SourcesContent: api.SourcesContentExclude,
		Sourcefile:     name,
		Charset:        api.CharsetUTF8,
		TsconfigRaw:    opts.Tsconfig,
		LogLevel:       api.LogLevelSilent,
		// Our parser does not read decorators: esbuild lowers them.
		Supported: map[string]bool{"decorators": false},
	})
	if len(tr.Errors) > 0 {
		return nil, esbuildErrors(name, src, tr.Errors)
	}
	sm, err := parseSourceMap(tr.Map)
	if err != nil {
		log := diag.NewLog(name, src)
		log.Errorf(diag.Range{}, "internal instrumenter error: %v", err)
		return nil, log.Err()
	}
	code, sm := alignLines(tr.Code, sm, opts.Goal)
	m := newSiteMapper(sm, code, src)
	res, err := instrumentJS(code, opts, m.mapSites)
	if err != nil {
		return nil, m.mapErrors(name, err)
	}
	if res.Unchanged {
		return &Result{Code: src, Unchanged: true}, nil
	}
	if res.posMap != nil {
		res.posMap = m.composePosMap(res.posMap)
		res.PosMap = res.posMap.encode()
	}
	res.JS = code
	return res, nil
}

// esbuildErrors turns esbuild's errors into our diagnostics (esbuild
// reports 1-based lines and 0-based byte columns).
func esbuildErrors(name string, src []byte, msgs []api.Message) error {
	log := diag.NewLog(name, src)
	t := log.Table()
	at := func(loc *api.Location) diag.Range {
		if loc == nil || loc.Line < 1 || loc.Line > t.Lines() {
			return diag.Range{}
		}
		off := t.LineStart(loc.Line) + int32(min(loc.Column, len(t.LineText(loc.Line))))
		return diag.Range{Start: off, End: off + int32(max(loc.Length, 0))}
	}
	for _, m := range msgs {
		var notes []diag.Diagnostic
		for _, n := range m.Notes {
			if n.Location != nil && n.Text != "" {
				notes = append(notes, diag.Diagnostic{Severity: diag.Note, Range: at(n.Location), Text: n.Text})
			}
		}
		log.Add(diag.Error, at(m.Location), lowerFirst(m.Text), notes...)
	}
	return log.Err()
}

// lowerFirst follows diag's message style (lower case, no final period).
func lowerFirst(s string) string {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 1 && s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z') {
		return string(s[0]+'a'-'A') + s[1:]
	}
	return s
}

// A siteMapper maps positions in esbuild's output back to the original.
//
// esbuild maps the start of most tokens it prints, but not all (a
// statement keyword, a closing parenthesis), and it removes type syntax
// between mapped tokens. The rule for a generated position:
//
//  1. Take the last mapping at or before it on its generated line; if the
//     generated text from that mapping to the position equals the
//     original text from the mapping's original position, the position
//     maps to the same distance after it (exact).
//  2. Else take the first mapping after it on its line, likewise backwards
//     (exact): `return` before an expression esbuild mapped.
//  3. Else (inexact) the mapping of rule 1, advanced over the common prefix
//     of the two texts; with no mapping before it on its line, the last
//     mapping of the closest earlier line.
//
// A site's start maps so. Its end maps through its last character: when
// that is not exact or the original has another character there (type
// syntax was removed before the end, as in f(x as T)), the original is
// searched forward, up to the original position of the next mapping (or
// the end of the line), for that character outside the brackets opened on
// the way; when none is found, the end is the mapped position (an empty
// range becomes the word at the start). A range that starts at the
// beginning or ends at the end of the generated code does so in the
// original too (the program's own sites). Code esbuild synthesises (enum and namespace bodies,
// parameter-property assignments) gets the token esbuild attributes it to.
type siteMapper struct {
	sm        *sourceMap
	gen, orig []byte
	gt, ot    *diag.LineTable
}

func newSiteMapper(sm *sourceMap, gen, orig []byte) *siteMapper {
	return &siteMapper{sm: sm, gen: gen, orig: orig, gt: diag.NewLineTable(gen), ot: diag.NewLineTable(orig)}
}

// offset returns the byte offset of a 1-based line and 0-based UTF-16
// column in the text t indexes (clamped to the line).
func offset(t *diag.LineTable, line, col int) int32 {
	if line < 1 {
		return 0
	}
	if line > t.Lines() {
		line = t.Lines()
	}
	text := t.LineText(line)
	off := 0
	for c := 0; c < col && off < len(text); {
		r, n := utf8.DecodeRune(text[off:])
		off += n
		c++
		if r >= 0x10000 {
			c++
		}
	}
	return t.LineStart(line) + int32(off)
}

func (m *siteMapper) segOrig(s mapping) int32 { return offset(m.ot, int(s.srcLine)+1, int(s.srcCol)) }

// mapOffset maps a byte offset of the generated code to one of the
// original (the rule above); exact reports rules 1 and 2.
func (m *siteMapper) mapOffset(g int32) (o int32, exact, ok bool) {
	line, col := m.gt.Position(g)
	segs := m.sm.lines
	var prev, next *mapping
	if line-1 < len(segs) {
		for i := range segs[line-1] {
			s := &segs[line-1][i]
			if int(s.genCol) <= col {
				prev = s
			} else {
				next = s
				break
			}
		}
	}
	if prev != nil {
		so, sg := m.segOrig(*prev), offset(m.gt, line, int(prev.genCol))
		d := g - sg
		if so+d <= int32(len(m.orig)) && string(m.gen[sg:g]) == string(m.orig[so:so+d]) {
			return so + d, true, true
		}
	}
	if next != nil {
		so, sg := m.segOrig(*next), offset(m.gt, line, int(next.genCol))
		d := sg - g
		if so-d >= 0 && string(m.gen[g:sg]) == string(m.orig[so-d:so]) {
			return so - d, true, true
		}
	}
	if prev != nil {
		so, sg := m.segOrig(*prev), offset(m.gt, line, int(prev.genCol))
		k := int32(0)
		for sg+k < g && so+k < int32(len(m.orig)) && m.gen[sg+k] == m.orig[so+k] {
			k++
		}
		return so + k, false, true
	}
	seg, _, ok := m.sm.lookup(int32(line-1), int32(col))
	if !ok {
		return 0, false, false
	}
	return m.segOrig(seg), false, true
}

// limit is the original offset of the first mapping after the generated
// offset g when that lies beyond from, else the end of from's line.
func (m *siteMapper) limit(g, from int32) int32 {
	line, col := m.gt.Position(g)
	if seg, ok := m.sm.next(int32(line-1), int32(col)); ok {
		if o := m.segOrig(seg); o > from {
			return o
		}
	}
	l := m.ot.Line(from)
	return m.ot.LineStart(l) + int32(len(m.ot.LineText(l)))
}

func (m *siteMapper) mapSites(sites []Site) []Site {
	out := make([]Site, len(sites))
	for i, s := range sites {
		if s == (Site{}) {
			continue
		}
		out[i] = m.mapSite(s)
	}
	return out
}

func (m *siteMapper) mapSite(s Site) Site {
	gStart := offset(m.gt, int(s.StartLine), int(s.StartCol-1))
	gEnd := offset(m.gt, int(s.EndLine), int(s.EndCol-1))
	start, _, ok := m.mapOffset(gStart)
	if !ok {
		return Site{}
	}
	end := start
	if gEnd > gStart {
		// The last character of the range in the generated code.
		last, n := utf8.DecodeLastRune(m.gen[gStart:gEnd])
		lastOff := gEnd - int32(n)
		if o, exact, ok := m.mapOffset(lastOff); ok {
			if r, _ := utf8.DecodeRune(m.orig[o:]); exact && r == last {
				end = o + int32(n)
			} else if o == start {
				// The whole range maps to one position: code esbuild
				// wrote for the token there.
				end = m.wordEnd(start)
			} else if f, found := m.search(o, m.limit(lastOff, o), last); found {
				end = f + int32(n)
			} else {
				end = o
			}
		}
	}
	// The whole generated program is the whole original.
	if gStart == 0 {
		start = 0
	}
	if gEnd == int32(len(m.gen)) {
		end = int32(len(m.orig))
	}
	if end <= start {
		end = m.wordEnd(start)
	}
	start, end = m.balance(start, end)
	l1, c1 := m.ot.Position(start)
	l2, c2 := m.ot.Position(end)
	return Site{int32(l1), int32(c1 + 1), int32(l2), int32(c2 + 1)}
}

// balance widens [start, end) of the original so that its brackets
// match, when esbuild dropped parentheses at its edges: (o as T).p = v
// prints as o.p = v, whose site would otherwise begin inside "(".
func (m *siteMapper) balance(start, end int32) (int32, int32) {
	depth, low := 0, 0
	for i := start; i < end; i++ {
		switch m.orig[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			low = min(low, depth)
		case '"', '\'', '`':
			q := m.orig[i]
			for i++; i < end && m.orig[i] != q; i++ {
				if m.orig[i] == '\\' {
					i++
				}
			}
		}
	}
	const reach = 256
	// Unmatched closers: find as many openers before start.
	if need := -low; need > 0 {
		d := 0
		for i := start - 1; i >= 0 && i >= start-reach; i-- {
			switch m.orig[i] {
			case ')', ']', '}':
				d++
			case '(', '[', '{':
				if d > 0 {
					d--
				} else if need--; need == 0 {
					start = i
					i = -1
				}
			}
		}
		depth -= low
	}
	// Unmatched openers: find as many closers after end.
	if depth > 0 {
		d := 0
		for i := end; i < int32(len(m.orig)) && i < end+reach; i++ {
			switch m.orig[i] {
			case '(', '[', '{':
				d++
			case ')', ']', '}':
				if d > 0 {
					d--
				} else if depth--; depth == 0 {
					end = i + 1
					i = int32(len(m.orig))
				}
			}
		}
	}
	return start, end
}

// wordEnd returns the end of the identifier-like word at o, or the end of
// the character at o.
func (m *siteMapper) wordEnd(o int32) int32 {
	e := o
	for e < int32(len(m.orig)) {
		c := m.orig[e]
		if !(c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80) {
			break
		}
		e++
	}
	if e == o && e < int32(len(m.orig)) {
		_, n := utf8.DecodeRune(m.orig[e:])
		e += int32(n)
	}
	return e
}

// search looks in orig[from:limit) for the rune want outside the brackets
// opened in that text, skipping string literals.
func (m *siteMapper) search(from, limit int32, want rune) (int32, bool) {
	depth := 0
	for i := from; i < limit; {
		r, n := utf8.DecodeRune(m.orig[i:])
		if r == want && depth == 0 {
			return i, true
		}
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case '"', '\'', '`':
			for j := i + 1; j < limit; j++ {
				if m.orig[j] == '\\' {
					j++
					continue
				}
				if rune(m.orig[j]) == r {
					n = int(j - i + 1)
					break
				}
			}
		}
		i += int32(n)
	}
	return from, false
}

// mapErrors maps the positions of the JavaScript instrumenter's
// diagnostics (about esbuild's output) back to the original.
func (m *siteMapper) mapErrors(name string, err error) error {
	var list *diag.List
	if !errors.As(err, &list) {
		return err
	}
	log := diag.NewLog(name, m.orig)
	for _, d := range list.Log.Diags {
		var r diag.Range
		if o, _, ok := m.mapOffset(offset(m.gt, d.Line, d.Column-1)); ok {
			r = diag.Range{Start: o, End: o}
		}
		text := d.Text
		if d.Severity == diag.Error && !strings.HasPrefix(text, "internal") && !strings.Contains(text, "reserved") {
			text = fmt.Sprintf("%s (in the JavaScript esbuild made of this %s)", text, "file")
		}
		log.Add(d.Severity, r, text)
	}
	if err := log.Err(); err != nil {
		return err
	}
	return list
}

// alignLines moves the lines of esbuild's output towards the lines of the
// original they come from, so that line numbers of the instrumented
// program (its stack traces and errors) are the original file's: a line
// whose first mapping comes from a later original line is preceded by
// blank lines (esbuild drops blank lines, comments and type
// declarations), and a line that comes too late, or has no mapping (the
// CommonJS helpers esbuild writes at the top, closing braces), is joined to
// the line before it. It returns the code with its map. Only newlines
// change: one is added between two lines, where the line after it has only
// spaces and tabs before its first mapping (never inside a token: a
// template literal's line has its text, `${` or a backtick there), or
// replaced by a space where it is not inside a template literal, does not
// end a line with "//" in it (a comment would take the joined text) and
// does not end a hashbang. esbuild ends every statement with a semicolon
// and breaks no restricted production, so no newline it prints is a
// semicolon. Where the code is not valid for its goal, it is left as it is.
func alignLines(code []byte, sm *sourceMap, goal js.Goal) ([]byte, *sourceMap) {
	prog, err := js.Parse(code, js.Options{Goal: goal})
	if err != nil {
		return code, sm
	}
	// Newlines inside template literals are their text.
	var inTemplate map[int]bool
	js.Inspect(prog, func(n js.Node) bool {
		if t, ok := n.(*js.Template); ok {
			for i := t.Start; i < t.End; i++ {
				if code[i] == '\n' {
					if inTemplate == nil {
						inTemplate = make(map[int]bool)
					}
					inTemplate[int(i)] = true
				}
			}
		}
		return true
	})
	out := make([]byte, 0, len(code)+len(code)/16)
	var lines [][]mapping
	at := -1        // the output line being written (0-based)
	var width int32 // its length in UTF-16 units
	prevStart := 0
	for g, start := 0, 0; start <= len(code); g++ {
		end := bytes.IndexByte(code[start:], '\n')
		if end < 0 {
			end = len(code)
		} else {
			end += start
		}
		var segs []mapping
		if g < len(sm.lines) {
			segs = sm.lines[g]
		}
		line := code[start:end]
		late := len(segs) == 0 || int(segs[0].srcLine) < at+1
		if g > 0 && late && !inTemplate[start-1] && !bytes.Contains(code[prevStart:start-1], []byte("//")) &&
			!(at == 0 && bytes.HasPrefix(code, []byte("#!"))) {
			// Join: the newline becomes a space.
			out = append(out, ' ')
			for _, m := range segs {
				m.genCol += width + 1
				lines[at] = append(lines[at], m)
			}
			width += 1 + utf16Len(line)
		} else {
			if g > 0 {
				out = append(out, '\n')
			}
			at++
			if len(segs) > 0 && int(segs[0].srcLine) > at && blankPrefix(line, segs[0].genCol) {
				for ; at < int(segs[0].srcLine); at++ {
					out = append(out, '\n')
					lines = append(lines, nil)
				}
			}
			lines = append(lines, append([]mapping(nil), segs...))
			width = utf16Len(line)
		}
		out = append(out, line...)
		prevStart = start
		start = end + 1
	}
	return out, &sourceMap{lines: lines}
}

// utf16Len is the length of UTF-8 text b in UTF-16 code units.
func utf16Len(b []byte) int32 {
	n := int32(0)
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		i += size
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// blankPrefix reports whether line's text before UTF-16 column col is
// spaces and tabs only.
func blankPrefix(line []byte, col int32) bool {
	if int(col) > len(line) {
		return false
	}
	for _, c := range line[:col] {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// composePosMap turns the position map of the instrumented JavaScript
// (posmap.go: original positions in esbuild's output) into one of the
// TypeScript, TSX or JSX source: inserted text and hook names map through
// esbuild's source map (mapOffset); a run of output text is cut where a
// source map segment begins in it, each piece running from where its
// segment maps (type syntax removed between them shifts the source's
// columns); inferred names move with their literals.
func (m *siteMapper) composePosMap(d *posMapData) *posMapData {
	toSrc := func(line, col int32) (int32, int32) {
		o, _, ok := m.mapOffset(offset(m.gt, int(line), int(col)-1))
		if !ok {
			return line, col
		}
		l, c := m.ot.Position(o)
		return int32(l), int32(c + 1)
	}
	in := d.entries
	out := &posMapData{entries: make([]int32, 0, len(in)+len(in)/2)}
	for k := 0; k+4 < len(in); k += 5 {
		line, col, ol, oc, kind := in[k], in[k+1], in[k+2], in[k+3], in[k+4]
		sl, sc := toSrc(ol, oc)
		out.entries = append(out.entries, line, col, sl, sc, kind)
		if kind != posRun || int(ol-1) >= len(m.sm.lines) {
			continue
		}
		end := int32(-1) // the run's end column (instrumented), -1: the line's end
		if k+5 < len(in) && in[k+5] == line {
			end = in[k+6]
		}
		for _, s := range m.sm.lines[ol-1] {
			g := s.genCol + 1 // 1-based output column
			if g <= oc || end >= 0 && col+(g-oc) >= end {
				continue
			}
			sl, sc := toSrc(ol, g)
			out.entries = append(out.entries, line, col+(g-oc), sl, sc, posRun)
		}
	}
	for _, n := range d.names {
		l, c := toSrc(n.line, n.col)
		out.names = append(out.names, namedAt{n.name, l, c})
	}
	return out
}
