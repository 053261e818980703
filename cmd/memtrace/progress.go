package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progressMin is the smallest input that gets a progress bar.
const progressMin = 16 << 20

// progressReader counts the bytes read through it and, on a terminal,
// redraws a one-line progress bar on the diagnostics stream at most ten
// times a second. Off a terminal, or for small or unsized inputs, it is a
// plain pass-through.
type progressReader struct {
	r       io.Reader
	w       io.Writer
	label   string
	total   int64
	n       int64
	start   time.Time
	last    time.Time
	enabled bool
	drawn   bool
}

func newProgressReader(ios *IOStreams, r io.Reader, label string, total int64) *progressReader {
	return &progressReader{
		r: r, w: ios.ErrOut, label: label, total: total,
		start:   time.Now(),
		enabled: ios.ErrIsTTY() && total >= progressMin,
	}
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.n += int64(n)
	if p.enabled {
		if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond {
			p.last = now
			p.draw(now)
		}
	}
	return n, err
}

func (p *progressReader) draw(now time.Time) {
	drawBar(p.w, p.label, p.n, p.total, now.Sub(p.start), "")
	p.drawn = true
}

// drawBar redraws a one-line progress bar: n of total bytes after
// elapsed, and an extra note.
func drawBar(w io.Writer, label string, n, total int64, elapsed time.Duration, note string) {
	const width = 30
	frac := float64(n) / float64(max(total, 1))
	frac = min(max(frac, 0), 1)
	filled := int(frac * width)
	bar := strings.Repeat("=", filled)
	if filled < width {
		bar += ">" + strings.Repeat(" ", width-filled-1)
	}
	rate := float64(n) / 1e6 / max(elapsed.Seconds(), 1e-3)
	fmt.Fprintf(w, "\r%s [%s] %3.0f%%  %.1f/%.1f MB  %.0f MB/s %s", label, bar, frac*100, float64(n)/1e6, float64(total)/1e6, rate, note)
}

// done erases the bar.
func (p *progressReader) done() {
	if p.drawn {
		fmt.Fprintf(p.w, "\r\x1b[K")
		p.drawn = false
	}
}
