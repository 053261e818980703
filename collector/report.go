package collector

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"time"

	"github.com/memtrace/memtrace/internal/safefs"
	"github.com/memtrace/memtrace/report"
	"github.com/memtrace/memtrace/tracedir"
)

// reportFile is the name of a session's report in its directory.
const reportFile = "report.html"

// serveReport serves an ended session's report: the one in its
// directory when it is newer than the session's end, else a new one
// (memtrace report's page, built from the session's trace and its
// scripts/), kept there for the next time.
func (c *Collector) serveReport(w http.ResponseWriter, r *http.Request) {
	if !c.authorized(w, r) {
		return
	}
	s := c.lookup(r.URL.Query().Get("session"))
	if s == nil {
		http.Error(w, "no such session", http.StatusNotFound)
		return
	}
	line := s.snapshot()
	if line.State != tracedir.StatusComplete && line.State != tracedir.StatusIncomplete {
		http.Error(w, "the session is "+line.State+": its report comes when it ends", http.StatusConflict)
		return
	}
	dir := s.dir.Name()
	c.reportMu.Lock()
	page, err := c.sessionReport(dir, s.name, line.End)
	c.reportMu.Unlock()
	if err != nil {
		c.logf("session %s: report: %v", s.name, err)
		http.Error(w, "memtrace collect: the report of "+s.name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, reportFile, time.Time{}, bytes.NewReader(page))
}

// sessionReport is the report of the session in dir, made again unless
// the one there is newer than the session's end.
func (c *Collector) sessionReport(dir, name string, ended time.Time) ([]byte, error) {
	d, err := safefs.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	if st, err := d.Lstat(reportFile); err == nil && !ended.IsZero() && time.Unix(st.Mtim.Unix()).After(ended) {
		if f, err := d.Open(reportFile); err == nil {
			b, err := io.ReadAll(f)
			f.Close()
			if err == nil && report.Written(b) {
				return b, nil
			}
		}
	}
	in, err := tracedir.Open(dir, nil)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	data, err := report.Build(report.Options{Trace: name, Input: in, WorkDir: dir, TempDir: dir})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := report.Write(&b, data); err != nil {
		return nil, err
	}
	if err := report.Save(filepath.Join(dir, reportFile), b.Bytes()); err != nil {
		return nil, fmt.Errorf("writing it: %w", err)
	}
	return b.Bytes(), nil
}
