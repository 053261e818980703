package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/glob"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

type instrumentOptions struct {
	IO       *IOStreams
	Input    string
	Output   string
	Goal     string
	Loader   string
	Path     string
	Name     string
	NoShim   bool
	DebugFun string
	Eval     bool
	// AllUses and AllPutFields select MemInsight's modes.
	AllUses      bool
	AllPutFields bool
	// Exclude lists glob patterns (internal/glob); a file whose name
	// matches is copied unchanged.
	Exclude []string
	// Strict: --eval code that a strict direct eval runs.
	Strict bool
}

func newCmdInstrument(ios *IOStreams, runF func(*instrumentOptions) error) *cobra.Command {
	opts := &instrumentOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "instrument [--goal G] [--loader L] [--name NAME] [-o OUT] FILE",
		Short: "Rewrite a JavaScript or TypeScript file so that running it writes a memory trace",
		Long: heredoc.Doc(`
			Instrument one JavaScript file: hook calls are spliced into the original
			text (comments, formatting and line numbers survive), and the runtime
			shim is put in front of it (after any hashbang and directives), so the
			result runs under plain node and writes its trace to the file
			MEMTRACE_OUT names (default ./mem-trace). See docs/instrumentation.md.

			The goal defaults from the file as for 'memtrace parse'. --name sets the
			script name recorded in the trace (default: the path as given).

			TypeScript, TSX and JSX (.ts, .mts, .cts, .tsx, .jsx, or --loader) are
			turned into JavaScript by esbuild first (types and JSX removed, nothing
			else lowered, the nearest tsconfig.json honoured); the output is the
			instrumented JavaScript, and the sites in the trace point into the
			original file. .mts is a module, .cts CommonJS, and .ts, .tsx and .jsx
			follow package.json like .js. For standard input, --path names the file
			the text comes from (for its loader, goal and tsconfig.json).
			Instrumenting instrumented code changes nothing. A syntax error is
			reported as FILE:LINE:COL with a code frame, exit status 1, and no
			output is written.
		`),
		Example: heredoc.Doc(`
			$ memtrace instrument app.js -o app.inst.js
			$ memtrace instrument src/main.ts -o main.inst.js
			$ memtrace instrument --loader tsx --name view.tsx - < view.tsx
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
			if opts.Loader != "" {
				if _, ok := instrument.ParseLoader(opts.Loader); !ok {
					return flagErrorf("unknown --loader %q (choose js, ts, tsx or jsx)", opts.Loader)
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
	cmd.Flags().StringVar(&opts.Loader, "loader", "", "the language: `L` is js, ts, tsx or jsx (default: from the file's extension)")
	cmd.Flags().StringVar(&opts.Path, "path", "", "with FILE -, the `PATH` the text comes from: its extension, package.json and tsconfig.json decide loader, goal and compiler options")
	cmd.Flags().StringVar(&opts.Name, "name", "", "the script's `NAME` in the trace (default: the path)")
	cmd.Flags().BoolVar(&opts.NoShim, "no-shim", false, "do not put the runtime shim in front (it is loaded some other way)")
	cmd.Flags().BoolVar(&opts.Eval, "eval", false, "the code runs through eval or new Function: keep its completion value; implies --goal script and --no-shim (the runtime shim calls this)")
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "parse the code as strict code without a \"use strict\" directive (direct eval code called from strict code)")
	cmd.Flags().StringVar(&opts.DebugFun, "debug-fun", "", "calls to the function `NAME` emit DEBUG entries (MemInsight's tests use jalangiRC)")
	addModeFlags(cmd, &opts.AllUses, &opts.AllPutFields)
	cmd.Flags().StringArrayVar(&opts.Exclude, "exclude", nil, "copy the file unchanged when its name (--name, else the path) matches `GLOB` (repeatable; a later !GLOB re-includes; see docs/instrumentation.md)")
	return cmd
}

// addModeFlags adds MemInsight's all-uses and all-putfields modes.
func addModeFlags(cmd *cobra.Command, allUses, allPutFields *bool) {
	cmd.Flags().BoolVar(allUses, "all-uses", false, "write every use of an object as a LAST_USE at once, and log the uses normal mode leaves out (spread, for-in/of, in, instanceof)")
	cmd.Flags().BoolVar(allPutFields, "all-putfields", false, "log every property write, also primitive over primitive (no PUTFIELD elision)")
}

func instrumentRun(opts *instrumentOptions) error {
	ios := opts.IO
	name, src, goal, err := readJS(ios, opts.Input, opts.Goal)
	if err != nil {
		return err
	}
	path := opts.Input
	if opts.Input == "-" {
		path = opts.Path
		if path != "" && opts.Goal == "" {
			goal = js.GoalOf(path)
		}
	}
	loader := instrument.LoaderOf(path)
	if opts.Loader != "" {
		loader, _ = instrument.ParseLoader(opts.Loader)
	}
	var tsconfig string
	if loader != instrument.JS && path != "" {
		_, tsconfig = instrument.FindTsconfig(path)
	}
	if opts.Eval {
		goal, opts.NoShim, loader = js.Script, true, instrument.JS
	}
	scriptName := opts.Name
	if scriptName == "" {
		scriptName = name
	}
	if len(opts.Exclude) > 0 {
		excl, err := glob.Excludes(opts.Exclude)
		if err != nil {
			return flagErrorf("--exclude: %v", err)
		}
		if !excl.Match(scriptName) {
			return writeOutput(ios, opts.Output, src)
		}
	}
	res, err := instrument.Instrument(src, instrument.Options{Goal: goal, File: scriptName, DebugFun: opts.DebugFun, Eval: opts.Eval,
		Loader: loader, Tsconfig: tsconfig, AllUses: opts.AllUses, AllPutFields: opts.AllPutFields, Strict: opts.Strict})
	if err != nil {
		if rerr := renderJSError(ios, err); rerr != err {
			return rerr
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	out := res.Code
	if !opts.NoShim && !res.Unchanged {
		orig := src
		if res.JS != nil { // what Code instruments
			orig = res.JS
		}
		out = withShim(orig, res.Code, goal)
	}
	return writeOutput(ios, opts.Output, out)
}

// writeOutput writes out to the file output, or to standard output when
// output is "".
func writeOutput(ios *IOStreams, output string, out []byte) error {
	if output == "" {
		_, err := ios.Out.Write(out)
		return err
	}
	if dir := filepath.Dir(output); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return writeFileAtomic(output, out)
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
