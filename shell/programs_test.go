package shell

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// TestEveryEntryIsReadOneWay holds each entry of the table to one way of
// being read: by a hook, as a wrapper with its options, as a builtin
// that only prints, or against its options with its file operands. An
// entry that says two would be read by the first and its other fields
// would mislead the reviewer who audits it.
func TestEveryEntryIsReadOneWay(t *testing.T) {
	for name, prog := range programs() {
		var ways []string
		if prog.hook != nil {
			ways = append(ways, "hook")
		}
		if prog.wraps != nil {
			ways = append(ways, "wrapper")
			if prog.flags == nil {
				t.Errorf("the wrapper %s has no options", name)
			}
		}
		if prog.subcommands != nil {
			ways = append(ways, "subcommands")
			for sub, w := range prog.subcommands {
				if w.wraps == nil || w.flags == nil {
					t.Errorf("the subcommand %s %s is no wrapper with options", name, sub)
				}
			}
		}
		if prog.printsOnly && prog.hook == nil {
			ways = append(ways, "prints only")
		}
		if prog.files != nil {
			ways = append(ways, "options")
			if prog.flags == nil {
				t.Errorf("%s has file operands but no options", name)
			}
		}
		if len(ways) != 1 {
			t.Errorf("%s is read as %v, want one way", name, ways)
		}
		if (prog.shell || prog.language != nil) && prog.hook == nil {
			t.Errorf("the shell or interpreter %s has no hook", name)
		}
	}
}

// TestStateBuiltinsAreInTheTable asks the real bash for its builtins and
// holds every one that state.go reads to an entry whose hook reaches it:
// a builtin state.go learns to read but the table does not name would be
// read as a command no table knows.
func TestStateBuiltinsAreInTheTable(t *testing.T) {
	out, err := exec.Command("bash", "-c", "compgen -b").Output()
	if err != nil {
		t.Fatalf("bash -c 'compgen -b': %v", err)
	}
	builtins := strings.Fields(string(out))
	if len(builtins) < 40 {
		t.Fatalf("bash lists %d builtins, want the 50 or so it has", len(builtins))
	}
	args := []word{{value: "x", literal: true}, {value: "y", literal: true}}
	for _, name := range builtins {
		if _, ok := stateEffects(name, args); !ok {
			continue
		}
		if prog := lookup(name); prog == nil || prog.hook == nil {
			t.Errorf("state.go reads the builtin %s, which the table does not give a hook", name)
		}
	}
}

// TestLookupNamesAVersion finds an interpreter by its name with a
// version, and no other command so: cat2 is not cat.
func TestLookupNamesAVersion(t *testing.T) {
	for name, want := range map[string]bool{"python3": true, "python3.12": true, "perl5.36": true, "nodejs": true, "cat2": false, "sha": false} {
		prog := lookup(name)
		if got := prog != nil && prog.language != nil; got != want {
			t.Errorf("lookup(%q) is an interpreter: %v, want %v", name, got, want)
		}
	}
	if lookup("cat2") != nil || lookup("original-awk") == nil {
		t.Error("lookup finds cat2, or no awk for original-awk")
	}
}

// TestBuiltinOptionsAreRead reads hash, enable and mapfile against their
// options: the option that hides code asks wherever it stands in a
// cluster, and a word made when it runs where an option may stand asks
// too, as it may be that option; each beside a twin that runs nothing.
func TestBuiltinOptionsAreRead(t *testing.T) {
	for _, c := range []struct {
		command, unseen string
	}{
		{"hash -p /tmp/evil ls", "hash -p changes which program a name runs"},
		{"hash -dp /tmp/evil ls", "hash -p changes which program a name runs"},
		{"hash $o /tmp/evil ls", "the word $o may be an option of hash, known only when it runs"},
		{"hash -r", ""},
		{"hash -t ls", ""},
		{"enable -f ./x.so x", "enable -f loads a builtin from a shared object"},
		{"enable -nf ./x.so x", "enable -f loads a builtin from a shared object"},
		{"enable $o ./x.so x", "the word $o may be an option of enable, known only when it runs"},
		{"enable -n echo", ""},
		{"mapfile -tC 'rm x' a", "mapfile -C runs a string for every line it reads"},
		{"readarray -C 'rm x' a", "readarray -C runs a string for every line it reads"},
		{"mapfile -t a", ""},
		// -d takes the rest of its cluster: C is the delimiter.
		{"mapfile -dC a", ""},
	} {
		s := splitOne(t, c.command)
		if s.Unseen != c.unseen {
			t.Errorf("%q: unseen %q, want %q", c.command, s.Unseen, c.unseen)
		}
	}
}

