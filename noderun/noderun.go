// Package noderun runs a Node.js program with memtrace's runtime shim
// loaded first and every module it loads (CommonJS and ES modules)
// instrumented on the fly, and records the session in a trace directory:
// mem-trace (the trace), session.json (what ran, how it ended) and
// children/<n>-<pid>/mem-trace for each node process the program starts.
//
// Node is started as
//
//	NODE_OPTIONS="... --require DIR/preload.cjs" node NODEARGS... SCRIPT ARGS...
//
// where DIR (supportDir: in the user's cache directory, named by its
// content) holds the preload, the ES module loader hooks, their
// instrumenting client and the shim; child processes
// inherit NODE_OPTIONS (the preload adds it back to an environment the
// program gives a child). Modules instrumented ahead of time load as they
// are; the others are instrumented by a long-lived `memtrace
// instrument-server` (Serve), started per thread on first use. The shim's
// configuration (runtimeshim.Config: the trace file, the modes, the
// exclusion globs) reaches the preload, the loader and the shim as one
// JSON value, MEMTRACE_CONFIG (a child's preload points its out into the
// child's directory under MEMTRACE_CHILDREN); an excluded module is
// returned unchanged by the instrumenter. docs/instrumentation.md §11 and
// docs/configuration.md have the details.
package noderun

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/glob"
	"github.com/memtrace/memtrace/internal/safefs"
	"github.com/memtrace/memtrace/lifetime"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/tracedir"
)

//go:embed preload.cjs
var preload []byte

//go:embed loader.mjs
var loader []byte

//go:embed client.cjs
var client []byte

//go:embed bridge.cjs
var bridge []byte

// Options configure a run.
type Options struct {
	Script   string   // the program's entry point
	Args     []string // its arguments
	NodeArgs []string // node's own options (e.g. --expose-gc), passed before --require
	OutDir   string   // the trace directory (created; see ClaimOutDir)
	DebugFun string   // debug function name (MemInsight's tests use jalangiRC)
	// AllUses and AllPutFields select MemInsight's all-uses and
	// all-putfields modes (instrumenter and shim).
	AllUses, AllPutFields bool
	// Compact leaves out the flushes that have nothing to do (trace.Compact):
	// the same lifetimes from fewer entries, with other logical times.
	Compact bool
	// Exclude lists glob patterns (internal/glob) of modules that load
	// uninstrumented, matched against the name the trace would give them
	// (the path relative to the working directory, or the absolute path).
	Exclude  []string
	Node     string // the node binary (default "node" from PATH)
	Memtrace string // this memtrace binary, used to instrument modules
	Shim     string // the runtime shim's source
	Version  string // memtrace's version, for session.json
	ShimVer  string // the shim's version, for session.json
	Stdin    io.Reader
	Stdout   io.Writer
	Stderr   io.Writer
	Env      []string // extra environment (KEY=VALUE), after the process's own
	Dir      string   // the program's working directory (default: this process's)
	// SupportRoot is where the files node loads (the preload, the loader
	// hooks, the shim) are kept, in a directory named by their content:
	// "" is os.UserCacheDir()/memtrace, "-" a temporary directory of the
	// run's own.
	SupportRoot string
	// OutDirClaimed: the caller has made OutDir its own (memtrace demo):
	// it is not claimed again (ClaimOutDir), only locked.
	OutDirClaimed bool
	// Session, when set, receives what the run wrote to session.json.
	Session *Session
	// Collector, when set, is the websocket address of a collector
	// (memtrace collect) the trace streams to instead of OutDir, which is
	// then not used; Token is its token (else the address's token
	// parameter). Each process of the program is a session there.
	Collector, Token string
}

// Session is session.json (package tracedir).
type Session = tracedir.Session

