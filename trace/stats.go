package trace

import (
	"errors"
	"fmt"
	"io"
)

// KindStats counts the entries of one kind.
type KindStats struct {
	Kind          string  `json:"kind"`
	Code          int     `json:"code"`
	Count         int64   `json:"count"`
	Bytes         int64   `json:"bytes"`
	BytesPerEntry float64 `json:"bytesPerEntry"`
}

// Stats summarises a trace (memtrace trace stats).
type Stats struct {
	Trace         string      `json:"trace"`
	Bytes         int64       `json:"bytes"`
	Entries       int64       `json:"entries"`
	BytesPerEntry float64     `json:"bytesPerEntry"`
	Counted       int64       `json:"countedEntries"`
	Time          int64       `json:"logicalTime"`
	Objects       int64       `json:"objects"`
	Functions     int64       `json:"functions"`
	DOMNodes      int64       `json:"domNodes"`
	Scripts       int64       `json:"scripts"`
	Sites         int64       `json:"sites"`
	LastUseBlocks int64       `json:"lastUseBlocks"`
	Kinds         []KindStats `json:"kinds"`
	Error         string      `json:"error,omitempty"`
}

// ComputeStats reads a whole trace (named name in errors): entries and
// bytes per kind, objects made (with the prototype object each CREATE_FUN
// implies), functions, DOM nodes, scripts, sites, last-use blocks and the
// logical time of the last counted entry. A decoding error is returned
// with the statistics of everything before it (and in Stats.Error).
func ComputeStats(name string, src io.Reader) (*Stats, error) {
	st := &Stats{Trace: name}
	var kinds [NumKinds]KindStats
	r := NewReader(src)
	var maxID int32
	var readErr error
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			readErr = err
			break
		}
		k := &kinds[e.Kind]
		k.Count++
		k.Bytes += r.End() - r.Offset()
		switch e.Kind {
		case CreateObj, CreateDOMNode:
			maxID = max(maxID, e.Obj)
		case CreateFun:
			if e.Obj < 1<<31-1 {
				maxID = max(maxID, e.Obj+1)
			}
		}
	}
	st.Bytes = r.End()
	st.Entries = r.Index() + 1
	st.Counted = r.Counted()
	st.Time = r.Counted() - 1
	st.Objects = int64(maxID)
	st.Functions = kinds[CreateFun].Count
	st.DOMNodes = kinds[CreateDOMNode].Count
	st.Scripts = kinds[ScriptEnter].Count
	st.Sites = kinds[SourceMapping].Count
	st.LastUseBlocks = kinds[EndLastUse].Count
	if st.Entries > 0 {
		st.BytesPerEntry = float64(st.Bytes) / float64(st.Entries)
	}
	st.Kinds = []KindStats{}
	for i := range kinds {
		k := kinds[i]
		if k.Count == 0 {
			continue
		}
		k.Kind = Kind(i).String()
		k.Code = i
		k.BytesPerEntry = float64(k.Bytes) / float64(k.Count)
		st.Kinds = append(st.Kinds, k)
	}
	if readErr != nil {
		readErr = NamedError(name, readErr)
		st.Error = readErr.Error()
	}
	return st, readErr
}

// NamedError is err of reading the trace named name, prefixed with the
// name ("out/mem-trace: entry 12 at offset 340: ...").
func NamedError(name string, err error) error {
	var fe *FormatError
	if errors.As(err, &fe) {
		return fmt.Errorf("%s: %s", name, fe.Error())
	}
	return fmt.Errorf("%s: %w", name, err)
}
