package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"

	"github.com/memtrace/memtrace/instrument/diag"
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/instrument/scope"
)

type parseOptions struct {
	IO     *IOStreams
	File   string
	Goal   string
	Spans  bool
	Scopes bool
	JSON   bool
}

func newCmdParse(ios *IOStreams, runF func(*parseOptions) error) *cobra.Command {
	opts := &parseOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "parse [--goal script|module|commonjs] [--spans] [--scopes] FILE",
		Short: "Check that a JavaScript file parses; print its syntax tree spans or scopes",
		Long: heredoc.Doc(`
			Parse a JavaScript file with memtrace's own front end (the parser the
			instrumenter uses) and report the first syntax error as
			FILE:LINE:COL: error: MESSAGE with a code frame (exit status 1).
			Columns count UTF-16 code units, as V8 and source maps do.

			The goal defaults from the file: .mjs is a module, .cjs is CommonJS, and
			a .js file follows the "type" of the nearest package.json (CommonJS
			unless "module"); a .js file outside any package, or standard input, is
			a classic script. As Node does, a .js file whose package.json names no
			"type" (or that has none) is a module when it does not parse as CommonJS
			(a script) but does as a module: import or export declarations,
			import.meta, top-level await. CommonJS files parse as function bodies,
			so a top-level return is legal.

			--spans prints every syntax node: its kind, byte range and line:col
			range, indented by depth. --scopes prints every function with the names
			it takes from outside itself (free: including globals; captured: from
			enclosing functions) and what it uses (this, arguments, super,
			new.target, direct eval, with). --json prints either as JSON.
		`),
		Example: examples(`
			$ memtrace parse app.js
			$ memtrace parse --goal module --scopes src/index.js
			$ echo 'let = 1' | memtrace parse -
		`),
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			if opts.Goal != "" {
				if _, ok := js.ParseGoal(opts.Goal); !ok {
					return flagErrorf("unknown --goal %q (choose script, module or commonjs)", opts.Goal)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return parseRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Goal, "goal", "", "parse as `GOAL`: script, module or commonjs (default: from the file)")
	cmd.Flags().BoolVar(&opts.Spans, "spans", false, "print each node's kind and range")
	cmd.Flags().BoolVar(&opts.Scopes, "scopes", false, "print each function's free and captured names")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print spans or scopes as JSON")
	return cmd
}

func parseRun(opts *parseOptions) error {
	ios := opts.IO
	name, src, goal, byText, err := readJS(ios, opts.File, opts.Goal)
	if err != nil {
		return err
	}
	prog, err := js.Parse(src, js.Options{Goal: goal, File: name})
	if err != nil && byText {
		// Node runs it as a module if it parses as one (js.FileGoal).
		if mprog, merr := js.Parse(src, js.Options{Goal: js.Module, File: name}); merr == nil {
			prog, goal, err = mprog, js.Module, nil
		}
	}
	if err != nil {
		return renderJSError(ios, err)
	}
	lines := diag.NewLineTable(src)
	out := bufio.NewWriterSize(ios.Out, 64<<10)
	defer out.Flush()
	switch {
	case opts.Spans:
		err = printSpans(out, prog, lines, opts.JSON)
	case opts.Scopes:
		err = printScopes(out, prog, lines, opts.JSON)
	case opts.JSON:
		err = json.NewEncoder(out).Encode(map[string]any{"file": name, "goal": goal.String(), "ok": true})
	}
	if err != nil {
		return err
	}
	return out.Flush()
}

// spanRecord is one node in --spans --json output.
type spanRecord struct {
	Kind  string `json:"kind"`
	Start int32  `json:"start"`
	End   int32  `json:"end"`
	Loc   string `json:"loc"`
	Depth int    `json:"depth"`
}

func nodeKind(n js.Node) string {
	return reflect.TypeOf(n).Elem().Name()
}

// loc renders a byte range as line:col-line:col (1-based, UTF-16 columns).
func loc(lines *diag.LineTable, start, end int32) string {
	l1, c1 := lines.Position(start)
	l2, c2 := lines.Position(end)
	return fmt.Sprintf("%d:%d-%d:%d", l1, c1+1, l2, c2+1)
}

func printSpans(w io.Writer, prog *js.Program, lines *diag.LineTable, asJSON bool) error {
	var recs []spanRecord
	depth := 0
	var stack []js.Node
	js.Inspect(prog, func(n js.Node) bool {
		if n == nil {
			depth--
			stack = stack[:len(stack)-1]
			return true
		}
		recs = append(recs, spanRecord{Kind: nodeKind(n), Start: n.Pos(), End: n.EndPos(), Loc: loc(lines, n.Pos(), n.EndPos()), Depth: depth})
		depth++
		stack = append(stack, n)
		return true
	})
	if asJSON {
		enc := json.NewEncoder(w)
		for _, r := range recs {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range recs {
		if _, err := fmt.Fprintf(w, "%s%s %d-%d %s\n", strings.Repeat("  ", r.Depth), r.Kind, r.Start, r.End, r.Loc); err != nil {
			return err
		}
	}
	return nil
}

// scopeRecord is one function in --scopes output.
type scopeRecord struct {
	Kind     string   `json:"kind"`
	Name     string   `json:"name,omitempty"`
	Start    int32    `json:"start"`
	End      int32    `json:"end"`
	Loc      string   `json:"loc"`
	Free     []string `json:"free"`
	Captured []string `json:"captured"`
	Uses     []string `json:"uses,omitempty"`
}

func funcName(f *scope.Func) string {
	switch n := f.Node.(type) {
	case *js.FuncDecl:
		if n.Name != nil {
			return n.Name.Name
		}
	case *js.FuncExpr:
		if n.Name != nil {
			return n.Name.Name
		}
	}
	return ""
}

func printScopes(w io.Writer, prog *js.Program, lines *diag.LineTable, asJSON bool) error {
	in := scope.Analyze(prog)
	enc := json.NewEncoder(w)
	for _, f := range in.Funcs {
		r := scopeRecord{
			Kind: f.Kind.String(), Name: funcName(f), Start: f.Node.Pos(), End: f.Node.EndPos(),
			Loc: loc(lines, f.Node.Pos(), f.Node.EndPos()), Free: f.Free, Captured: f.Captured,
		}
		for _, u := range []struct {
			on   bool
			name string
		}{{f.UsesThis, "this"}, {f.UsesArguments, "arguments"}, {f.UsesSuper, "super"}, {f.UsesNewTarget, "new.target"},
			{f.DirectEval, "eval"}, {f.HasEval && !f.DirectEval, "nested-eval"}, {f.HasWith, "with"}} {
			if u.on {
				r.Uses = append(r.Uses, u.name)
			}
		}
		if r.Free == nil {
			r.Free = []string{}
		}
		if r.Captured == nil {
			r.Captured = []string{}
		}
		var err error
		if asJSON {
			err = enc.Encode(r)
		} else {
			name := r.Name
			if name == "" {
				name = "(anonymous)"
			}
			_, err = fmt.Fprintf(w, "%s %s %s  captured [%s]  free [%s]%s\n", r.Kind, name, r.Loc,
				strings.Join(r.Captured, " "), strings.Join(r.Free, " "), usesSuffix(r.Uses))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func usesSuffix(uses []string) string {
	if len(uses) == 0 {
		return ""
	}
	return "  uses [" + strings.Join(uses, " ") + "]"
}
