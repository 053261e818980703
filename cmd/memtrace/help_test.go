package main

import (
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allCommands is every command of memtrace's tree, hidden ones and help
// included.
func allCommands(t *testing.T) []*cobra.Command {
	t.Helper()
	ios, _, _ := testIO("")
	root := newRootCmd(ios)
	root.InitDefaultHelpCmd()
	var cmds []*cobra.Command
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		c.InitDefaultVersionFlag()
		cmds = append(cmds, c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	require.Greater(t, len(cmds), 10)
	return cmds
}

func TestRootHelpLeadsWithJourney(t *testing.T) {
	code, out, _ := runCmd(t, "", "--help")
	require.Equal(t, ExitOK, code)
	first, _, _ := strings.Cut(out, "\n")
	assert.Contains(t, first, "memtrace runs a JavaScript program", "the first line says what memtrace does")

	// The first command the help names is memtrace node, then the
	// command that reads its trace.
	cmdRe := regexp.MustCompile(`memtrace ([a-z][a-z-]*)`)
	var named []string
	for _, m := range cmdRe.FindAllStringSubmatch(out, -1) {
		if m[1] != "runs" {
			named = append(named, m[1])
		}
	}
	require.GreaterOrEqual(t, len(named), 2)
	assert.Equal(t, []string{"node", "lifetime"}, named[:2])

	// The command list starts with node.
	_, list, ok := strings.Cut(out, "\nExamples:")
	require.True(t, ok)
	listed := regexp.MustCompile(`(?m)^  ([a-z][a-z-]*)  +\S`).FindAllStringSubmatch(list, -1)
	require.NotEmpty(t, listed)
	assert.Equal(t, "node", listed[0][1], "first listed command")
	assert.Equal(t, "lifetime", listed[1][1], "second listed command")
}

func TestVersionFlag(t *testing.T) {
	code, want, _ := runCmd(t, "", "version")
	require.Equal(t, ExitOK, code)
	code, got, errOut := runCmd(t, "", "--version")
	assert.Equal(t, ExitOK, code)
	assert.Equal(t, want, got)
	assert.Empty(t, errOut)
}

// A usage line names each flag once, by its long or short name.
func TestUsageLinesNameNoFlagTwice(t *testing.T) {
	flagRe := regexp.MustCompile(`(?:^|[\s\[(|])(--?[A-Za-z][-A-Za-z0-9]*)`)
	for _, c := range allCommands(t) {
		usage := c.UsageString()
		_, sec, ok := strings.Cut(usage, "Usage:\n")
		require.True(t, ok, "%s: %q", c.CommandPath(), usage)
		sec, _, _ = strings.Cut(sec, "\n\n")
		lines := append(strings.Split(sec, "\n"), c.UseLine())
		for _, line := range lines {
			seen := map[string]bool{}
			for _, m := range flagRe.FindAllStringSubmatch(line, -1) {
				tok := m[1]
				name := tok
				var f *pflag.Flag
				if strings.HasPrefix(tok, "--") {
					f = c.Flags().Lookup(tok[2:])
				} else if len(tok) == 2 {
					f = c.Flags().ShorthandLookup(tok[1:])
				}
				if f != nil {
					name = f.Name
				}
				assert.False(t, seen[name], "%s: usage line names %s twice: %s", c.CommandPath(), name, line)
				seen[name] = true
			}
		}
		if c.HasAvailableSubCommands() {
			assert.Equal(t, "  "+c.CommandPath()+" <command> [flags]", sec, "%s: one usage line", c.CommandPath())
		}
	}
}

func TestExamplesIndented(t *testing.T) {
	n := 0
	for _, c := range allCommands(t) {
		if c.Example == "" {
			continue
		}
		n++
		assert.False(t, strings.HasSuffix(c.Example, "\n"), "%s: Example ends with a newline (a blank line too many)", c.CommandPath())
		for _, line := range strings.Split(c.Example, "\n") {
			if line != "" {
				assert.True(t, strings.HasPrefix(line, "  ") && line[2] != ' ', "%s: example line not indented by two spaces: %q", c.CommandPath(), line)
			}
		}
		assert.NotContains(t, c.UsageString(), "\n\n\n", c.CommandPath())
	}
	assert.Greater(t, n, 10)
}

// Help texts say in plain words what MemInsight's trace-format jargon
// means for the user, instead of using it.
func TestHelpAvoidsJargon(t *testing.T) {
	jargon := []*regexp.Regexp{
		regexp.MustCompile(`(?i)flush`),  // TOP_LEVEL_FLUSH: the end of a statement
		regexp.MustCompile(`(?i)merlin`), // the cycle collector's dating of garbage cycles
		regexp.MustCompile(`(?i)elision|elide`),
		regexp.MustCompile(`PUTFIELD`),   // a property write (the flag --all-putfields may keep its name)
		regexp.MustCompile(`DEBUG entr`), // what --debug-fun writes
	}
	check := func(where, text string) {
		for _, re := range jargon {
			if m := re.FindString(text); m != "" {
				t.Errorf("%s says %q: %s", where, m, text)
			}
		}
	}
	for _, c := range allCommands(t) {
		path := c.CommandPath()
		check(path+" Short", c.Short)
		check(path+" Long", c.Long)
		check(path+" Example", c.Example)
		c.Flags().VisitAll(func(f *pflag.Flag) { check(path+" --"+f.Name, f.Usage) })
	}
}

func TestHelpUnknownTopic(t *testing.T) {
	for _, args := range [][]string{{"help", "nosuch"}, {"help", "trace", "nosuch"}, {"help", "node", "app.js"}} {
		code, out, errOut := runCmd(t, "", args...)
		assert.Equal(t, ExitUsage, code, "%v", args)
		assert.Empty(t, out, "%v", args)
		assert.Contains(t, errOut, "error: unknown help topic", "%v", args)
		assert.Contains(t, errOut, "Usage:", "%v", args)
	}
	_, _, errOut := runCmd(t, "", "help", "trace", "nosuch")
	assert.Contains(t, errOut, "memtrace trace <command>", "the usage of the nearest command")

	for _, args := range [][]string{{"help"}, {"help", "trace"}, {"help", "trace", "check"}, {"help", "help"}} {
		code, out, errOut := runCmd(t, "", args...)
		assert.Equal(t, ExitOK, code, "%v", args)
		assert.Contains(t, out, "Usage:", "%v", args)
		assert.Empty(t, errOut, "%v", args)
	}
}

func TestDescribeBuild(t *testing.T) {
	const rev = "720611ced4dabf05e24845948168670418b06ff0"
	stamped := func(version string, settings ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{Main: debug.Module{Path: "github.com/memtrace/memtrace", Version: version}}
		for i := 0; i < len(settings); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return info
	}
	for _, tc := range []struct {
		name string
		ld   string
		info *debug.BuildInfo
		want BuildInfo
		line string
	}{{
		name: "go build in a checkout",
		info: stamped("v0.0.0-20261202045230-720611ced4da+dirty", "vcs", "git", "vcs.revision", rev, "vcs.time", "2026-12-02T04:52:30Z", "vcs.modified", "true"),
		want: BuildInfo{Version: "v0.0.0-20261202045230-720611ced4da+dirty", Commit: rev, Time: "2026-12-02T04:52:30Z", Modified: true, Go: "go1.26"},
		line: "memtrace v0.0.0-20261202045230-720611ced4da+dirty (commit 720611ced4da, 2026-12-02T04:52:30Z, modified) go1.26",
	}, {
		name: "go build of a checkout before Go stamped the module version",
		info: stamped("(devel)", "vcs.revision", rev, "vcs.time", "2026-12-02T04:52:30Z", "vcs.modified", "false"),
		want: BuildInfo{Version: "devel", Commit: rev, Time: "2026-12-02T04:52:30Z", Go: "go1.26"},
		line: "memtrace devel (commit 720611ced4da, 2026-12-02T04:52:30Z) go1.26",
	}, {
		name: "make build in a checkout",
		ld:   "v0.3.0-5-g720611c",
		info: stamped("(devel)", "vcs.revision", rev),
		want: BuildInfo{Version: "v0.3.0-5-g720611c", Commit: rev, Go: "go1.26"},
		line: "memtrace v0.3.0-5-g720611c (commit 720611ced4da) go1.26",
	}, {
		name: "make build with -buildvcs=false",
		ld:   "v0.3.0-5-g720611c-dirty",
		info: stamped("(devel)"),
		want: BuildInfo{Version: "v0.3.0-5-g720611c-dirty", Commit: "720611c", Modified: true, Go: "go1.26"},
		line: "memtrace v0.3.0-5-g720611c-dirty (commit 720611c, modified) go1.26",
	}, {
		name: "make build without tags",
		ld:   "720611c",
		want: BuildInfo{Version: "720611c", Commit: "720611c", Go: "go1.26"},
		line: "memtrace 720611c (commit 720611c) go1.26",
	}, {
		name: "go install of a pseudo-version",
		info: stamped("v0.0.0-20261202045230-720611ced4da"),
		want: BuildInfo{Version: "v0.0.0-20261202045230-720611ced4da", Commit: "720611ced4da", Time: "2026-12-02T04:52:30Z", Go: "go1.26"},
		line: "memtrace v0.0.0-20261202045230-720611ced4da (commit 720611ced4da, 2026-12-02T04:52:30Z) go1.26",
	}, {
		name: "go install of a release",
		info: stamped("v1.2.3"),
		want: BuildInfo{Version: "v1.2.3", Go: "go1.26"},
		line: "memtrace v1.2.3 go1.26",
	}, {
		name: "go build with -buildvcs=false",
		info: stamped("(devel)"),
		want: BuildInfo{Version: "devel", Go: "go1.26"},
		line: "memtrace devel (commit unknown) go1.26",
	}, {
		name: "no build information",
		want: BuildInfo{Version: "devel", Go: "go1.26"},
		line: "memtrace devel (commit unknown) go1.26",
	}} {
		got := describeBuild(tc.ld, tc.info, "go1.26")
		assert.Equal(t, tc.want, got, tc.name)
		assert.Equal(t, tc.line, got.String(), tc.name)
	}
}
