package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"
)

// version is set at link time: -ldflags "-X main.version=v1.2.3" (make
// build sets git describe's output).
var version = ""

// BuildInfo describes this binary.
type BuildInfo struct {
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Time     string `json:"time,omitempty"` // the commit's, when known
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
}

// buildInfo describes this binary from what its build recorded.
func buildInfo() BuildInfo {
	info, _ := debug.ReadBuildInfo()
	return describeBuild(version, info, runtime.Version())
}

var (
	// A pseudo-version (go help modules), which Go also gives the main
	// module when it stamps VCS information: its time and commit.
	pseudoVersion = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+-(?:[0-9A-Za-z.-]*\.)?([0-9]{14})-([0-9a-f]{12})(\+dirty)?$`)
	// git describe --tags --always --dirty: TAG-N-gHASH or a bare HASH.
	describeVersion = regexp.MustCompile(`^(?:.*-[0-9]+-g)?([0-9a-f]{7,40})(-dirty)?$`)
)

// describeBuild works out the version and commit of a binary: the version
// from the link-time variable ld, else the main module's version, else
// "devel"; the commit, its time and whether the sources were modified
// from the VCS stamp Go writes when it builds inside a git checkout
// (go build's default, -buildvcs=auto), else from the version when that
// names a commit (a pseudo-version, git describe's output).
func describeBuild(ld string, info *debug.BuildInfo, goVersion string) BuildInfo {
	bi := BuildInfo{Version: ld, Go: goVersion}
	if info != nil {
		if bi.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			bi.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				bi.Commit = s.Value
			case "vcs.time":
				bi.Time = s.Value
			case "vcs.modified":
				bi.Modified = s.Value == "true"
			}
		}
	}
	if bi.Commit == "" {
		if m := pseudoVersion.FindStringSubmatch(bi.Version); m != nil {
			if t, err := time.Parse("20060102150405", m[1]); err == nil {
				bi.Time = t.UTC().Format(time.RFC3339)
			}
			bi.Commit, bi.Modified = m[2], m[3] != ""
		} else if m := describeVersion.FindStringSubmatch(bi.Version); m != nil {
			bi.Commit, bi.Modified = m[1], m[2] != ""
		}
	}
	if bi.Version == "" {
		bi.Version = "devel"
	}
	return bi
}

// String is the version line: "memtrace VERSION (commit C, TIME) GO". A
// development build that knows no commit says so.
func (b BuildInfo) String() string {
	s := "memtrace " + b.Version
	switch {
	case b.Commit != "":
		c := b.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		s += " (commit " + c
		if b.Time != "" {
			s += ", " + b.Time
		}
		if b.Modified {
			s += ", modified"
		}
		s += ")"
	case b.Version == "devel":
		s += " (commit unknown)"
	}
	return s + " " + b.Go
}

type versionOptions struct {
	IO   *IOStreams
	JSON bool
}

func newCmdVersion(ios *IOStreams, runF func(*versionOptions) error) *cobra.Command {
	opts := &versionOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print memtrace's version",
		Long: heredoc.Doc(`
			Print memtrace's version, the commit it was built from (with the
			commit's time, and "modified" when the sources differed from it) and
			the Go version that built it.

			The commit comes from what Go records when it builds inside a git
			checkout (go build does unless -buildvcs=false), or from a version that
			names one (make build's, from git describe). A build that has neither
			prints "devel (commit unknown)".
		`),
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return versionRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the version as JSON")
	return cmd
}

func versionRun(opts *versionOptions) error {
	bi := buildInfo()
	if opts.JSON {
		enc := json.NewEncoder(opts.IO.Out)
		return enc.Encode(bi)
	}
	_, err := fmt.Fprintln(opts.IO.Out, bi.String())
	return err
}
