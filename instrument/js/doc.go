// Package js parses JavaScript (ECMAScript 2024, plus decorators, using
// declarations and import.defer/import.source) into a syntax tree whose
// every node knows its exact byte span in the source, so that the
// instrumenter can splice text around any node.
//
// # Parsing
//
//	prog, err := js.Parse(src, js.Options{Goal: js.Module, File: "app.mjs"})
//
// The goal is chosen by the caller: Script (a classic script, sloppy unless
// it says "use strict"; Annex B forms such as legacy octal literals, with,
// HTML-like comments and function declarations in if bodies are accepted),
// Module (strict, import/export, top-level await; no HTML-like comments) or
// CommonJS (a script parsed as a function body: top-level return and
// new.target are legal). A leading "#!" line is a comment in every goal.
//
// On failure, err is a *diag.List holding the first syntax error (the
// parser stops there: no cascades) with its file, line and column; render
// it with a code frame through err.(*diag.List).Log.Render. The parser never
// panics on any input, runs in linear time, and rejects nesting deeper than
// Options.MaxDepth (DefaultMaxDepth, 50,000 levels: more than V8 accepts in
// any form with four times its default stack) so that untrusted pages
// cannot exhaust the stack; each statement, expression, binding pattern
// and link of a member or call chain is a level. Chains of binary
// operators (a + b + c ...) are built in a loop and have no limit, as in
// V8; Walk, and memtrace's walkers, take them in a loop too. Early errors are reported as the spec requires:
// redeclarations, invalid assignment targets, strict-mode restrictions,
// labels, break/continue targets, super/new.target/arguments misuse,
// duplicate and undefined exports, undeclared private names, accessor
// arities, regexp flags, and more.
//
// # Spans
//
// Every node embeds a Span{Start, End}: byte offsets, End exclusive, equal
// to acorn's start and end for the same ESTree node (this is tested over
// the shared corpora node for node). In particular:
//
//   - an expression's span excludes parentheses around it; the parentheses
//     are a *Paren node whose span includes them, kept in the tree so that
//     wrapping a node's text is always right (ESTree drops Paren; acorn's
//     spans are those of Paren.X);
//   - a node built on a parenthesised operand starts at its "(": the call
//     in "(f)()" spans all of it;
//   - a statement's span includes its terminating semicolon;
//   - the function of a method, getter, setter or constructor (Method.Value,
//     and Property.Value for object methods) starts at its parameter list;
//   - an optional chain is wrapped in a *Chain node spanning the whole
//     chain, so that a hook never splits a short-circuiting chain;
//   - a class with decorators starts at its first "@".
//
// Convert offsets to line and column with diag.LineTable (1-based lines,
// UTF-16 columns, as V8 and source maps count).
//
// # The tree
//
// Node, Expr, Stmt, Pattern and ClassMember are closed sum types (marker
// methods). Walk and Inspect visit every node in source order, exactly
// once, and panic on a node type they do not know. Identifiers hold their
// decoded names; string literals and template pieces their decoded values
// as WTF-8 (lone surrogates are kept); numbers their float64 value and raw
// text; BigInts their digits; regular expressions their pattern and flags;
// template pieces their cooked and raw values.
//
// # Lexing
//
// The lexer is this package's own: github.com/tdewolff/parse/v2/js's lexer
// was evaluated as a base (see lexer.go for why it was not a fit) and its
// parser serves as the speed baseline in BenchmarkTdewolffParse.
package js