// Run runs the program and returns its exit code (or -1 with an error when
// it could not be started). The trace directory is written in every case.
func Run(opts Options) (int, error) {
	if opts.Node == "" {
		opts.Node = "node"
	}
	if _, err := glob.Excludes(opts.Exclude); err != nil {
		return -1, err
	}
	// The trace directory: memtrace node's own (new, empty, or marked by
	// an earlier run), written under a handle that follows no link
	// planted in it, and locked for the run.
	collect := opts.Collector != ""
	var od *safefs.Dir
	var err error
	if !collect {
		if opts.OutDirClaimed {
			od, err = safefs.MkdirAll(opts.OutDir, 0o755)
		} else {
			od, err = ClaimOutDir(opts.OutDir)
		}
		if err != nil {
			return -1, err
		}
		defer od.Close()
		lock, err := od.TryLock(LockFile)
		if err != nil {
			return -1, err
		}
		defer lock.Unlock()
	}
	// The run's own files (status.json) go to a temporary directory; the
	// files node loads, to the shared support directory (supportDir), or
	// when there is none to the temporary directory too.
	tmp, err := os.MkdirTemp("", "memtrace-node-")
	if err != nil {
		return -1, err
	}
	keepTmp := false
	defer func() {
		if !keepTmp {
			os.RemoveAll(tmp)
		}
	}()
	files := supportFiles(opts.Shim)
	sup := ""
	if root := supportRoot(opts.SupportRoot); root != "" {
		var serr error
		if sup, serr = supportDir(root, files); serr != nil && opts.Stderr != nil {
			// Said, not silent: the run goes on with files of its own.
			fmt.Fprintf(opts.Stderr, "memtrace: not using the support directory: %v; this run keeps its files in a temporary directory\n", serr)
		}
	}
	supShared := sup != ""
	if !supShared {
		sup = tmp
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
				return -1, err
			}
		}
	}
	// The earlier run's files go first (links among them removed, not
	// followed), session.json included, so that a run that cannot write
	// its own leaves none that describes another run.
	// (And the shim's lock a killed run left, and the side files memtrace
	// lifetime --out may have put beside the trace: they describe the old
	// one.)
	out, absOut, childrenDir := "", "", ""
	if !collect {
		for _, name := range []string{tracedir.SessionFile, tracedir.TraceFile, tracedir.TraceFile + ".lock", lifetime.StalenessTraceFile, lifetime.LastUseTraceFile,
			lifetime.UnreachableTraceFile, lifetime.UpdIIDTraceFile, lifetime.SiteStatsFile} {
			if err := od.Remove(name); err != nil {
				return -1, err
			}
		}
		if err := od.RemoveAll(tracedir.ChildrenDir); err != nil {
			return -1, err
		}
		out = filepath.Join(opts.OutDir, tracedir.TraceFile)
		if absOut, err = filepath.Abs(out); err != nil {
			return -1, err
		}
		childrenDir = filepath.Join(filepath.Dir(absOut), tracedir.ChildrenDir)
	}
	sess := Session{Tool: "memtrace", Version: opts.Version, ShimVersion: opts.ShimVer, Kind: "node",
		Script: opts.Script, Args: opts.Args, NodeArgs: opts.NodeArgs, Start: time.Now().UTC(),
		DebugFun: opts.DebugFun, AllUses: opts.AllUses, AllPutFields: opts.AllPutFields, Compact: opts.Compact, Exclude: opts.Exclude}
	// The working directory, which the trace's relative script names are
	// relative to (a report finds the sources there).
	if sess.Cwd = opts.Dir; sess.Cwd == "" {
		sess.Cwd, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(sess.Cwd); err == nil {
		sess.Cwd = abs
	}

	statusFile := filepath.Join(tmp, "status.json")
	argv := append([]string{}, opts.NodeArgs...)
	stack := stackArg(opts.NodeArgs, stackLimitKB())
	if stack != "" {
		argv = append(argv, stack)
	}
	if tsModule(opts.Script, opts.Dir) {
		// Node 20 runs a main file through its ES module loader (where the
		// loader hooks give .ts files a format) only for .mjs, a .js file of
		// a "type": "module" package, or when --import is given: an empty
		// --import makes it do so for .mts and module .ts/.tsx/.jsx files.
		argv = append(argv, "--import", (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(sup, "esm.mjs"))}).String())
	}
	argv = append(argv, opts.Script)
	cmd := exec.Command(opts.Node, append(argv, opts.Args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = opts.Stdin, opts.Stdout, opts.Stderr
	cmd.Dir = opts.Dir
	env := append(os.Environ(), opts.Env...)
	cmd.Env = append(env,
		// The preload reaches the program's node child processes too,
		// which inherit NODE_OPTIONS (preload.cjs adds it back to an
		// environment the program gives a child).
		"NODE_OPTIONS="+nodeOptions(lookupEnv(env, "NODE_OPTIONS"), filepath.Join(sup, "preload.cjs")),
		"MEMTRACE_PARENT=",
		"MEMTRACE_CHILDREN="+childrenDir,
		// The shim's configuration, one JSON value (runtimeshim.Config):
		// the preload, the loader hooks and the shim read it.
		runtimeshim.ConfigVar+"="+(&runtimeshim.Config{Out: absOut, Status: statusFile, Bin: opts.Memtrace,
			DebugFun: opts.DebugFun, AllUses: opts.AllUses, AllPutFields: opts.AllPutFields, Compact: opts.Compact,
			Exclude: opts.Exclude, Collector: opts.Collector, Token: opts.Token}).JSON(),
		"MEMTRACE_UNINSTRUMENTED="+filepath.Join(tmp, UninstrumentedFile),
		"MEMTRACE_STACK_ARG="+stack,
	)
	// The program's own NODE_OPTIONS, which the preload gives back to
	// its process.env (none: the preload removes the variable).
	if v, ok := lookupEnvOK(env, "NODE_OPTIONS"); ok {
		cmd.Env = append(cmd.Env, "MEMTRACE_NODE_OPTIONS="+v)
	}
	// memtrace node stands for the program: SIGTERM and SIGHUP sent to it
	// go to node, and memtrace waits for node to end. SIGINT is ignored
	// here and not forwarded: Ctrl-C reaches node from the terminal
	// itself (the same process group), and a second copy would reach a
	// program that handles SIGINT twice.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	unlock := dieWithParent(cmd)
	runErr := cmd.Start()
	var live *liveCheck
	if runErr == nil {
		if !collect {
			live = startLiveCheck(out)
		}
		go func() {
			for s := range sigs {
				if s != syscall.SIGINT {
					_ = cmd.Process.Signal(s)
				}
			}
		}()
		runErr = cmd.Wait()
	}
	unlock()
	signal.Stop(sigs)
	close(sigs)
	sess.End = time.Now().UTC()
	code := 0
	var exitErr *exec.ExitError
	switch {
	case runErr == nil:
	case errors.As(runErr, &exitErr):
		code = exitErr.ExitCode()
		if code < 0 { // killed by a signal
			code = 128 + signalOf(exitErr)
		}
	default:
		if live != nil {
			live.abandon()
		}
		sess.Status, sess.Reason = "incomplete", "node could not be started: "+runErr.Error()
		sess.ExitCode = -1
		if !collect {
			tracedir.WriteSession(od, &sess)
		}
		return -1, runErr
	}
	if collect {
		sess.ExitCode = code
		collectedSession(&sess, statusFile)
		if opts.Session != nil {
			*opts.Session = sess
		}
		return code, nil
	}
	sess.ExitCode = code
	killed := ""
	if exitErr != nil {
		if n := signalOf(exitErr); n > 0 {
			killed = signalName(n)
		}
	}
	ts := traceStateLive(out, killed, live)
	sess.Status, sess.Reason, sess.Bytes, sess.Entries = ts.status, ts.reason, ts.bytes, ts.entries
	if sess.Status == "complete" && ts.scripts == 0 {
		// Nothing instrumented ran: the script is missing, or its entry
		// did not load (node said why on standard error).
		sess.Status, sess.Reason = "incomplete", "no script ran instrumented: the program's entry point did not load (see node's error above)"
	}
	if st, err := os.ReadFile(statusFile); err == nil && sess.Status == "complete" {
		// The shim stopped tracing early (its logical-time limit).
		var v struct {
			Stopped string `json:"stopped"`
		}
		if json.Unmarshal(st, &v) == nil && v.Stopped != "" {
			sess.Status, sess.Reason = "incomplete", v.Stopped
		}
	}
	sess.Uninstrumented = readUninstrumented(filepath.Join(tmp, UninstrumentedFile))
	sess.Status, sess.Reason = withUninstrumented(sess.Status, sess.Reason, sess.Uninstrumented)
	sess.Children = collectChildren(opts.OutDir)
	// A child still running may start node processes of its own, which
	// load the preload from the support directory: when that is tmp, leave
	// it for the system to clean.
	for _, c := range sess.Children {
		if c.Running && !supShared {
			keepTmp = true
		}
	}
	if opts.Session != nil {
		*opts.Session = sess
	}
	if err := tracedir.WriteSession(od, &sess); err != nil {
		return code, &SessionError{Dir: opts.OutDir, Err: err}
	}
	return code, nil
}

// collectedSession fills sess from what the shim of a run streamed to a
// collector left in the status file: the collector's session, and how it
// ended there.
func collectedSession(sess *Session, statusFile string) {
	sess.Status, sess.Reason = tracedir.StatusIncomplete, "the shim said nothing of the collector's answer (the process was killed, or its shim did not load)"
	b, err := os.ReadFile(statusFile)
	if err != nil {
		return
	}
	var v struct {
		Stopped   string `json:"stopped"`
		Collector *struct {
			Session string `json:"session"`
			Status  string `json:"status"`
			Reason  string `json:"reason"`
		} `json:"collector"`
	}
	if json.Unmarshal(b, &v) != nil || v.Collector == nil {
		return
	}
	sess.Collector = v.Collector.Session
	sess.Status, sess.Reason = v.Collector.Status, v.Collector.Reason
	if sess.Status == "failed" {
		sess.Status = tracedir.StatusIncomplete
	}
	if sess.Status == tracedir.StatusComplete && v.Stopped != "" {
		sess.Status, sess.Reason = tracedir.StatusIncomplete, v.Stopped
	}
}

// SessionError is a session.json that could not be written (the program
// ran, and its exit status stands): none is left in the directory.
type SessionError struct {
	Dir string
	Err error
}

func (e *SessionError) Error() string {
	return fmt.Sprintf("%s: session.json could not be written: %v", e.Dir, e.Err)
}

func (e *SessionError) Unwrap() error { return e.Err }

// The files that make a trace directory memtrace node's (tracedir).
const (
	MarkFile = tracedir.MarkFile
	LockFile = tracedir.LockFile
)

// ClaimOutDir opens the trace directory dir for a run (tracedir.Claim).
func ClaimOutDir(dir string) (*safefs.Dir, error) { return tracedir.Claim(dir) }

// nodeOptions adds `--require PRELOAD` to the NODE_OPTIONS value v, the
// path quoted as Node's NODE_OPTIONS parser reads it.
func nodeOptions(v, preload string) string {
	q := `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(preload) + `"`
	if strings.TrimSpace(v) == "" {
		return "--require " + q
	}
	return v + " --require " + q
}

// lookupEnv returns the last value of key in a KEY=VALUE list.
func lookupEnv(env []string, key string) string {
	v, _ := lookupEnvOK(env, key)
	return v
}

// lookupEnvOK is lookupEnv, and whether the list has key.
func lookupEnvOK(env []string, key string) (string, bool) {
	v, found := "", false
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v, found = val, true
		}
	}
	return v, found
}

