// Package diag holds diagnostics (errors and warnings about a source text)
// and renders them for people.
//
// Deep code never prints: a parser records a Diagnostic in a Log, and the
// caller renders the log once, as
//
//	file:line:col: error: message
//	    let = 1;
//	        ^
//
// Lines are 1-based; columns are 1-based and counted in UTF-16 code units,
// like V8 and source maps (see LineTable). Byte offsets are what every
// Diagnostic carries; positions are computed only when rendering.
package diag

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"
)

// Severity orders diagnostics by importance.
type Severity uint8

const (
	Error Severity = iota
	Warning
	Note
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Note:
		return "note"
	}
	return "unknown"
}

// Range is a byte range [Start, End) in one source text.
type Range struct {
	Start, End int32
}

// Diagnostic is one message about a source text.
type Diagnostic struct {
	Severity Severity
	File     string // the file name as given by the caller, e.g. "<stdin>"
	Range    Range  // byte offsets into the source
	Line     int    // 1-based line of Range.Start
	Column   int    // 1-based UTF-16 column of Range.Start
	Text     string // the message, lower case, without a final period
	Notes    []Diagnostic
}

// Error formats d as "file:line:col: severity: text".
func (d Diagnostic) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", d.File, d.Line, d.Column, d.Severity, d.Text)
}

// Log collects the diagnostics about one source text.
type Log struct {
	File  string
	Src   []byte
	Diags []Diagnostic
	table *LineTable
}

// NewLog returns an empty log for the source src named file.
func NewLog(file string, src []byte) *Log {
	return &Log{File: file, Src: src}
}

// Table returns the log's line table, building it on first use.
func (l *Log) Table() *LineTable {
	if l.table == nil {
		l.table = NewLineTable(l.Src)
	}
	return l.table
}

// Add records a diagnostic of severity s at r, computing its position.
func (l *Log) Add(s Severity, r Range, text string, notes ...Diagnostic) {
	line, col := l.Table().Position(r.Start)
	for i := range notes {
		notes[i].File = l.File
		notes[i].Line, notes[i].Column = l.Table().Position(notes[i].Range.Start)
		notes[i].Column++
	}
	l.Diags = append(l.Diags, Diagnostic{Severity: s, File: l.File, Range: r, Line: line, Column: col + 1, Text: text, Notes: notes})
}

// Errorf records an error at r.
func (l *Log) Errorf(r Range, format string, args ...any) {
	l.Add(Error, r, fmt.Sprintf(format, args...))
}

