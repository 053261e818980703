package ondemand

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strconv"

	"github.com/memtrace/memtrace/internal/glob"
)

// MaxHTTPBody is the largest request Handler takes by default (a bundle
// of tens of MB, with room).
const MaxHTTPBody = 256 << 20

// Handler serves the protocol over HTTP: a POST whose body is one request
// (its header line, then Len bytes of source) is answered 200 with the
// answer (its header line, then Len bytes of code), an instrumenter's
// error in the answer's header as on a stream. A request that is not a
// POST is 405; a body that is not one request (no header line, a bad
// header, Len other than the bytes that follow) is 400; one larger than
// maxBody (0: MaxHTTPBody) is 413. Requests are instrumented in parallel,
// up to GOMAXPROCS at once. The handler authenticates nobody: whoever
// mounts it decides who may reach it.
func Handler(opts Options, maxBody int64) (http.Handler, error) {
	excl, err := glob.Excludes(opts.Exclude)
	if err != nil {
		return nil, err
	}
	if maxBody <= 0 {
		maxBody = MaxHTTPBody
	}
	return &handler{opts: opts, excl: excl, slow: newSlowNotes(opts), max: maxBody, sem: make(chan struct{}, runtime.GOMAXPROCS(0))}, nil
}

type handler struct {
	opts Options
	excl *glob.List
	slow *slowNotes
	max  int64
	sem  chan struct{}
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST one request: its header line, then its source", http.StatusMethodNotAllowed)
		return
	}
	req, src, err := readOne(http.MaxBytesReader(w, r.Body, h.max))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, fmt.Sprintf("the request is larger than %d bytes", h.max), http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	select {
	case h.sem <- struct{}{}:
	case <-r.Context().Done():
		return
	}
	head, out := answerOne(*req, src, h.excl, h.opts, h.slow)
	<-h.sem
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(head)+1+len(out)))
	w.Header().Set("Cache-Control", "no-store")
	w.Write(head)
	w.Write([]byte{'\n'})
	w.Write(out)
}

// readOne reads one request, and nothing after it, from a body.
func readOne(body io.Reader) (*Request, []byte, error) {
	br := bufio.NewReaderSize(body, 1<<16)
	line, err := br.ReadBytes('\n')
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil, errors.New("no request header line")
		}
		return nil, nil, err
	}
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		return nil, nil, fmt.Errorf("bad request header: %v", err)
	}
	if req.Len < 0 {
		return nil, nil, fmt.Errorf("bad request length %d", req.Len)
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, br); err != nil {
		return nil, nil, err
	}
	if buf.Len() != req.Len {
		return nil, nil, fmt.Errorf("the header says %d bytes of source, the body has %d", req.Len, buf.Len())
	}
	return &req, buf.Bytes(), nil
}
