package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// ExitCode is memtrace's process exit status.
type ExitCode int

const (
	ExitOK      ExitCode = 0 // success
	ExitFailure ExitCode = 1 // the command ran and failed (bad input, findings, I/O)
	ExitUsage   ExitCode = 2 // the command line was wrong
)

// FlagError is a command-line mistake; it prints the usage and exits 2.
type FlagError struct {
	err   error
	usage *cobra.Command // whose usage to print; nil: the command that ran
}

func (e *FlagError) Error() string { return e.err.Error() }
func (e *FlagError) Unwrap() error { return e.err }

func flagErrorf(format string, args ...any) error {
	return &FlagError{err: fmt.Errorf(format, args...)}
}

// errSilent means "fail with exit 1; the command already said why".
var errSilent = errors.New("silent failure")

func run(args []string, ios *IOStreams) ExitCode {
	root := newRootCmd(ios)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err == nil {
		return ExitOK
	}
	if errors.Is(err, errSilent) {
		return ExitFailure
	}
	var ec *exitCodeError
	if errors.As(err, &ec) {
		return ExitCode(ec.code)
	}
	var fe *FlagError
	if errors.As(err, &fe) || isCobraUsageError(err) {
		fmt.Fprintf(ios.ErrOut, "%s %s\n", ios.paint(ansiRed, "error:"), err)
		if fe != nil && fe.usage != nil {
			cmd = fe.usage
		}
		if cmd != nil {
			fmt.Fprintf(ios.ErrOut, "\n%s", cmd.UsageString())
		}
		return ExitUsage
	}
	fmt.Fprintf(ios.ErrOut, "%s %s\n", ios.paint(ansiRed, "error:"), err)
	return ExitFailure
}

// isCobraUsageError recognises the argument and flag errors cobra returns
// as plain errors.
func isCobraUsageError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument",
		"invalid argument", "accepts ", "requires at least", "requires at most", "bad flag syntax"} {
		if strings.HasPrefix(msg, p) || strings.Contains(msg, " "+p) {
			return true
		}
	}
	return false
}

// Cobra's positional-argument validators, wrapped so their errors are
// usage errors.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.ExactArgs(n)(cmd, args); err != nil {
			return &FlagError{err: err}
		}
		return nil
	}
}

func minArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.MinimumNArgs(n)(cmd, args); err != nil {
			return &FlagError{err: err}
		}
		return nil
	}
}

// groupArgs and groupRun make a command that only groups subcommands reject
// an unknown subcommand as a usage error and print its help when called bare.
func groupArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return &FlagError{err: fmt.Errorf("unknown command %q for %q", args[0], cmd.CommandPath())}
	}
	return nil
}

func groupRun(cmd *cobra.Command, args []string) error {
	return cmd.Help()
}
