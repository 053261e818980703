package report

import (
	"encoding/json"

	"github.com/memtrace/memtrace/lifetime"
)

// Data is what the page renders (docs/report.md lists every field). The
// figures of Totals and of each Site are the summary's.
type Data struct {
	Version   int                    `json:"version"`
	Title     string                 `json:"title"`
	Run       Run                    `json:"run"`
	Totals    lifetime.SummaryTotals `json:"totals"`
	End       int64                  `json:"end"`
	Timeline  Timeline               `json:"timeline"`
	Snapshots []int64                `json:"snapshots"`
	Sites     []Site                 `json:"sites"`
	Detached  []Detached             `json:"detached"`
	Baseline  *Baseline              `json:"baseline,omitempty"`
	// Paths are the retaining paths the retainers name (Retainer.P): a
	// shape holds a site's objects at many moments, and is written once.
	Paths []PathEntry `json:"paths"`
	// Files are the sites' files as displayed (Site.F), each written once.
	Files []string `json:"files"`
}

// PathEntry is a retaining path, in words and step by step.
type PathEntry struct {
	Text string `json:"text"`
	Path []Step `json:"path"`
}

// Run says what ran and how the trace ended.
type Run struct {
	Trace    string `json:"trace"`
	Kind     string `json:"kind"` // node, browser or file
	What     string `json:"what"` // the script, the page or the trace file
	Started  string `json:"started,omitempty"`
	Ended    string `json:"ended,omitempty"`
	Status   string `json:"status,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Agent    string `json:"agent,omitempty"`
	Memtrace string `json:"memtrace,omitempty"`
	Bytes    int64  `json:"bytes"`
	Entries  int64  `json:"entries"`
}

// Timeline is the whole program's live and stale objects per bucket of
// logical time (T: each bucket's last time).
type Timeline struct {
	T     []int64 `json:"t"`
	Live  []int64 `json:"live"`
	Stale []int64 `json:"stale"`
}

// Series is one site's counts, per bucket or downsampled.
type Series struct {
	Live  []int64 `json:"live"`
	Stale []int64 `json:"stale"`
}

// Site is one allocation site of the page, in the ranked order.
type Site struct {
	ID              int    `json:"id"`
	Site            string `json:"site"`
	Where           string `json:"where"`
	Allocated       int64  `json:"allocated"`
	MaxLive         int64  `json:"maxLive"`
	MaxStale        int64  `json:"maxStale"`
	Unused          int64  `json:"unused"`
	Leaking         bool   `json:"leaking"`
	OneAliveAtATime bool   `json:"oneAliveAtATime"`
	NonEscaping     bool   `json:"nonEscaping"`
	Verdict         string `json:"verdict"`
	// F, L and C say Where in the page: its file's index in Data.Files,
	// its line and column (F nil: Where is a special location, written).
	F      *int    `json:"f,omitempty"`
	L      int     `json:"l,omitempty"`
	C      int     `json:"c,omitempty"`
	Spark  *Series `json:"spark,omitempty"`
	Detail *Detail `json:"detail,omitempty"`
}

// MarshalJSON leaves Where out when F, L and C say it.
func (s Site) MarshalJSON() ([]byte, error) {
	type plain Site
	w := s.Where
	if s.F != nil {
		w = ""
	}
	return json.Marshal(struct {
		plain
		Where string `json:"where,omitempty"`
	}{plain(s), w})
}

// Detail is what a site's own page shows (the first DetailSites sites).
type Detail struct {
	Timeline      Series     `json:"timeline"`
	Frame         *Frame     `json:"frame,omitempty"`
	Contexts      []Context  `json:"contexts"`
	OtherContexts int64      `json:"otherContexts"`
	LastUses      []LastUse  `json:"lastUses"`
	OtherLastUses int64      `json:"otherLastUses"`
	Retainers     []Retainer `json:"retainers"`
	Snapshots     []Snapshot `json:"snapshots"`
}

// Frame is the source around a location.
type Frame struct {
	File   string   `json:"file"`
	First  int      `json:"first"`
	Lines  []string `json:"lines"`
	Mark   Mark     `json:"mark"`
	Origin string   `json:"origin"` // scripts or disk
}

// Mark is a range of a Frame's lines (1-based, columns in the lines as
// cut).
type Mark struct {
	Line    int `json:"line"`
	Col     int `json:"col"`
	EndLine int `json:"endLine"`
	EndCol  int `json:"endCol"`
}

// Context is a calling context, innermost frame first.
type Context struct {
	Objects   int64       `json:"objects"`
	Frames    []CallFrame `json:"frames"`
	Truncated bool        `json:"truncated"`
}

// CallFrame is a function running (Fn, its location; Name when the
// source names it) and the call site in its caller (Call, none when
// native code or the event loop called it, or for a script's top level).
type CallFrame struct {
	Fn   string `json:"fn"`
	Name string `json:"name,omitempty"`
	Call string `json:"call,omitempty"`
}

// LastUse is where some of a site's objects were last used ("creation":
// never after it).
type LastUse struct {
	At      string `json:"at"`
	Objects int64  `json:"objects"`
	Frame   *Frame `json:"frame,omitempty"`
}

// Retainer is a path shape that holds some of the sampled objects.
type Retainer struct {
	Objects int `json:"objects"`
	Sampled int `json:"sampled"`
	// P is the path's index in Data.Paths; Text and Path are that entry's
	// (not in the page's JSON, which names it once).
	P    int    `json:"p"`
	Text string `json:"-"`
	Path []Step `json:"-"`
}

// Step is an edge of a path: its holder ("GLOBAL", "closure of
// file:l:c", or an object's site file:l:c, with Site its id when it is a
// site of the page) and the edge's name.
type Step struct {
	Holder  string `json:"holder"`
	Edge    string `json:"edge"`
	Context bool   `json:"context"`
	Site    *int   `json:"site,omitempty"`
}

// Snapshot is a site's retainers at Data.Snapshots' time Time.
type Snapshot struct {
	Time      int64      `json:"time"`
	Live      int64      `json:"live"`
	Retainers []Retainer `json:"retainers"`
}

// Detached is a site's DOM nodes off the document but reachable at the
// end.
type Detached struct {
	Site      int        `json:"site"`
	Nodes     int64      `json:"nodes"`
	Retainers []Retainer `json:"retainers"`
}

// Baseline compares the run with another.
type Baseline struct {
	Name   string                 `json:"name"`
	Totals lifetime.SummaryTotals `json:"totals"`
	Grew   []Growth               `json:"grew"`
}

// Growth is a site that grew against the baseline: more stale objects at
// once, or leaking now and not then.
type Growth struct {
	Site     *int   `json:"site"`
	SiteName string `json:"-"`
	Where    string `json:"where"`
	Stale0   int64  `json:"stale0"`
	Stale1   int64  `json:"stale1"`
	Alloc0   int64  `json:"alloc0"`
	Alloc1   int64  `json:"alloc1"`
	Leaking0 bool   `json:"leaking0"`
	Leaking1 bool   `json:"leaking1"`
	IsNew    bool   `json:"isNew"`
}
