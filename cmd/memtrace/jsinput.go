package main

import (
	"errors"
	"io"
	"os"

	"github.com/memtrace/memtrace/instrument/diag"
	js "github.com/memtrace/memtrace/instrument/js"
)

// readJS reads a JavaScript FILE argument ("-" is standard input, named
// "<stdin>") and decides its goal: the --goal flag if given, else from the
// file (extension and nearest package.json), else script for stdin.
// byText: the file's goal is Node's to decide by its text (js.FileGoal);
// the caller tries it as a module when it fails to parse as goal.
func readJS(ios *IOStreams, arg, goalFlag string) (name string, src []byte, goal js.Goal, byText bool, err error) {
	name, goal = arg, js.Script
	if arg == "-" {
		name = "<stdin>"
		src, err = io.ReadAll(ios.In)
	} else {
		src, err = os.ReadFile(arg)
		goal, byText = js.FileGoal(arg)
	}
	if goalFlag != "" {
		goal, _ = js.ParseGoal(goalFlag)
		byText = false
	}
	return name, src, goal, byText, err
}

// renderJSError prints a JavaScript syntax error (file:line:col: error:
// message and a code frame) and turns it into a silent exit 1; other
// errors are returned as they are.
func renderJSError(ios *IOStreams, err error) error {
	var list *diag.List
	if !errors.As(err, &list) {
		return err
	}
	if rerr := list.Log.Render(ios.ErrOut, diag.RenderOptions{Color: ios.ColorErr()}); rerr != nil {
		return rerr
	}
	return errSilent
}
