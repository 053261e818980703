// Command memtrace records and analyses JavaScript memory traces.
//
// Run `memtrace help` for the commands. The command tree lives in this
// package; main only maps the result of Main to the process exit code, so
// tests drive every command in-process through run.
package main

import (
	"os"
)

func main() {
	os.Exit(int(Main()))
}

// Main runs memtrace with the process's arguments and standard streams.
func Main() ExitCode {
	return run(os.Args[1:], systemIO())
}
