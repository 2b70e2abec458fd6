package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/spf13/cobra"
)

// Exit statuses: what a script or a CI step branches on.
const (
	exitOK     = 0
	exitFailed = 1 // lint found an error, or a policy test did not hold
	exitInput  = 2 // the input could not be used
)

// errFailed is what a command returns once it has printed findings or
// failures that should fail a CI step; it exits 1 with nothing more said.
var errFailed = errors.New("failed")

// run executes the command line and returns the exit status. Everything
// the command prints goes to stdout. Any error but errFailed is input the
// command could not use (an unknown tool or flag, arguments that are not a
// JSON object, a missing or invalid file): it exits 2 with one line on
// stderr, never a stack trace.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return execute(ctx, newRoot(args), args, stdin, stdout, stderr)
}

// execute runs the command line on the tree root, as run does.
func execute(ctx context.Context, root *cobra.Command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errFailed):
		return exitFailed
	default:
		fmt.Fprintf(stderr, "agentpolicy: %s\n", oneLine(err.Error()))
		return exitInput
	}
}

// oneLine keeps an error to the one line the command promises, and
// drops the packages' own prefixes ("agentpolicy/claudecode: "), which
// would double the command's.
func oneLine(s string) string {
	return strings.Join(strings.Fields(withoutPrefixes(s)), " ")
}

// withoutPrefixes drops every package prefix, "agentpolicy: " or
// "agentpolicy/NAME: ", that opens s or one of the errors wrapped in it
// (after ": "); the same words inside a message stay.
func withoutPrefixes(s string) string {
	var b strings.Builder
	for start := true; s != ""; {
		if start {
			if rest, ok := cutPrefix(s); ok {
				s = rest
				continue
			}
		}
		i := strings.Index(s, ": ")
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i+2])
		s, start = s[i+2:], true
	}
	return b.String()
}

// cutPrefix cuts a package prefix, "agentpolicy: " or
// "agentpolicy/NAME: " with NAME a lower-case word, off the front of s.
func cutPrefix(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, "agentpolicy")
	if !ok {
		return s, false
	}
	if name, ok := strings.CutPrefix(rest, "/"); ok {
		i := 0
		for i < len(name) && name[i] >= 'a' && name[i] <= 'z' {
			i++
		}
		if i == 0 {
			return s, false
		}
		rest = name[i:]
	}
	rest, ok = strings.CutPrefix(rest, ": ")
	return rest, ok
}

// newRoot builds the command tree for the command line args. When args
// begin with a command's name, the tree holds only that command under the
// root: a hook call is a process, and building every command's flags at
// each start would be paid on every call. Anything else (no command,
// a flag first, help, completion, a misspelt command) gets the whole
// tree, so what lists or suggests commands sees them all. Cobra's own
// errors (an unknown command or flag, a wrong number of arguments) exit 2
// as every input error does.
func newRoot(args []string) *cobra.Command {
	var flags settingsFlags
	root := &cobra.Command{
		Use:   "agentpolicy",
		Short: "Explain, lint and test the permission rules of Claude Code settings",
		Long: `agentpolicy reads Claude Code settings files (managed, user, project, local and
--settings files, merged by scope as Claude Code merges them) and decides tool
calls with the agentpolicy engine and its shell splitter. It never runs a tool.

Exit status: 0 when everything holds; 1 when lint finds an error or a policy
test fails; 2 for input it cannot use.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	flags.register(root)
	commands := []struct {
		name string
		make func() *cobra.Command
	}{
		{"explain", func() *cobra.Command { return newExplain(&flags) }},
		{"lint", func() *cobra.Command { return newLint(&flags) }},
		{"test", func() *cobra.Command { return newTest(&flags) }},
		{"corpus", newCorpus},
		{"queue", func() *cobra.Command { return newQueue(&flags) }},
		{"hook", func() *cobra.Command { return newHook(&flags) }},
		{"db", newDB},
		{"version", newVersion},
	}
	for _, c := range commands {
		if len(args) > 0 && args[0] == c.name {
			root.AddCommand(c.make())
			// Cobra would add its completion command to the tree at every
			// run; a command line naming a command has no use for it.
			root.CompletionOptions.DisableDefaultCmd = true
			return root
		}
	}
	for _, c := range commands {
		root.AddCommand(c.make())
	}
	return root
}

// newVersion prints the module version the binary was built from.
func newVersion() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version of agentpolicy this command was built from",
		Example: "  agentpolicy version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), version())
			return nil
		},
	}
}

// version is the module version and the Go version of the build: a version
// tag when installed with go install, "(devel)" from a checkout. Every
// command tree names it, so the resident hook process reads its build
// information once.
var version = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "agentpolicy (unknown version)"
	}
	return fmt.Sprintf("agentpolicy %s (%s)", info.Main.Version, info.GoVersion)
})
