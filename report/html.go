package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"html"
	"io"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/memtrace/memtrace/internal/safefs"
)

// csp keeps the page off the network: its script and styles are inline,
// its images data: URIs, and nothing else loads.
const csp = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"

// Write writes the page: one HTML file with the data and the bundle that
// renders it.
func Write(w io.Writer, d *Data) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	title := "memtrace report"
	if d.Title != "" {
		title += ": " + d.Title
	}
	io.WriteString(bw, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
	io.WriteString(bw, "<meta http-equiv=\"Content-Security-Policy\" content=\""+csp+"\">\n")
	io.WriteString(bw, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	io.WriteString(bw, "<meta name=\"color-scheme\" content=\"light dark\">\n")
	io.WriteString(bw, generatorMark+"\n")
	io.WriteString(bw, "<title>"+html.EscapeString(title)+"</title>\n<style>")
	io.WriteString(bw, safeInRawText(string(bundleCSS), "</style"))
	io.WriteString(bw, "</style>\n</head><body>\n<noscript>This report needs JavaScript.</noscript>\n<div id=\"app\"></div>\n")
	io.WriteString(bw, "<script id=\"memtrace-data\" type=\"application/json\">")
	// encoding/json escapes <, > and & (and U+2028, U+2029): the data
	// cannot close its script element.
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(d); err != nil {
		return err
	}
	io.WriteString(bw, "</script>\n<script>")
	io.WriteString(bw, safeInRawText(string(bundleJS), "</script"))
	io.WriteString(bw, "</script>\n</body></html>\n")
	return bw.Flush()
}

// safeInRawText keeps a bundle from closing its element early (a string
// "</script>" in its code): the browser reads `<\/` as `</` in a
// JavaScript string or regular expression, and CSS has no such text.
func safeInRawText(s, end string) string {
	if !strings.Contains(strings.ToLower(s), end) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(strings.ToLower(s), end)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i+1])
		b.WriteString("\\")
		s = s[i+1:]
	}
}

// generatorMark is in every page's head: a file with it is one memtrace
// report wrote, which it may replace.
const generatorMark = `<meta name="generator" content="memtrace report">`

// InTheWayError is a file at the output's path that memtrace report did
// not write.
type InTheWayError struct{ Path string }

func (e *InTheWayError) Error() string {
	return e.Path + " exists and is not a report memtrace wrote: give -o another file (memtrace writes over no file it did not write)"
}

// Written reports whether page (or its first bytes) is a page memtrace
// report wrote.
func Written(page []byte) bool {
	return bytes.Contains(page[:min(len(page), 4096)], []byte(generatorMark))
}

// WriteFile writes the page to path, whole or not at all, replacing only
// a report that memtrace wrote (never through a link in the way).
func WriteFile(path string, d *Data) error {
	var b bytes.Buffer
	if err := Write(&b, d); err != nil {
		return err
	}
	return Save(path, b.Bytes())
}

// Save writes a page to path as WriteFile does.
func Save(path string, page []byte) error {
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	root, err := safefs.Open(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	if root.Exists(name) {
		if st, err := root.Lstat(name); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			return &InTheWayError{Path: path}
		}
		f, err := root.Open(name)
		if err != nil {
			return err
		}
		head := make([]byte, 4096)
		n, _ := io.ReadFull(f, head)
		f.Close()
		if !Written(head[:n]) {
			return &InTheWayError{Path: path}
		}
	}
	f, err := root.Create(name, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(page); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}
