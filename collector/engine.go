package collector

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/memtrace/memtrace/internal/directio"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/tracedir"
)

// engine runs on one session's trace as it streams, reading the trace
// file as it grows (directio.Follow), never the connection: an engine that
// fails or falls behind neither loses nor delays a chunk.
type engine struct {
	s      *session
	kind   string
	ended  chan struct{} // closed when the trace is whole
	endOne sync.Once
	quit   chan struct{}
	qOnce  sync.Once
	mu     sync.Mutex
	st     tracedir.Engine
	cmd    *exec.Cmd
}

func (s *session) startEngine() {
	cfg := &s.c.cfg
	if cfg.Engine == "" && len(cfg.EngineCmd) == 0 {
		return
	}
	e := &engine{s: s, ended: make(chan struct{}), quit: make(chan struct{})}
	if len(cfg.EngineCmd) > 0 {
		e.kind = strings.Join(cfg.EngineCmd, " ")
		e.st = tracedir.Engine{Kind: e.kind, Status: "running", Output: EngineOut}
	} else {
		e.kind = "builtin"
		e.st = tracedir.Engine{Kind: e.kind, Status: "running", Output: SummaryFile}
	}
	s.engine = e
	s.c.wg.Add(1)
	go func() {
		defer s.c.wg.Done()
		var err error
		if len(cfg.EngineCmd) > 0 {
			err = e.runCmd(cfg.EngineCmd)
		} else {
			err = e.runBuiltin()
		}
		e.mu.Lock()
		select {
		case <-e.quit:
			e.st.Status = "stopped"
			e.mu.Unlock()
			return
		default:
		}
		if err != nil {
			e.st.Status, e.st.Error = "failed", err.Error()
		} else {
			e.st.Status = "done"
		}
		st := e.st
		e.mu.Unlock()
		s.engineDone(&st)
	}()
}

func (e *engine) state() *tracedir.Engine {
	e.mu.Lock()
	defer e.mu.Unlock()
	st := e.st
	return &st
}

func (e *engine) traceEnded() { e.endOne.Do(func() { close(e.ended) }) }

// abort stops the engine (the collector closes without ending the
// session).
func (e *engine) abort() {
	e.qOnce.Do(func() { close(e.quit) })
	e.traceEnded()
	e.mu.Lock()
	if e.cmd != nil && e.cmd.Process != nil {
		e.cmd.Process.Kill()
	}
	e.mu.Unlock()
}

// follow reads the session's trace as it grows, until it has ended.
func (e *engine) follow() io.ReadCloser {
	return directio.Follow(e.s.dir.Path(tracedir.TraceFile), e.ended, 0)
}

// runBuiltin runs the lifetime engine and writes its JSON summary (what
// memtrace lifetime --format json prints) beside the trace.
func (e *engine) runBuiltin() error {
	pass := 0
	open := func() (io.ReadCloser, error) {
		pass++
		if pass == 1 {
			return e.follow(), nil
		}
		<-e.ended
		return os.Open(e.s.dir.Path(tracedir.TraceFile))
	}
	f, err := e.s.dir.Create(SummaryFile, 0o644)
	if err != nil {
		return err
	}
	defer f.Abort()
	w := bufio.NewWriter(f)
	if err := lifetime.Report(open, lifetime.ReportOptions{Out: io.Discard, Summary: w, TempDir: os.TempDir()}); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Commit()
}

// runCmd starts the command with the trace on its standard input, in the
// session's directory, its output in engine.out and engine.err.
func (e *engine) runCmd(argv []string) error {
	out, err := e.s.dir.OpenFile(EngineOut, true, 0o644)
	if err != nil {
		return err
	}
	defer out.Close()
	errf, err := e.s.dir.OpenFile(EngineErr, true, 0o644)
	if err != nil {
		return err
	}
	defer errf.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = e.s.dir.Name()
	cmd.Env = append(os.Environ(), "MEMTRACE_SESSION_DIR="+e.s.dir.Name())
	cmd.Stdout, cmd.Stderr = out, errf
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	e.mu.Lock()
	select {
	case <-e.quit:
		e.mu.Unlock()
		return errors.New("stopped")
	default:
	}
	if err := cmd.Start(); err != nil {
		e.mu.Unlock()
		return err
	}
	e.cmd = cmd
	e.mu.Unlock()
	r := e.follow()
	_, cerr := io.Copy(stdin, r)
	r.Close()
	stdin.Close()
	werr := cmd.Wait()
	if werr != nil {
		return werr
	}
	if cerr != nil && !errors.Is(cerr, os.ErrClosed) {
		return cerr
	}
	return nil
}
