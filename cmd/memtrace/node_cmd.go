package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"

	"github.com/memtrace/memtrace/internal/gctune"
	"github.com/memtrace/memtrace/internal/safefs"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

type nodeOptions struct {
	IO        *IOStreams
	Out       string
	Collector string
	Quiet     bool
	DebugFun  string
	Node      string
	// AllUses and AllPutFields select MemInsight's modes; Exclude lists
	// globs of modules that load uninstrumented.
	AllUses      bool
	AllPutFields bool
	Compact      bool
	Exclude      []string
	NodeArgs     []string // node's own options, before the script
	Script       string
	Args         []string
	exitCode     int
}

// sessionLine is the line memtrace node ends with: where the trace is, its
// status, and the command that reads it.
func sessionLine(dir string, s *noderun.Session) string {
	what := fmt.Sprintf("%s entries, %s", thousands(s.Entries), byteSize(s.Bytes))
	if n := len(s.Children); n == 1 {
		what += ", 1 child process"
	} else if n > 1 {
		what += fmt.Sprintf(", %d child processes", n)
	}
	if s.Status != "complete" {
		return fmt.Sprintf("memtrace: the trace in %s is incomplete (%s): %s; read what there is with: memtrace lifetime --format json %s", dir, what, s.Reason, shellQuote(dir))
	}
	return fmt.Sprintf("memtrace: trace in %s (complete, %s); read it with: memtrace lifetime --format json %s", dir, what, shellQuote(dir))
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,:@+=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// exitCodeError passes the program's exit status through.
type exitCodeError struct{ code int }

func (e *exitCodeError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func newCmdNode(ios *IOStreams, runF func(*nodeOptions) error) *cobra.Command {
	opts := &nodeOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "node [--out DIR | --collector URL] [--debug-fun NAME] [--all-uses] [--all-putfields] [--compact] [--exclude GLOB]... [--node-arg ARG]... SCRIPT [ARGS...]",
		Short: "Run a Node.js program with every module instrumented, and record its trace",
		Long: heredoc.Doc(`
			Run SCRIPT with Node.js, the runtime shim (the JavaScript that writes
			the trace) loaded first and every module the program loads (CommonJS
			and ES modules) instrumented on the fly, except modules instrumented
			ahead of time (memtrace instrument), which load as they are. The
			program's standard streams and exit status pass through. The trace
			directory DIR (default ./memtrace-out) receives mem-trace and
			session.json (what ran, when, its exit status, the trace's size, and
			whether it is complete).

			Every node process the program starts (child_process spawn, fork, exec,
			execFile and their sync forms, also with an environment of its own) is
			traced too, each into DIR/children/<n>-<pid>/mem-trace; session.json
			lists them (pid, parent, argv, exit code or signal, status). Worker
			threads are traced the same way, into
			DIR/children/<n>-<pid>-t<threadId>/mem-trace (a worker stopped by
			terminate() is recorded as incomplete).

			--compact writes a smaller trace, from which the lifetime engine
			(memtrace's or MemInsight's) computes the same lifetimes at the same
			sites and locations. By default the end of every statement is written,
			a point where the engine reclaims what nothing refers to any more;
			--compact leaves out the ones after which no object can have become
			unreachable, and writes a function's variables that hold primitive
			values only when something may look them up. Only logical times (the
			count of entries so far) differ from MemInsight's own traces. 'memtrace
			trace compact' does the same to a finished trace.

			Read the trace with memtrace lifetime --format json DIR, as the last
			line printed says.

			With --collector URL the trace streams to a collector (memtrace
			collect, on this machine or another) instead of DIR: each node process
			of the program is a session there, with the same bytes the file would
			hold. The URL is the one memtrace collect prints, its token included
			(or MEMTRACE_TOKEN). At the end the process waits for the collector's
			acknowledgement of the whole trace, at most MEMTRACE_COLLECTOR_WAIT
			seconds (default 30).

			Flags for memtrace come before SCRIPT; everything after SCRIPT goes to
			the program. Node's own options go with --node-arg, one per flag
			(--node-arg=--max-old-space-size=8192 --node-arg=--expose-gc); they
			apply to the main process (node processes the program starts take
			the options they are given). NODE_OPTIONS passes through.
		`),
		Example: examples(`
			$ memtrace node --out out app.js --port 8080
			$ memtrace node --collector 'ws://10.0.0.5:8080/?token=...' server.js
			$ memtrace node --exclude 'node_modules' --exclude '!node_modules/mylib' app.js
			$ memtrace node --node-arg=--expose-gc --node-arg=--max-old-space-size=8192 app.js
			$ memtrace lifetime --format json out
		`),
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Script, opts.Args = args[0], args[1:]
			if opts.Collector != "" && cmd.Flags().Changed("out") {
				return &FlagError{err: errors.New("--out and --collector cannot be used together: the trace goes to one place")}
			}
			if opts.Collector != "" && !strings.HasPrefix(opts.Collector, "ws://") && !strings.HasPrefix(opts.Collector, "wss://") {
				return &FlagError{err: fmt.Errorf("--collector %s: a websocket address (ws://HOST:PORT/?token=... or wss://...)", opts.Collector)}
			}
			if runF != nil {
				return runF(opts)
			}
			return nodeRun(opts)
		},
	}
	cmd.Flags().SetInterspersed(false)
	cmd.Flags().StringVar(&opts.Out, "out", "memtrace-out", "the trace `DIR` (new, empty, or an earlier memtrace node's)")
	cmd.Flags().StringVar(&opts.Collector, "collector", "", "stream the trace to the collector at `URL` (memtrace collect prints it, token included) instead of writing DIR")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "print no line at the end about the trace")
	cmd.Flags().StringVar(&opts.DebugFun, "debug-fun", "", "mark each call to the function `NAME` in the trace: memtrace lifetime --format meminsight prints reference counts there (MemInsight's tests call jalangiRC)")
	cmd.Flags().StringVar(&opts.Node, "node", "node", "the node `BINARY`")
	addModeFlags(cmd, &opts.AllUses, &opts.AllPutFields)
	cmd.Flags().BoolVar(&opts.Compact, "compact", false, "write a smaller trace that gives the same lifetimes: statement ends after which nothing can have become unreachable, and declarations nothing looks up, left out")
	cmd.Flags().StringArrayVar(&opts.Exclude, "exclude", nil, "load modules whose path (relative to the working directory) matches `GLOB` uninstrumented (repeatable; a later !GLOB re-includes)")
	cmd.Flags().StringArrayVar(&opts.NodeArgs, "node-arg", nil, "pass `ARG` to node before the script (repeatable: --node-arg=--expose-gc)")
	return cmd
}