// splitOne is the first subject of a command, the command itself.
func splitOne(t *testing.T, command string) agentpolicy.Subject {
	t.Helper()
	subjects, err := Subjects()(commandArgs(command))
	if err != nil || len(subjects) == 0 {
		t.Fatalf("%q: %d subjects, %v", command, len(subjects), err)
	}
	return subjects[0]
}

// TestPrintsHowANameRuns holds type and command -v, which print how a
// name would run and run nothing, to being read-only with no rule when
// every word is known; command -p runs the name and is decided as it.
func TestPrintsHowANameRuns(t *testing.T) {
	split := Subjects(WithReadOnlyField("read_only"))
	for _, c := range []struct {
		command  string
		readOnly bool
	}{
		{"type git", true},
		{"type -t git", true},
		{"type -a ls", true},
		{"type -x git", false},
		{"type $(rm x)", false},
		{"type *", false},
		{"command -v git", true},
		{"command -V git", true},
		{"command -pv git", true},
		{"command -v $HOME", false},
		{"command -v *", false},
		{"command -p rm x", false},
	} {
		subjects, err := split(commandArgs(c.command))
		if err != nil {
			t.Fatal(err)
		}
		if got := containsReadOnly(subjects[0].Args); got != c.readOnly {
			t.Errorf("%q: read-only %v, want %v (%s)", c.command, got, c.readOnly, subjects[0].Args)
		}
	}
	// The command command -p runs is a subject of its own.
	subjects, err := split(commandArgs("command -p rm x"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range subjects {
		found = found || string(s.Args) == string(commandArgs("rm x"))
	}
	if !found {
		t.Errorf("command -p rm x: no subject for rm x among %d", len(subjects))
	}
}

// TestXargsReplaceIsRead reads xargs's -I, -i and --replace with the
// option reader, so an abbreviation or a cluster that puts the words
// xargs reads in the command's name asks, beside twins that do not.
func TestXargsReplaceIsRead(t *testing.T) {
	const named = "xargs puts the words it reads in the name of the command it runs"
	for _, c := range []struct {
		command, unseen string
	}{
		{"xargs --repl=ca cat", named},
		{"xargs --replace=ca cat", named},
		{"xargs -0I ca cat", named},
		{"xargs -0ica cat", named},
		{"xargs -I X cat X", ""},
		{"xargs --repl=X cat X", ""},
		{"xargs -0 cat", ""},
	} {
		if s := splitOne(t, c.command); s.Unseen != c.unseen {
			t.Errorf("%q: unseen %q, want %q", c.command, s.Unseen, c.unseen)
		}
	}
}

// TestBuiltinsReadAgainstTheirOptions reads read and trap with the option
// reader: an option the builtin does not have asks (bash refuses it and
// the splitter cannot tell what the words after it are), and a value
// taken by an option is not a variable read sets.
func TestBuiltinsReadAgainstTheirOptions(t *testing.T) {
	for _, c := range []struct {
		command, unseen string
	}{
		{"read -z x", "read -z is not an option the splitter knows"},
		{"read -ra PATH", "PATH changes which program a name runs"},
		{"read -rp prompt PATH", "PATH changes which program a name runs"},
		{"read -p PATH x", ""},
		{"read -r line", ""},
		{"trap -x 'rm -rf /' EXIT", "trap -x is not an option the splitter knows"},
		{"trap -- 'echo hi' EXIT", ""},
		{"trap -p EXIT", ""},
	} {
		if s := splitOne(t, c.command); s.Unseen != c.unseen {
			t.Errorf("%q: unseen %q, want %q", c.command, s.Unseen, c.unseen)
		}
	}
}

// TestBuiltinCallbacksReadByTheOptionReader reads the builtins that keep
// a string to run later with the one option reader: a word made when it
// runs, where an option may stand, may be the option that runs a string
// (x='-Crm pwned'; compgen $x); compopt's "+o" is its "-o" turned off;
// fc's negative number is a history entry, not an option.
func TestBuiltinCallbacksReadByTheOptionReader(t *testing.T) {
	for _, c := range []struct {
		command, unseen string
	}{
		{"compgen $x", "the word $x may be an option of compgen, known only when it runs"},
		{"compgen -f -- \"$x\"", ""},
		{"compopt +o nospace", ""},
		{"compopt +C rm x", "compopt -C runs a command when it completes"},
		{"compgen -Z x", "compgen -Z is not an option the splitter knows"},
		{"fc -l -10", ""},
		{"fc -ln -5 -1", ""},
		{"bind $k", "the word $k may be an option of bind, known only when it runs"},
		{"bind -l", ""},
		{"wait $pid", ""},
		{"wait -n", ""},
		{"enable -n echo", ""},
		{"hash -r", ""},
		{"hash -p /tmp/x ls", "hash -p changes which program a name runs"},
	} {
		if s := splitOne(t, c.command); s.Unseen != c.unseen {
			t.Errorf("%q: unseen %q, want %q", c.command, s.Unseen, c.unseen)
		}
	}
}

// TestFdExecIsFound finds the command fd's -x and -X run however fd 8
// reads them (each checked with fdfind 8.6): clustered after a flag
// (-Hx), joined (--exec=CMD, -xCMD: the command is that one word), and
// after the ";" that ends one,
// more options; a word that may be -x, or an option fd does not have,
// asks; an abbreviation is no option to fd, so --exe asks too.
func TestFdExecIsFound(t *testing.T) {
	for _, c := range []struct {
		command, unseen string
		runs            []string
	}{
		{"fd -Hx rm {} ;", "", []string{"rm {}"}},
		{"fd --exec=rm x", "", []string{"rm {}"}},
		{"fdfind -xrm", "", []string{"rm {}"}},
		{"fd a -x echo {} \\; -X rm", "", []string{"echo {}", "rm {}"}},
		{"fd -e tmp -x rm {}", "", []string{"rm {}"}},
		{"fd -d1x rm", "", nil}, // -d takes "1x" as its value
		{"fd $o rm", "the word $o may be an option of fd, known only when it runs", nil},
		{"fd --exe rm", "fd --exe is an ambiguous abbreviation", nil},
		{"fd --exec-b rm", "fd --exec-batch runs a command the splitter cannot find", nil},
		{"fd --frobnicate x", "fd --frobnicate is not an option the splitter knows", nil},
		{"fd -H -e go pattern src", "", nil},
		{"fd -- -x rm", "", nil},
	} {
		subjects, err := Subjects()(commandArgs(c.command))
		if err != nil {
			t.Fatal(err)
		}
		if subjects[0].Unseen != c.unseen {
			t.Errorf("%q: unseen %q, want %q", c.command, subjects[0].Unseen, c.unseen)
		}
		for _, run := range c.runs {
			found := false
			for _, s := range subjects[1:] {
				found = found || string(s.Args) == string(commandArgs(run))
			}
			if !found {
				t.Errorf("%q: no subject for %q", c.command, run)
			}
		}
	}
}

// TestPrintfReadAgainstItsOptions reads printf with the option reader,
// as bash 5.2 does (checked): -v is an option only before the format,
// so printf %s -vPATH prints "-vPATH" and is read-only, while printf
// -vPATH sets PATH; an option printf does not have asks.
func TestPrintfReadAgainstItsOptions(t *testing.T) {
	split := Subjects(WithReadOnlyField("read_only"))
	for _, c := range []struct {
		command, unseen string
		readOnly        bool
	}{
		{"printf %s -vPATH", "", true},
		{"printf -vPATH %s x", "PATH changes which program a name runs", false},
		{"printf -v PATH %s x", "PATH changes which program a name runs", false},
		{"printf -v x %s y", "", false},
		{"printf -z x", "printf -z is not an option the splitter knows", false},
		{"printf -- -z", "", true},
	} {
		subjects, err := split(commandArgs(c.command))
		if err != nil {
			t.Fatal(err)
		}
		if subjects[0].Unseen != c.unseen || containsReadOnly(subjects[0].Args) != c.readOnly {
			t.Errorf("%q: unseen %q, read-only %v; want %q, %v", c.command, subjects[0].Unseen, containsReadOnly(subjects[0].Args), c.unseen, c.readOnly)
		}
	}
}
