package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

type instrumentOptions struct {
	IO       *IOStreams
	Input    string
	Output   string
	Goal     string
	Name     string
	NoShim   bool
	DebugFun string
	Eval     bool
	Strict   bool
}

func newCmdInstrument(ios *IOStreams, runF func(*instrumentOptions) error) *cobra.Command {
	opts := &instrumentOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "instrument [--goal G] [--name NAME] [-o OUT] FILE",
		Short: "Rewrite a JavaScript file so that running it writes a memory trace",
		Long: heredoc.Doc(`
			Instrument one JavaScript file: hook calls are spliced into the original
			text (comments, formatting and line numbers survive), and the runtime
			shim is put in front of it (after any hashbang and directives), so the
			result runs under plain node and writes its trace to the file
			MEMTRACE_OUT names (default ./mem-trace). See docs/instrumentation.md.

			The goal defaults from the file as for 'memtrace parse'. --name sets the
			script name recorded in the trace (default: the path as given).
			Instrumenting instrumented code changes nothing. A syntax error is
			reported as FILE:LINE:COL with a code frame, exit status 1, and no
			output is written.
		`),
		Example: heredoc.Doc(`
			$ memtrace instrument app.js -o app.inst.js
			$ MEMTRACE_OUT=out/mem-trace node app.inst.js
			$ memtrace trace check out/mem-trace
		`),
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Input = args[0]
			if opts.Goal != "" {
				if _, ok := js.ParseGoal(opts.Goal); !ok {
					return flagErrorf("unknown --goal %q (choose script, module or commonjs)", opts.Goal)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return instrumentRun(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write to `FILE` (default: standard output)")
	cmd.Flags().StringVar(&opts.Goal, "goal", "", "parse as `GOAL`: script, module or commonjs (default: from the file)")
	cmd.Flags().StringVar(&opts.Name, "name", "", "the script's `NAME` in the trace (default: the path)")
	cmd.Flags().BoolVar(&opts.NoShim, "no-shim", false, "do not put the runtime shim in front (it is loaded some other way)")
	cmd.Flags().BoolVar(&opts.Eval, "eval", false, "the code runs through eval or new Function: keep its completion value; implies --goal script and --no-shim (the runtime shim calls this)")
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "parse the code as strict code without a \"use strict\" directive (direct eval code called from strict code)")
	cmd.Flags().StringVar(&opts.DebugFun, "debug-fun", "", "calls to the function `NAME` emit DEBUG entries (MemInsight's tests use jalangiRC)")
	return cmd
}

func instrumentRun(opts *instrumentOptions) error {
	ios := opts.IO
	name, src, goal, err := readJS(ios, opts.Input, opts.Goal)
	if err != nil {
		return err
	}
	if opts.Eval {
		goal, opts.NoShim = js.Script, true
	}
	scriptName := opts.Name
	if scriptName == "" {
		scriptName = name
	}
	res, err := instrument.Instrument(src, instrument.Options{Goal: goal, File: scriptName, DebugFun: opts.DebugFun, Eval: opts.Eval, Strict: opts.Strict})
	if err != nil {
		if rerr := renderJSError(ios, err); rerr != err {
			return rerr
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	out := res.Code
	if !opts.NoShim && !res.Unchanged {
		out = withShim(src, res.Code, goal)
	}
	if opts.Output == "" {
		_, err := ios.Out.Write(out)
		return err
	}
	if dir := filepath.Dir(opts.Output); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return writeFileAtomic(opts.Output, out)
}

// withShim puts the runtime shim into instrumented code where the
// instrumenter put its prologue: after the hashbang line and the directive
// prologue, which must stay first (a "use strict" moved down would stop
// being a directive). The instrumenter inserts nothing before that point,
// so its offset in the original source is its offset in the output.
func withShim(orig, code []byte, goal js.Goal) []byte {
	at := 0
	if prog, err := js.Parse(orig, js.Options{Goal: goal}); err == nil {
		if prog.Hashbang != "" || len(orig) >= 2 && orig[0] == '#' && orig[1] == '!' {
			for at < len(orig) && orig[at] != '\n' && orig[at] != '\r' {
				at++
			}
		}
		for _, st := range prog.Body {
			es, ok := st.(*js.ExprStmt)
			if !ok || es.Directive == "" {
				break
			}
			at = int(es.EndPos())
		}
	}
	shim := runtimeshim.Source()
	out := make([]byte, 0, len(code)+len(shim)+2)
	out = append(out, code[:at]...)
	if at > 0 {
		out = append(out, '\n')
	}
	out = append(out, shim...)
	if len(shim) > 0 && shim[len(shim)-1] != '\n' {
		out = append(out, '\n')
	}
	return append(out, code[at:]...)
}
