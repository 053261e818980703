package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/internal/gctune"
	"github.com/memtrace/memtrace/serve"
)

type serveOptions struct {
	IO                    *IOStreams
	Dir, Listen, Out      string
	DebugFun              string
	AllUses, AllPutFields bool
	Ready                 chan<- string // tests
	ctx                   context.Context
}

func newCmdServe(ios *IOStreams, runF func(*serveOptions) error) *cobra.Command {
	opts := &serveOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "serve [--listen ADDR] [--out DIR] [--debug-fun NAME] [--all-uses] [--all-putfields] APPDIR",
		Short: "Serve a static web app instrumented, and collect each page's trace",
		Long: heredoc.Doc(`
			Serve the web app in APPDIR (a built single-page app's dist/, a folder of
			pages) with its HTML pages and JavaScript instrumented as they are
			served, and collect each page's trace: open the printed address in a
			browser and use the app; each page load is a session, written to a trace
			directory of its own under DIR (default ./memtrace-traces) when the page
			goes away (or on Alt+Shift+T).

			The browser shim and the collector are served on the same origin, under
			/__memtrace__/ (its status page: /__memtrace__/?token=...). Files are
			read under APPDIR without following a symbolic link.
		`),
		Example: examples(`
			$ memtrace serve dist
			$ memtrace serve --listen 0.0.0.0:8000 --out traces site
		`),
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dir = args[0]
			if runF != nil {
				return runF(opts)
			}
			return serveRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Listen, "listen", "127.0.0.1:8000", "the `ADDR` to listen on (host:port)")
	f.StringVar(&opts.Out, "out", "memtrace-traces", "the `DIR` of the sessions (new, empty, or an earlier memtrace collect's or serve's)")
	f.StringVar(&opts.DebugFun, "debug-fun", "", "mark each call to the function `NAME` in the trace (MemInsight's tests call jalangiRC)")
	f.BoolVar(&opts.AllUses, "all-uses", false, "record every use of an object, not only its last (MemInsight's all-uses mode)")
	f.BoolVar(&opts.AllPutFields, "all-putfields", false, "record every property write, also of primitive values")
	return cmd
}

func serveRun(opts *serveOptions) error {
	if st, err := os.Stat(opts.Dir); err != nil {
		return err
	} else if !st.IsDir() {
		return fmt.Errorf("%s is not a directory: memtrace serve serves a web app's folder", opts.Dir)
	}
	gctune.Collector()
	c, err := collector.New(collector.Config{Out: opts.Out, Version: buildInfo().Version, Log: log.New(opts.IO.ErrOut, "memtrace serve: ", log.LstdFlags)})
	if err != nil {
		return err
	}
	s, err := serve.New(serve.Options{Dir: opts.Dir, Collector: c, DebugFun: opts.DebugFun, AllUses: opts.AllUses, AllPutFields: opts.AllPutFields,
		Log: log.New(opts.IO.ErrOut, "memtrace serve: ", log.LstdFlags)})
	if err != nil {
		c.Close()
		return err
	}
	defer s.Close()
	w := opts.IO.ErrOut
	return serveCollector(opts.ctx, opts.Listen, c, s, opts.Ready, func(addr, host string) {
		fmt.Fprintf(w, "memtrace serve: %s instrumented at http://%s/ (each page's trace goes to %s)\n", opts.Dir, host, opts.Out)
		fmt.Fprintf(w, "  status: http://%s%s?token=%s\n", host, collector.Prefix, c.Token())
	}, func() { fmt.Fprintf(w, "memtrace serve: stopping: asking pages to end their sessions\n") })
}
