package main

import (
	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"
)

// journeyGroup holds the commands of the main journey: trace a program,
// read the result. The root help lists it first.
const journeyGroup = "journey"

func newRootCmd(ios *IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "memtrace <command> [flags]",
		Short: "Run a JavaScript program, record what its objects do, and find its leaks",
		Long: heredoc.Doc(`
			memtrace runs a JavaScript program under Node.js with its code
			instrumented, records what every object does (its allocation, its uses,
			its last use) in a trace, and reads the trace back to show which objects
			the program keeps reachable but never uses again: its memory leaks,
			object by object.

			To trace a program and read the result:

			  1. memtrace node app.js [ARGS...]
			     runs app.js (and the node processes and workers it starts) with
			     every module instrumented as it loads; the trace goes to the
			     directory ./memtrace-out (--out DIR), and the last line printed
			     says how to read it.
			  2. memtrace lifetime --format json memtrace-out
			     prints, for every allocation site (file:line:col), how many objects
			     it made, how many were alive and how many stale (still reachable
			     after their last use) at the worst moment, and whether it leaks.

			memtrace demo does both on a small leaky service that ships inside
			memtrace: a first look in one command.

			A trace is a file named mem-trace, usually in a trace directory;
			wherever a command takes a TRACE, a directory means DIR/mem-trace and
			- means standard input. Traces are in the binary format of MemInsight,
			the research tool memtrace's format and lifetime engine come from, so
			MemInsight's own engine reads them too.
		`),
		Example: examples(`
			$ memtrace node app.js --port 8080
			$ memtrace lifetime --format json memtrace-out | jq '.sites[] | select(.leaking)'
			$ memtrace demo
		`),
		Version:       buildInfo().String(),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return &FlagError{err: err} })
	root.SetUsageTemplate(usageTemplate)
	root.SetVersionTemplate("{{.Version}}\n")
	root.Flags().Bool("version", false, "print memtrace's version, as memtrace version does")
	root.SetHelpCommand(newCmdHelp())
	root.CompletionOptions.DisableDefaultCmd = true

	root.AddGroup(&cobra.Group{ID: journeyGroup, Title: "Trace a program and read the result:"})
	for _, c := range []*cobra.Command{newCmdNode(ios, nil), newCmdLifetime(ios, nil), newCmdReport(ios, nil), newCmdDemo(ios, nil)} {
		c.GroupID = journeyGroup
		root.AddCommand(c)
	}
	root.AddCommand(newCmdInstrument(ios, nil))
	root.AddCommand(newCmdCollect(ios, nil))
	root.AddCommand(newCmdServe(ios, nil))
	root.AddCommand(newCmdProxy(ios, nil))
	root.AddCommand(newCmdCA(ios))
	root.AddCommand(newCmdTrace(ios))
	root.AddCommand(newCmdParse(ios, nil))
	root.AddCommand(newCmdVersion(ios, nil))
	root.AddCommand(newCmdInstrumentServer(ios))
	return root
}