func nodeRun(opts *nodeOptions) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var sess noderun.Session
	code, err := noderun.Run(noderun.Options{
		Script: opts.Script, Args: opts.Args, OutDir: opts.Out, DebugFun: opts.DebugFun,
		AllUses: opts.AllUses, AllPutFields: opts.AllPutFields, Compact: opts.Compact, Exclude: opts.Exclude,
		Node: opts.Node, NodeArgs: opts.NodeArgs, Memtrace: memtraceBinary(self), Shim: runtimeshim.Source(),
		Version: buildInfo().Version, ShimVer: runtimeshim.Version,
		Stdin: opts.IO.In, Stdout: opts.IO.Out, Stderr: opts.IO.ErrOut, Session: &sess,
		Collector: opts.Collector,
	})
	var serr *noderun.SessionError
	var werr *safefs.InTheWayError
	switch {
	case errors.As(err, &werr):
		return fmt.Errorf("%s holds %s, which memtrace did not write: give --out a new or empty directory (memtrace node writes over nothing it did not write)", werr.Dir, werr.File)
	case errors.As(err, &serr):
		// The program ran; its exit status stands.
		fmt.Fprintf(opts.IO.ErrOut, "memtrace: %v\n", err)
	case err != nil:
		return err
	case !opts.Quiet && opts.Collector != "":
		fmt.Fprintln(opts.IO.ErrOut, collectedLine(opts.Collector, &sess))
	case !opts.Quiet:
		fmt.Fprintln(opts.IO.ErrOut, sessionLine(opts.Out, &sess))
	}
	opts.exitCode = code
	if code != 0 {
		return &exitCodeError{code}
	}
	return nil
}

