package main

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams are the streams a command reads and writes. Output goes to Out,
// diagnostics to ErrOut.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	outTTY, errTTY bool
	noColor        bool
}

func systemIO() *IOStreams {
	_, noColor := os.LookupEnv("NO_COLOR")
	return &IOStreams{
		In:      os.Stdin,
		Out:     os.Stdout,
		ErrOut:  os.Stderr,
		outTTY:  term.IsTerminal(int(os.Stdout.Fd())),
		errTTY:  term.IsTerminal(int(os.Stderr.Fd())),
		noColor: noColor,
	}
}

// testIO returns streams backed by buffers, none of them a terminal.
func testIO(stdin string) (*IOStreams, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &IOStreams{In: bytes.NewBufferString(stdin), Out: &out, ErrOut: &errOut}, &out, &errOut
}

// ColorErr reports whether diagnostics may use colour: ErrOut is a
// terminal and NO_COLOR is not set.
func (s *IOStreams) ColorErr() bool { return s.errTTY && !s.noColor }

// ErrIsTTY reports whether diagnostics go to a terminal (for progress bars).
func (s *IOStreams) ErrIsTTY() bool { return s.errTTY }

const (
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)

// paint wraps s in an ANSI colour when diagnostics may be coloured.
func (s *IOStreams) paint(color, text string) string {
	if !s.ColorErr() {
		return text
	}
	return color + text + ansiReset
}
