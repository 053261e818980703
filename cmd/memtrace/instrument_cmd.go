package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/gctune"
	"github.com/memtrace/memtrace/internal/glob"
	"github.com/memtrace/memtrace/project"
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
	// Rules are the --include and --exclude globs in command-line order
	// (internal/glob): a file they exclude is copied unchanged.
	Rules []project.Rule
	// Strict: DIR only, a file that cannot be instrumented fails the run.
	Strict bool
	// StrictCode: FILE only, parse as strict code without a directive
	// (the --eval code of a strict direct eval).
	StrictCode bool
	// GlobalCode: FILE only, with --eval: the code runs as a script of its
	// own (a string timer), not in an eval's scope.
	GlobalCode bool
	// Directory mode (project.Options).
	NodeModules bool
	Cache       string
	NoCache     bool
	Jobs        int
	Quiet       bool
	// Web and Node force a directory's kind (default: a web app when it
	// has HTML pages at its root and no package.json there); Collector is
	// the collector the web app's pages deliver to.
	Web, Node bool
	Collector string
}

// ruleFlag appends --include or --exclude patterns to one ordered list.
type ruleFlag struct {
	rules   *[]project.Rule
	include bool
}

func (f ruleFlag) String() string { return "" }
func (f ruleFlag) Type() string   { return "stringArray" }
func (f ruleFlag) Set(v string) error {
	*f.rules = append(*f.rules, project.Rule{Pattern: v, Include: f.include})
	return nil
}

