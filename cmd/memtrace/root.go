package main

import (
	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"
)

func newRootCmd(ios *IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "memtrace <command> [flags]",
		Short: "Record and analyse JavaScript memory behaviour, object by object",
		Long: heredoc.Doc(`
			memtrace makes JavaScript memory behaviour visible object by object. It
			works on memory traces in MemInsight's binary format: every allocation,
			field write, declaration, call, return and last use of every object.

			Traces are files named mem-trace, usually inside a trace directory;
			wherever a command takes a TRACE, a directory means DIR/mem-trace and
			- means standard input.
		`),
		Example: heredoc.Doc(`
			$ memtrace trace check out/mem-trace
			$ memtrace trace stats --json out
			$ memtrace trace dump out/mem-trace | head
		`),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return &FlagError{err} })
	root.CompletionOptions.DisableDefaultCmd = true

	root.AddCommand(newCmdVersion(ios, nil))
	root.AddCommand(newCmdTrace(ios))
	root.AddCommand(newCmdLifetime(ios, nil))
	root.AddCommand(newCmdParse(ios, nil))
	root.AddCommand(newCmdInstrument(ios, nil))
	root.AddCommand(newCmdNode(ios, nil))
	root.AddCommand(newCmdDemo(ios, nil))
	root.AddCommand(newCmdInstrumentServer(ios))
	return root
}