// collectedLine is the last line of a run streamed to a collector.
func collectedLine(url string, s *noderun.Session) string {
	if i := strings.Index(url, "?"); i >= 0 {
		url = url[:i] // no token on the screen
	}
	if s.Collector == "" {
		return fmt.Sprintf("memtrace: the trace did not reach the collector at %s: %s", url, s.Reason)
	}
	line := fmt.Sprintf("memtrace: trace streamed to the collector at %s, session %s (%s)", url, s.Collector, s.Status)
	if s.Reason != "" {
		line += ": " + s.Reason
	}
	return line
}

// memtraceBinary is the memtrace executable the Node preload calls to
// instrument modules. Tests run inside a test binary, which is not
// memtrace: they set MEMTRACE_TEST_BIN to a built memtrace.
func memtraceBinary(self string) string {
	if b := os.Getenv("MEMTRACE_TEST_BIN"); b != "" {
		return b
	}
	return self
}

// newCmdInstrumentServer is the long-lived instrumenter that `memtrace
// node`'s preload and ES module loader start (noderun.Serve): hidden, not
// for people.
//
// With --fifo DIR it serves the runtime shim instead (run-time code of an
// instrumented file run by plain node, noderun/fifo_unix.go): it makes two
// FIFOs in DIR and starts a server on them (--fifo-serve DIR), which ends
// when the program closes its ends or after --idle-ms without a request.
func newCmdInstrumentServer(ios *IOStreams) *cobra.Command {
	var opts noderun.ServerOptions
	var fifo, fifoServe string
	var idleMs int64
	cmd := &cobra.Command{
		Use:    "instrument-server [--all-uses] [--all-putfields] [--exclude GLOB]... [--fifo DIR [--idle-ms N]]",
		Short:  "Answer instrumentation requests on standard input (used by memtrace node)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("idle-ms") && fifo == "" && fifoServe == "" {
				return fmt.Errorf("--idle-ms is for a server on FIFOs (--fifo)")
			}
			if idleMs < 0 {
				return fmt.Errorf("--idle-ms %d: not a duration (0: no limit)", idleMs)
			}
			idle := time.Duration(idleMs) * time.Millisecond
			if fifo != "" {
				self, err := os.Executable()
				if err != nil {
					return err
				}
				var pass []string
				if opts.AllUses {
					pass = append(pass, "--all-uses")
				}
				if opts.AllPutFields {
					pass = append(pass, "--all-putfields")
				}
				for _, g := range opts.Exclude {
					pass = append(pass, "--exclude", g)
				}
				return noderun.LaunchFIFO(self, fifo, idle, pass)
			}
			gctune.Instrumenter()
			if fifoServe != "" {
				return noderun.ServeFIFO(fifoServe, idle, opts)
			}
			return noderun.Serve(ios.In, ios.Out, opts)
		},
	}
	addModeFlags(cmd, &opts.AllUses, &opts.AllPutFields)
	cmd.Flags().StringArrayVar(&opts.Exclude, "exclude", nil, "leave modules whose name matches `GLOB` unchanged")
	cmd.Flags().StringVar(&fifo, "fifo", "", "make the request and answer FIFOs in `DIR` (private, the caller's) and start a server on them")
	cmd.Flags().StringVar(&fifoServe, "fifo-serve", "", "serve the FIFOs in `DIR` (started by --fifo)")
	cmd.Flags().Int64Var(&idleMs, "idle-ms", 0, "with --fifo, end after `N` ms without a request (0: when the program closes its end)")
	cmd.MarkFlagsMutuallyExclusive("fifo", "fifo-serve")
	return cmd
}