func newCmdInstrument(ios *IOStreams, runF func(*instrumentOptions) error) *cobra.Command {
	opts := &instrumentOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "instrument [--goal G] [--loader L] [--name NAME] [-o OUT] FILE|DIR",
		Short: "Rewrite a JavaScript or TypeScript file, or a whole project, so that running it writes a memory trace",
		Long: heredoc.Doc(`
			Instrument one JavaScript file: hook calls are spliced into the original
			text (comments, formatting and line numbers survive), and the runtime
			shim (the JavaScript that writes the trace) is put in front of it (after
			any hashbang and directives), so the result runs under plain node and
			writes its trace to the file MEMTRACE_OUT names (default ./mem-trace).
			See docs/instrumentation.md. To trace a program without a copy of its
			code, use memtrace node.

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

			With a directory DIR, the whole tree is written to OUT (-o OUT is
			required; never inside DIR, nor containing it): every .js, .mjs, .cjs,
			.ts, .mts, .cts, .tsx and .jsx file is instrumented, in parallel on all
			cores, everything else copied with its permissions (symbolic links are
			recreated: into the tree, relative; out of it, as they were). Goals
			come from the extension and the nearest package.json's "type" (no
			package.json: CommonJS, as Node runs it). TypeScript, TSX and JSX
			become JavaScript Node can load: x.ts, x.tsx and x.jsx become x.js, x.mts
			x.mjs, x.cts x.cjs (import specifiers are not rewritten); declaration
			files are copied. The runtime shim goes once into OUT/.memtrace-shim.cjs,
			which each file loads when globalThis.__mt is missing, so OUT runs under
			plain node and under 'memtrace node' alike. Script names in the trace are
			paths relative to DIR. --include and --exclude globs (matched against
			paths relative to DIR, in order, the last match wins, !GLOB negates; a
			first --include makes the default "not instrumented") choose the files;
			node_modules is copied but not instrumented unless --node-modules. A file
			that cannot be instrumented is reported as FILE:LINE:COL with a code
			frame and copied unchanged (with --strict: not copied, exit 1). Results
			are cached by content, options and memtrace version (--cache, default
			under the user cache directory, bounded to 1 GB, safe to delete), so a
			second run is nearly free. A summary goes to standard error.
		`),
		Example: examples(`
			$ memtrace instrument app.js -o app.inst.js
			$ memtrace instrument src/main.ts -o main.inst.js
			$ memtrace instrument --loader tsx --name view.tsx - < view.tsx
			$ MEMTRACE_OUT=out/mem-trace node app.inst.js
			$ memtrace trace check out/mem-trace
			$ memtrace instrument myapp -o myapp.inst --exclude 'test/**'
			$ memtrace instrument myapp -o myapp.inst --node-modules --exclude 'node_modules/typescript'
		`),
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Input = args[0]
			if fi, err := os.Stat(opts.Input); err == nil && fi.IsDir() {
				if opts.Output == "" || opts.Output == "-" {
					return flagErrorf("instrumenting the directory %s needs an output directory: -o OUT", opts.Input)
				}
				for _, f := range []string{"goal", "loader", "path", "name", "no-shim", "eval", "strict-code", "global-code"} {
					if cmd.Flags().Changed(f) {
						return flagErrorf("--%s is for one FILE, not a directory", f)
					}
				}
				if opts.Web && opts.Node {
					return flagErrorf("--web and --node exclude each other")
				}
				if opts.Collector != "" && opts.Node {
					return flagErrorf("--collector is for a web app's pages (a Node program takes MEMTRACE_COLLECTOR when it runs)")
				}
				if runF != nil {
					return runF(opts)
				}
				return instrumentDirRun(opts)
			}
			for _, f := range []string{"node-modules", "cache", "no-cache", "jobs", "quiet", "strict", "web", "node", "collector"} {
				if cmd.Flags().Changed(f) {
					return flagErrorf("--%s is for a directory, not one FILE", f)
				}
			}
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
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write to `FILE` (default, or -: standard output)")
	cmd.Flags().StringVar(&opts.Goal, "goal", "", "parse as `GOAL`: script, module or commonjs (default: from the file)")
	cmd.Flags().StringVar(&opts.Loader, "loader", "", "the language: `L` is js, ts, tsx or jsx (default: from the file's extension)")
	cmd.Flags().StringVar(&opts.Path, "path", "", "with FILE -, the `PATH` the text comes from: its extension, package.json and tsconfig.json decide loader, goal and compiler options")
	cmd.Flags().StringVar(&opts.Name, "name", "", "the script's `NAME` in the trace (default: the path)")
	cmd.Flags().BoolVar(&opts.NoShim, "no-shim", false, "do not put the runtime shim in front (it is loaded some other way)")
	cmd.Flags().BoolVar(&opts.Eval, "eval", false, "the code runs through eval or new Function: keep its completion value; implies --goal script and --no-shim (the runtime shim calls this)")
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "DIR: a file that cannot be instrumented is not copied and the exit status is 1")
	cmd.Flags().BoolVar(&opts.GlobalCode, "global-code", false, "with --eval: the code runs as a script of its own (a string timer), not in an eval's scope, so its script handle gets a name unique to it (the runtime shim passes it)")
	cmd.Flags().BoolVar(&opts.StrictCode, "strict-code", false, "parse the code as strict code without a \"use strict\" directive (the code of a direct eval in strict code; the runtime shim passes it with --eval)")
	cmd.Flags().StringVar(&opts.DebugFun, "debug-fun", "", "mark each call to the function `NAME` in the trace: memtrace lifetime --format meminsight prints reference counts there (MemInsight's tests call jalangiRC)")
	addModeFlags(cmd, &opts.AllUses, &opts.AllPutFields)
	cmd.Flags().Var(ruleFlag{&opts.Rules, false}, "exclude", "copy the file unchanged when its name (DIR: its path in DIR; FILE: --name, else the path) matches `GLOB` (repeatable; !GLOB re-includes; the last matching --include or --exclude wins; see docs/instrumentation.md)")
	cmd.Flags().Var(ruleFlag{&opts.Rules, true}, "include", "instrument the files whose name matches `GLOB` (repeatable; !GLOB excludes; a first --include makes the others copied unchanged)")
	cmd.Flags().BoolVar(&opts.NodeModules, "node-modules", false, "DIR: instrument node_modules too (by default it is copied unchanged)")
	cmd.Flags().StringVar(&opts.Cache, "cache", "", "DIR: keep instrumented files in the cache `CACHEDIR` (default: memtrace in the user cache directory)")
	cmd.Flags().BoolVar(&opts.NoCache, "no-cache", false, "DIR: neither read nor write the cache")
	cmd.Flags().IntVarP(&opts.Jobs, "jobs", "j", 0, "DIR: instrument `N` files at a time (default: the number of CPUs)")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "DIR: no progress bar and no summary (failures are still reported)")
	cmd.Flags().BoolVar(&opts.Web, "web", false, "DIR is a web app (a built dist/): rewrite its HTML pages, instrument its scripts for the browser (default when DIR has HTML pages at its root and no package.json)")
	cmd.Flags().BoolVar(&opts.Node, "node", false, "DIR is a Node program, whatever HTML it holds")
	cmd.Flags().StringVar(&opts.Collector, "collector", "", "a web app's pages deliver their traces to the collector at `URL` (as memtrace collect prints it; default: the page's own origin, /__memtrace__/)")
	return cmd
}

