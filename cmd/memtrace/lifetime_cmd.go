package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"

	"github.com/memtrace/memtrace/lifetime"
)

type lifetimeOptions struct {
	IO     *IOStreams
	Trace  string
	Format string
}

var lifetimeFormats = []string{"meminsight"}

func newCmdLifetime(ios *IOStreams, runF func(*lifetimeOptions) error) *cobra.Command {
	opts := &lifetimeOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "lifetime [--format FORMAT] TRACE",
		Short: "Compute when every object became unreachable",
		Long: heredoc.Docf(`
			Run the lifetime engine over a trace: a simulated heap with reference
			counting, closure contexts sealed at function exit, lazy cycle collection
			with Merlin timestamps and DOM child sets. It decides, for every object,
			the logical time and source location at which it became unreachable.

			Formats:
			  meminsight   MemInsight's reference-counting output, as its engine prints
			               it in testing mode: "<call site> : RC(<site>) = <count>" at
			               each debug call, then one row per object (id, allocation
			               site, unreachability time and location)

			TRACE is a trace file, a trace directory (its mem-trace), or - for
			standard input. A malformed trace is reported with its entry index and
			byte offset (exit status 1). On a terminal, large traces show progress.
		`),
		Example: heredoc.Doc(`
			$ memtrace lifetime out/
			$ memtrace lifetime --format meminsight traces/testRefCount1.mem-trace
		`),
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Trace = args[0]
			ok := false
			for _, f := range lifetimeFormats {
				ok = ok || f == opts.Format
			}
			if !ok {
				return flagErrorf("unknown --format %q (choose from %s)", opts.Format, strings.Join(lifetimeFormats, ", "))
			}
			if runF != nil {
				return runF(opts)
			}
			return lifetimeRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "meminsight", "output `FORMAT`: "+strings.Join(lifetimeFormats, ", "))
	return cmd
}

func lifetimeRun(opts *lifetimeOptions) error {
	in, err := openTrace(opts.IO, opts.Trace)
	if err != nil {
		return err
	}
	defer in.Close()
	var size int64
	if f, ok := in.r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	}
	pr := newProgressReader(opts.IO, in.r, "lifetime", size)
	out := bufio.NewWriterSize(opts.IO.Out, 64<<10)
	err = lifetime.WriteRC(out, pr, lifetime.Options{}, lifetime.RCOptions{Testing: true, Verbose: true})
	pr.done()
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", in.name, err)
	}
	return nil
}
