package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at link time: -ldflags "-X main.version=v1.2.3".
var version = ""

// BuildInfo describes this binary.
type BuildInfo struct {
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
}

// buildInfo reads the version from the link-time variable, falling back to
// the module and VCS information the Go toolchain records.
func buildInfo() BuildInfo {
	bi := BuildInfo{Version: version, Go: runtime.Version()}
	if info, ok := debug.ReadBuildInfo(); ok {
		if bi.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			bi.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				bi.Commit = s.Value
			case "vcs.modified":
				bi.Modified = s.Value == "true"
			}
		}
	}
	if bi.Version == "" {
		bi.Version = "devel"
	}
	return bi
}

func (b BuildInfo) String() string {
	s := "memtrace " + b.Version
	if b.Commit != "" {
		c := b.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		s += " (commit " + c
		if b.Modified {
			s += ", modified"
		}
		s += ")"
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
		Args:  exactArgs(0),
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