// addModeFlags adds MemInsight's all-uses and all-putfields modes.
func addModeFlags(cmd *cobra.Command, allUses, allPutFields *bool) {
	cmd.Flags().BoolVar(allUses, "all-uses", false, "record every use of an object when it happens, also the uses left out by default (spread, for-in/of, in, instanceof); by default the trace gets each object's latest use, in batches")
	cmd.Flags().BoolVar(allPutFields, "all-putfields", false, "record every property write, also a primitive value written over a primitive one, which by default is left out (it changes no reference between objects)")
}

func instrumentRun(opts *instrumentOptions) error {
	gctune.Instrumenter()
	ios := opts.IO
	name, src, goal, byText, err := readJS(ios, opts.Input, opts.Goal)
	if err != nil {
		return err
	}
	path := opts.Input
	if opts.Input == "-" {
		path = opts.Path
		if path != "" && opts.Goal == "" {
			goal, byText = js.FileGoal(path)
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
	if opts.GlobalCode && !opts.Eval {
		return flagErrorf("--global-code is for run-time code: it needs --eval")
	}
	if opts.Eval {
		goal, opts.NoShim, loader = js.Script, true, instrument.JS
	}
	scriptName := opts.Name
	if scriptName == "" {
		scriptName = name
	}
	if len(opts.Rules) > 0 {
		list := glob.NewList(!opts.Rules[0].Include)
		for _, r := range opts.Rules {
			if err := list.Add(r.Pattern, r.Include); err != nil {
				return flagErrorf("--exclude/--include %q: %v", r.Pattern, err)
			}
		}
		if !list.Match(scriptName) {
			return writeOutput(ios, opts.Output, src)
		}
	}
	iopts := instrument.Options{Goal: goal, File: scriptName, DebugFun: opts.DebugFun, Eval: opts.Eval,
		Loader: loader, Tsconfig: tsconfig, AllUses: opts.AllUses, AllPutFields: opts.AllPutFields, Strict: opts.StrictCode, GlobalCode: opts.Eval && opts.GlobalCode}
	res, err := instrument.Instrument(src, iopts)
	if err != nil && byText && !opts.Eval && loader == instrument.JS {
		// Node runs it as a module if it parses as one (js.FileGoal).
		iopts.Goal = js.Module
		if mres, merr := instrument.Instrument(src, iopts); merr == nil {
			res, goal, err = mres, js.Module, nil
		}
	}
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
// output is "" or "-".
func writeOutput(ios *IOStreams, output string, out []byte) error {
	if output == "" || output == "-" {
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
// so its offset in the original source is its offset in the output. The
// shim goes in as one statement on that line, evaluated from a string
// (runtimeshim.EvalLiteral): the file keeps its line numbers, and the shim
// stays sloppy code after a "use strict".
func withShim(orig, code []byte, goal js.Goal) []byte {
	at := 0
	if prog, err := js.Parse(orig, js.Options{Goal: goal}); err == nil {
		if prog.Hashbang != "" || len(orig) >= 2 && orig[0] == '#' && orig[1] == '!' {
			for at < len(orig) && orig[at] != '\n' && orig[at] != '\r' {
				at++
			}
			// The statement begins the next line: a hashbang ends at its
			// line's end.
			if at < len(orig) && orig[at] == '\r' {
				at++
			}
			if at < len(orig) && orig[at] == '\n' {
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
	lit := runtimeshim.EvalLiteral()
	out := make([]byte, 0, len(code)+len(lit)+40)
	out = append(out, code[:at]...)
	// The shim's text runs as the body of a function made by the Function
	// constructor, reached from an object literal: the file's own
	// bindings cannot shadow it, as they can shadow eval (a let eval in
	// its temporal dead zone, a function eval that replaced the global).
	out = append(out, ";if(!globalThis.__mt)({}).constructor.constructor("...)
	out = append(out, lit...)
	out = append(out, ")();"...)
	return append(out, code[at:]...)
}
