package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/internal/gctune"
)

type collectOptions struct {
	IO     *IOStreams
	Listen string
	Config collector.Config
	// EngineCmd is --engine-cmd as given (split on spaces).
	EngineCmd string
	// Ready, if set, receives the address once the collector listens
	// (tests); ctx, if set, ends it (tests: the signal's stand-in).
	Ready chan<- string
	ctx   context.Context
}

func newCmdCollect(ios *IOStreams, runF func(*collectOptions) error) *cobra.Command {
	opts := &collectOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "collect [--listen ADDR] [--out DIR] [--open] [--fsync] [--engine builtin | --engine-cmd CMD]",
		Short: "Receive traces over websockets from pages and Node processes",
		Long: heredoc.Doc(`
			Listen for traces (docs/protocol.md) and write one trace directory per
			session under DIR (default ./memtrace-traces): mem-trace, session.json
			(status complete or incomplete, and why), scripts/ with the original
			sources the client sends. Any number of sessions stream at once; each
			chunk is checked and written before the client hears it arrived, so a
			client that loses its connection resumes with no gap and no duplicate,
			also after the collector is killed and started again on the same DIR.

			A session needs the token printed at start (kept in DIR, readable by you
			only) unless --open is given. memtrace node --collector URL streams a
			Node program's trace here; MemInsight's browser logger delivers to the
			root path / unmodified (with --open, or ?token= in its URL).

			The status page (its address is printed) shows each session as it
			streams and how it ended; ADDR/__memtrace__/status.json is the same as
			JSON. Ctrl-C asks every client to end its session, then stops.
		`),
		Example: examples(`
			$ memtrace collect --out traces
			$ memtrace collect --listen 0.0.0.0:8080 --fsync --engine builtin
			$ memtrace collect --open --engine-cmd 'lifetime-analysis --staleness'
		`),
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.EngineCmd != "" && opts.Config.Engine != "" {
				return &FlagError{err: errors.New("--engine and --engine-cmd cannot be used together")}
			}
			if opts.EngineCmd != "" {
				opts.Config.EngineCmd = strings.Fields(opts.EngineCmd)
			}
			if opts.Config.Engine != "" && opts.Config.Engine != "builtin" {
				return &FlagError{err: fmt.Errorf("--engine %q: the engine built in is builtin (another engine: --engine-cmd)", opts.Config.Engine)}
			}
			if runF != nil {
				return runF(opts)
			}
			return collectRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Listen, "listen", "127.0.0.1:8080", "the `ADDR` to listen on (host:port; 0.0.0.0:PORT for the LAN)")
	f.StringVar(&opts.Config.Out, "out", "memtrace-traces", "the `DIR` of the sessions (new, empty, or an earlier memtrace collect's)")
	f.BoolVar(&opts.Config.Open, "open", false, "accept sessions without the token")
	f.StringVar(&opts.Config.Token, "token", "", "the token sessions must present (default: the one kept in DIR, or a new one)")
	f.StringSliceVar(&opts.Config.AllowOrigins, "allow-origin", nil, "a browser `ORIGIN` (https://host:port) allowed besides the collector's own, or *")
	f.BoolVar(&opts.Config.Fsync, "fsync", false, "sync each chunk to the disk before acknowledging it (survives a power cut)")
	f.StringVar(&opts.Config.Engine, "engine", "", "run the lifetime engine on each session as it streams (builtin): summary.json beside its trace")
	f.StringVar(&opts.EngineCmd, "engine-cmd", "", "start `CMD` per session with the trace on its standard input (output: engine.out)")
	f.IntVar(&opts.Config.MaxFrame, "max-frame", 4<<20, "the largest message in `BYTES`")
	f.Int64Var(&opts.Config.MaxSession, "max-session", 1<<40, "the largest trace of a session in `BYTES`")
	f.IntVar(&opts.Config.MaxConns, "max-conns", 256, "the most connections open at once")
	f.DurationVar(&opts.Config.ResumeWait, "resume-wait", 60*time.Second, "how long a session whose client went away waits for it")
	f.DurationVar(&opts.Config.Heartbeat, "heartbeat", 15*time.Second, "time between pings (a client silent for three is closed)")
	f.Int64Var(&opts.Config.MinFree, "min-free", 256<<20, "free disk `BYTES` below which no chunk is written and sessions end")
	return cmd
}

func collectRun(opts *collectOptions) error {
	cfg := opts.Config
	cfg.Version = buildInfo().Version
	cfg.Log = log.New(opts.IO.ErrOut, "memtrace collect: ", log.LstdFlags)
	gctune.Collector()
	c, err := collector.New(cfg)
	if err != nil {
		return err
	}
	w := opts.IO.ErrOut
	return serveCollector(opts.ctx, opts.Listen, c, c, opts.Ready, func(addr, host string) {
		fmt.Fprintf(w, "memtrace collect: listening on %s, writing sessions to %s\n", addr, cfg.Out)
		q := "?token=" + c.Token()
		if cfg.Open {
			q = ""
			fmt.Fprintf(w, "  open: sessions need no token\n")
		} else {
			fmt.Fprintf(w, "  token: %s\n", c.Token())
		}
		fmt.Fprintf(w, "  status: http://%s%s%s\n", host, collector.Prefix, q)
		fmt.Fprintf(w, "  a Node program: memtrace node --collector 'ws://%s/%s' app.js\n", host, q)
	}, func() { fmt.Fprintf(w, "memtrace collect: stopping: asking clients to end their sessions\n") })
}

// serveCollector serves h (which mounts the collector c) on listen until
// ctx ends (nil: SIGINT or SIGTERM), then asks c's clients to end their
// sessions and waits up to 10 s for them. banner prints the addresses
// (addr as listened on, host as a browser on this machine dials it);
// ready, if set, receives addr (tests); stopping says the stop.
func serveCollector(ctx context.Context, listen string, c *collector.Collector, h http.Handler, ready chan<- string, banner func(addr, host string), stopping func()) error {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		c.Close()
		return err
	}
	addr := ln.Addr().String()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	host := addr
	if hh, p, err := net.SplitHostPort(addr); err == nil && (hh == "0.0.0.0" || hh == "::") {
		host = net.JoinHostPort("127.0.0.1", p)
	}
	banner(addr, host)
	if ready != nil {
		ready <- addr
	}
	if ctx == nil {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	select {
	case <-ctx.Done():
	case err := <-served:
		c.Close()
		return err
	}
	stopping()
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = c.Shutdown(sctx)
	srv.Close()
	return err
}
