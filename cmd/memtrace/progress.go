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
	const width = 30
	frac := float64(p.n) / float64(p.total)
	frac = min(max(frac, 0), 1)
	filled := int(frac * width)
	bar := strings.Repeat("=", filled)
	if filled < width {
		bar += ">" + strings.Repeat(" ", width-filled-1)
	}
	rate := float64(p.n) / 1e6 / max(now.Sub(p.start).Seconds(), 1e-3)
	fmt.Fprintf(p.w, "\r%s [%s] %3.0f%%  %.1f/%.1f MB  %.0f MB/s ", p.label, bar, frac*100, float64(p.n)/1e6, float64(p.total)/1e6, rate)
	p.drawn = true
}

// done erases the bar.
func (p *progressReader) done() {
	if p.drawn {
		fmt.Fprintf(p.w, "\r\x1b[K")
		p.drawn = false
	}
}
