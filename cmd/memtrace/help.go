package main

import (
	"fmt"
	"strings"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"
)

func init() {
	// Commands are listed in the order they are added: the main journey
	// (memtrace node, then reading the trace) first, not the alphabet's.
	cobra.EnableCommandSorting = false
}

// examples formats a command's Example as cobra renders its own: every
// line indented by two spaces, and no blank line after the last (cobra's
// template puts one).
func examples(s string) string {
	lines := strings.Split(strings.TrimRight(heredoc.Doc(s), "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "\n")
}

// usageTemplate is cobra's default but for the Usage lines: a command that
// groups subcommands shows one line, "PATH <command> [flags]", where
// cobra's would show its own use line and "PATH [command]" both.
const usageTemplate = `Usage:{{if and .Runnable (not .HasAvailableSubCommands)}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} <command> [flags]{{end}}{{if gt (len .Aliases) 0}}

Aliases:
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}{{$cmds := .Commands}}{{if eq (len .Groups) 0}}

Available Commands:{{range $cmds}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{else}}{{range $group := .Groups}}

{{.Title}}{{range $cmds}}{{if (and (eq .GroupID $group.ID) (or .IsAvailableCommand (eq .Name "help")))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if not .AllChildCommandsHaveGroup}}

Other Commands:{{range $cmds}}{{if (and (eq .GroupID "") (or .IsAvailableCommand (eq .Name "help")))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

Global Flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} <command> --help" for more information about a command.{{end}}
`

// newCmdHelp replaces cobra's help command, which prints the usage and
// exits 0 for a topic it does not know: here that is a usage error (exit
// 2), as an unknown command is.
func newCmdHelp() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long: heredoc.Doc(`
			Print the help of a command: memtrace help node, memtrace help trace
			check (the same as memtrace node --help, memtrace trace check --help).
		`),
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			root := c.Root()
			cmd, rest, err := root.Find(args)
			if cmd == nil {
				cmd = root
			}
			if err != nil || len(rest) > 0 {
				cmd.InitDefaultHelpFlag()
				return &FlagError{err: fmt.Errorf("unknown help topic %q", strings.Join(args, " ")), usage: cmd}
			}
			cmd.InitDefaultHelpFlag()
			cmd.InitDefaultVersionFlag()
			return cmd.Help()
		},
	}
}