// HasErrors reports whether an error was recorded.
func (l *Log) HasErrors() bool {
	for _, d := range l.Diags {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Sort orders the diagnostics by position, then severity, then text, and
// keeps at most one error per line (later ones on a line are cascades).
func (l *Log) Sort() {
	sort.SliceStable(l.Diags, func(i, j int) bool {
		a, b := l.Diags[i], l.Diags[j]
		if a.Range.Start != b.Range.Start {
			return a.Range.Start < b.Range.Start
		}
		if a.Severity != b.Severity {
			return a.Severity < b.Severity
		}
		return a.Text < b.Text
	})
	out := l.Diags[:0]
	lastErrLine := 0
	for _, d := range l.Diags {
		if d.Severity == Error {
			if d.Line == lastErrLine {
				continue
			}
			lastErrLine = d.Line
		}
		out = append(out, d)
	}
	l.Diags = out
}

// Err returns the log's diagnostics as an error (a List), or nil if it
// records no error.
func (l *Log) Err() error {
	if !l.HasErrors() {
		return nil
	}
	l.Sort()
	return &List{Log: l}
}

// List is the error a Log returns: its diagnostics, sorted. Its Error text is
// the first line of each diagnostic; Render adds code frames.
type List struct {
	Log *Log
}

func (e *List) Error() string {
	var b strings.Builder
	for i, d := range e.Log.Diags {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.Error())
	}
	return b.String()
}

// First returns the first diagnostic.
func (e *List) First() Diagnostic { return e.Log.Diags[0] }

// RenderOptions select how Render draws diagnostics.
type RenderOptions struct {
	Color bool // ANSI colours; callers turn this off under NO_COLOR or without a TTY
}

// Render writes every diagnostic of the log to w, each with a code frame
// showing its line and a caret under its start (a tilde run under the rest
// of its range on that line).
func (l *Log) Render(w io.Writer, o RenderOptions) error {
	var buf bytes.Buffer
	for _, d := range l.Diags {
		l.renderOne(&buf, d, o)
		for _, n := range d.Notes {
			l.renderOne(&buf, n, o)
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

const (
	ansiBold  = "\x1b[1m"
	ansiRed   = "\x1b[31m"
	ansiYel   = "\x1b[33m"
	ansiCyan  = "\x1b[36m"
	ansiGreen = "\x1b[32m"
	ansiReset = "\x1b[0m"
)

func (l *Log) renderOne(buf *bytes.Buffer, d Diagnostic, o RenderOptions) {
	sev := d.Severity.String()
	if o.Color {
		c := ansiRed
		switch d.Severity {
		case Warning:
			c = ansiYel
		case Note:
			c = ansiCyan
		}
		fmt.Fprintf(buf, "%s%s:%d:%d: %s%s:%s %s%s%s\n", ansiBold, safeText(d.File), d.Line, d.Column, c, sev, ansiReset, ansiBold, safeText(d.Text), ansiReset)
	} else {
		fmt.Fprintf(buf, "%s:%d:%d: %s: %s\n", safeText(d.File), d.Line, d.Column, sev, safeText(d.Text))
	}
	if l.Src == nil || d.Line < 1 || d.Line > l.Table().Lines() {
		return
	}
	text := l.Table().LineText(d.Line)
	start := l.Table().LineStart(d.Line)
	// Show tabs as single spaces so the caret lines up, and cut long lines
	// around the caret.
	col := int(d.Range.Start - start)
	if col > len(text) {
		col = len(text)
	}
	width := int(d.Range.End - d.Range.Start)
	if width < 1 {
		width = 1
	}
	if col+width > len(text) {
		width = len(text) - col
		if width < 1 {
			width = 1
		}
	}
	lo := 0
	if col > 60 {
		lo = col - 40
	}
	hi := len(text)
	if hi-lo > 120 {
		hi = lo + 120
	}
	line := make([]byte, 0, hi-lo)
	pad := 0 // caret position in display cells
	for i := lo; i < hi; i++ {
		c := text[i]
		if c == '\t' {
			c = ' '
		}
		if c >= 0x80 && c < 0xC0 { // continuation byte: no cell of its own
			line = append(line, c)
			continue
		}
		if i < col {
			pad++
		}
		switch {
		case c < 0x20 || c == 0x7f:
			// A control character (a terminal escape, a carriage
			// return) is shown as its picture, one cell: the source's
			// bytes never reach the terminal.
			line = appendControlPicture(line, c)
		case c == 0xC2 && i+1 < hi && text[i+1] >= 0x80 && text[i+1] < 0xA0:
			line = append(line, "\uFFFD"...) // a C1 control (U+0080-U+009F)
			i++
		default:
			line = append(line, c)
		}
	}
	caret := "^" + strings.Repeat("~", max(0, min(width, hi-col)-1))
	fmt.Fprintf(buf, "    %s\n    %s", line, strings.Repeat(" ", pad))
	if o.Color {
		fmt.Fprintf(buf, "%s%s%s\n", ansiGreen, caret, ansiReset)
	} else {
		fmt.Fprintf(buf, "%s\n", caret)
	}
}

// appendControlPicture appends the picture of control character c
// (U+2400-U+241F, U+2421 for DEL).
func appendControlPicture(b []byte, c byte) []byte {
	r := rune(0x2400) + rune(c)
	if c == 0x7f {
		r = 0x2421
	}
	return utf8.AppendRune(b, r)
}

// safeText is s with its control characters (C0, DEL, C1) shown as
// pictures or U+FFFD: a file name or a message that quotes the source
// never sends its bytes to the terminal.
func safeText(s string) string {
	clean := true
	for _, r := range s {
		if r < 0x20 || r >= 0x7f && r < 0xA0 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for _, r := range s {
		switch {
		case r < 0x20 || r == 0x7f:
			b = appendControlPicture(b, byte(r))
		case r >= 0x80 && r < 0xA0:
			b = utf8.AppendRune(b, utf8.RuneError)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}
