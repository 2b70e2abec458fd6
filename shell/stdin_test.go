package shell

import "testing"

// stdinCases are programs fed their code from their input, each attack
// beside a harmless twin. Bash runs each in an empty directory: an attack
// creates the file pwned and must be unseen; a twin creates nothing and
// must not be.
var stdinCases = []pwnedCase{
	{"printf 'touch\\x20pwned' | xargs -0 sh -c", true}, {"printf 'touch pwned' | xargs -0 echo", false},
	{"printf 'touch\\x20pwned' | xargs -0 bash -c", true}, {"printf 'touch pwned' | xargs -0 printf '%s\\n'", false},
	{"printf -- '-exec\\ntouch\\npwned\\n;\\n' | xargs find . -maxdepth 0", true}, {"printf -- '-l\\n' | xargs ls", false},
	{"printf 'pwned\\x0a' | xargs touch", true}, {"printf 'pwned\\n' | xargs grep -s x", false},
	{"printf 'core.x=1 touch pwned' | xargs env", true}, {"printf 'x' | xargs wc -c", false},
	{"printf 'touch\\x20pwned' | xargs -I{} sh -c {}", true}, {"printf 'touch pwned' | xargs -I{} echo {}", false},
	{"printf 'touch pwned' | xargs xargs", true}, {"printf 'touch pwned' | xargs", false},
	{"printf 'touch pwned' | bash /dev/stdin", true}, {"printf 'touch pwned' | cat /dev/stdin", false},
	{"printf 'touch pwned' | sh /dev/fd/0", true}, {"printf 'touch pwned' | cat /dev/fd/0", false},
	{"printf 'touch pwned' | sh /proc/self/fd/0", true}, {"printf 'touch pwned' | head /proc/self/fd/0", false},
	{"printf 'touch pwned' | bash -- /dev/stdin", true}, {"printf 'touch pwned' | bash -c 'cat /dev/stdin'", false},
}

func TestStdin(t *testing.T) {
	checkPwned(t, stdinCases)
}

// TestStdinUnseen checks the commands whose input bash cannot be shown
// to run here: the reason each gives, beside a twin that gives none.
func TestStdinUnseen(t *testing.T) {
	for _, c := range []struct{ command, why string }{
		{"find . -exec sh -c {} \\;", "the command name {} is replaced by find or xargs when it runs"},
		{"find . -exec sh -c 'echo \"$1\"' _ {} \\;", ""},
		{"find . -exec {} \\;", "the command name {} is replaced by find or xargs when it runs"},
		// GNU xargs replaces only in the arguments; others may replace
		// in the name too.
		{"xargs -I{} {} x", "xargs puts the words it reads in the name of the command it runs"},
		{"xargs -I % % x", "xargs puts the words it reads in the name of the command it runs"},
		{"xargs -I % echo % x", ""},
		{"find . -exec sh -c +", "sh -c has no string: what runs it, xargs or find, supplies one"},
		{"python3 /dev/stdin", "python3 reads its program from /dev/stdin, which no rule reads"},
		{"python3 ./tool.py", "python3 runs the program in ./tool.py, which no rule reads"},
		{"node /proc/123/fd/0", "node reads its program from /proc/123/fd/0, which no rule reads"},
		{"node ./proc/123/fd/0", "node runs the program in ./proc/123/fd/0, which no rule reads"},
		{"bash /dev/tcp/host/80", "bash reads its program from /dev/tcp/host/80, which no rule reads"},
	} {
		subjects, err := Subjects()(commandArgs(c.command))
		if err != nil {
			t.Fatal(err)
		}
		unseen := ""
		for _, s := range subjects {
			unseen = firstOf(unseen, s.Unseen)
		}
		if unseen != c.why {
			t.Errorf("%s: unseen %q, want %q", c.command, unseen, c.why)
		}
	}
}

// TestAppendSafe holds the trait derived from the table to the programs
// known safe with any words appended, and not to those that are not.
func TestAppendSafe(t *testing.T) {
	for _, name := range []string{"echo", "printf", "cat", "grep", "egrep", "fgrep", "wc", "ls", "head", "tail", "stat", "du",
		"basename", "dirname", "realpath", "readlink", "md5sum", "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "test", "[", "true", "false"} {
		if !appendSafe(name) {
			t.Errorf("%s is not append-safe", name)
		}
	}
	for _, name := range []string{"sort", "uniq", "file", "diff", "rg", "date", "cp", "rm", "tee", "sh", "env", "find", "git", "xargs", "sed", "awk", "python3", "unknown-program"} {
		if appendSafe(name) {
			t.Errorf("%s is append-safe", name)
		}
	}
}