// tsModule: the script is TypeScript, TSX or JSX that Node must run as an
// ES module (the script's path is relative to dir, when given).
func tsModule(script, dir string) bool {
	if instrument.LoaderOf(script) == instrument.JS {
		return false
	}
	if dir != "" && !filepath.IsAbs(script) {
		script = filepath.Join(dir, script)
	}
	return js.GoalOf(script) == js.Module
}

// nodeStackKB is V8's default stack size in KiB (node --v8-options), and
// stackFactor about what instrumented code needs for the same depth of
// calls: each call of the program runs through a call hook, and its frame
// holds the hooks' temporaries (a recursion that reaches 10,800 calls
// plain reached 2,900 instrumented, 3.7 times fewer; one through
// Array.prototype.map's callback 2.2 times fewer).
const (
	nodeStackKB = 984
	stackFactor = 4
)

// stackArg is the --stack-size node gets so that a program that recurses
// deeply without memtrace does so with it ("Maximum call stack size
// exceeded" where the program ran): stackFactor times V8's default, within
// the stack the process may have (limitKB, 0: no limit) less 2 MiB of
// margin for node's own frames; "" when the program's node options set
// the size themselves. (V8 reads the size when a thread starts: a flag set
// later, v8.setFlagsFromString, changes nothing; NODE_OPTIONS refuses it.)
func stackArg(nodeArgs []string, limitKB int) string {
	for _, a := range nodeArgs {
		if strings.HasPrefix(a, "--stack-size") || strings.HasPrefix(a, "--stack_size") {
			return ""
		}
	}
	kb := stackFactor * nodeStackKB
	if limitKB > 0 && limitKB-2048 < kb {
		kb = limitKB - 2048
	}
	if kb <= nodeStackKB {
		return ""
	}
	return "--stack-size=" + strconv.Itoa(kb)
}
