package shell

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// The traced oracle: the real programs of the tables run in bubblewrap
// under strace -f, over a scratch project and HOME seeded with sentinel
// files, and every file of that zone a command really reads, writes or
// runs must be a subject the splitter returned, or the call must ask.
const (
	traceProject = "/tmp/w"
	traceHome    = "/tmp/h"
)

// traceSetup lays out the zone anew before each command: the agent's
// settings, a repository with a hook, secrets, plain files, and a file
// outside both working directories.
const traceSetup = `rm -rf /tmp/w /tmp/h /tmp/outside; mkdir -p /tmp/w/.claude /tmp/w/.git/hooks /tmp/w/.git/objects /tmp/w/.git/refs/heads /tmp/w/secrets /tmp/w/dir /tmp/w/docs /tmp/h/.ssh /tmp/h/.aws /tmp/outside
printf '{}\n' > /tmp/w/.claude/settings.json; printf '[core]\n' > /tmp/w/.git/config; printf 'ref: refs/heads/main\n' > /tmp/w/.git/HEAD
printf '#!/bin/sh\n' > /tmp/w/.git/hooks/pre-commit; chmod +x /tmp/w/.git/hooks/pre-commit
printf 'SECRET=1\n' > /tmp/w/.env; printf 'key\n' > /tmp/w/secrets/key; printf 'a\n' > /tmp/w/a.txt; printf 'c\n' > /tmp/w/dir/c.txt
printf 'id\n' > /tmp/h/.ssh/id_rsa; printf 'aws\n' > /tmp/h/.aws/credentials; printf 'out\n' > /tmp/outside/secret
cd /tmp/w`

// traceOperands are the ways a generated command names a sentinel:
// directly, inside a directory, through "..", through a link made
// earlier in the same call, as the directory itself, and absolutely.
var traceOperands = []struct{ before, operand string }{
	{"", ".env"},
	{"", "secrets/key"},
	{"", "dir/../.env"},
	{"ln -s .env l && ", "l"},
	{"", ".claude"},
	{"", "/tmp/h/.ssh/id_rsa"},
	{"", ".git/config"},
	{"", "/tmp/outside/secret"},
}

// traceCommands generates the oracle's input from the table of programs:
// every command read against its options, with no option and with each option its table knows,
// long ones whole and abbreviated, short ones alone, joined to their
// value and clustered with the next, the operands rotating through
// traceOperands.
func traceCommands() []string {
	var out []string
	names := slices.Sorted(func(yield func(string) bool) {
		for name, prog := range programs() {
			if prog.files != nil && !yield(name) {
				return
			}
		}
	})
	n := 0
	next := func() (string, string) {
		o := traceOperands[n%len(traceOperands)]
		n++
		return o.before, o.operand
	}
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil || traceSkipped[name] {
			continue
		}
		before, operand := next()
		out = append(out, before+name+" "+operand+" a.txt")
		x := programs()[name].flags.indexed()
		var shorts []flag
		for _, f := range x.short {
			shorts = append(shorts, f)
		}
		slices.SortFunc(shorts, func(a, b flag) int { return strings.Compare(a.name, b.name) })
		for i, f := range append(shorts, x.long...) {
			before, operand := next()
			value := "1"
			if f.effect == readsArg || f.effect == writesArg || f.effect == listsFiles {
				value = operand
			}
			var opt string
			switch {
			case len(f.name) == 1 && f.arity == bare && i+1 < len(shorts) && shorts[i+1].arity == bare:
				opt = "-" + f.name + shorts[i+1].name
			case len(f.name) == 1 && f.arity == bare:
				opt = "-" + f.name
			case len(f.name) == 1 && (f.arity == optional || i%2 == 0):
				opt = "-" + f.name + value
			case len(f.name) == 1:
				opt = "-" + f.name + " " + value
			case f.arity == bare && i%2 == 1 && len(f.name) > 4:
				opt = "--" + f.name[:len(f.name)-1]
			case f.arity == bare:
				opt = "--" + f.name
			case f.arity == optional || i%2 == 0:
				opt = "--" + f.name + "=" + value
			default:
				opt = "--" + f.name + " " + value
			}
			out = append(out, before+name+" "+opt+" "+operand+" a.txt")
		}
	}
	return out
}

// traceWrapperCommands generates the oracle's input from the wrappers of
// the table found on the machine: each bare, and with each option its
// table knows alone (its value the operand when it names a file, else
// "1"), running cat on an operand of traceOperands. time is a keyword of
// bash, so the program is run through command.
func traceWrapperCommands() []string {
	var out []string
	n := 0
	for _, name := range slices.Sorted(maps.Keys(programs())) {
		prog := programs()[name]
		if _, err := exec.LookPath(name); err != nil || prog.wraps == nil || prog.wraps.resolves || traceLeavesOut[name] {
			continue
		}
		run := name
		if name == "time" {
			run = "command time"
		}
		x := prog.flags.indexed()
		options := []string{""}
		for _, f := range slices.SortedFunc(maps.Values(x.short), func(a, b flag) int { return strings.Compare(a.name, b.name) }) {
			options = append(options, traceOption("-"+f.name, f))
		}
		for _, f := range x.long {
			options = append(options, traceOption("--"+f.name, f))
		}
		for _, opt := range options {
			o := traceOperands[n%len(traceOperands)]
			n++
			if opt != "" {
				opt = strings.ReplaceAll(opt, "{F}", o.operand) + " "
			}
			out = append(out, o.before+run+" "+opt+strings.Repeat("1 ", prog.wraps.operands)+"cat "+o.operand+" a.txt")
		}
	}
	return out
}

// traceLeavesOut are the wrappers the oracle does not run: systemd-run
// and pkexec ask a service outside the sandbox to run the command, and
// nsenter enters another process's namespaces. Nor does it run the
// project runners (npx), which write their own caches and logs under
// HOME and are decided in full as written, never read-only.
var traceLeavesOut = map[string]bool{"systemd-run": true, "pkexec": true, "nsenter": true}

// traceOption is an option of a wrapper as the oracle gives it, with
// {F} for a file it names.
func traceOption(written string, f flag) string {
	value := "1"
	if f.effect == readsArg || f.effect == writesArg || f.effect == listsFiles {
		value = "{F}"
	}
	switch {
	case f.arity == bare:
		return written
	case len(f.name) == 1 && f.arity == optional:
		return written + value
	case len(f.name) == 1:
		return written + " " + value
	}
	return written + "=" + value
}

// traceTemplates are commands of the programs the table of programs
// does not hold, whose grammar is a language or a mode read by its own
// code (sed, awk, find, tar, git, jq, dd), and the wrappers, shells and
// redirects around a program, each run with {F} replaced by every form of
// traceOperands.
var traceTemplates = []string{
	"sed -n p {F}", "sed -n 'r {F}' a.txt", "sed '0r {F}' a.txt", "sed -n '$R {F}' a.txt", "sed -n 'w {F}' a.txt",
	"sed -n 's/a/b/w {F}' a.txt", "sed -i s/a/b/ {F}", "sed -i.bak s/a/b/ {F}", "sed -f {F} a.txt",
	"awk '{print}' {F}", "awk 'BEGIN{getline l < \"{F}\"; print l}'", "awk '{print > \"{F}\"}' a.txt",
	"find {F}", "find . -newer {F}", "find . -fprint {F}", "find . -name a.txt -exec cat {F} \\;",
	"find . -name a.txt -execdir cat {F} \\;", "find {F} -delete",
	"tar -cf {F} a.txt", "tar -cf out.tar {F}", "tar -C dir -cf out.tar ../{F}", "tar -C dir -C .. -cf out.tar {F}", "tar -cf out.tar --remove-files {F}",
	"tar -tf {F}", "tar -xf {F}", "tar -cf out.tar -T {F}", "tar -czf out.tgz {F}",
	"git diff {F} a.txt", "git diff --no-index {F} a.txt", "git config --file {F} --list", "git config -f {F} a.b c",
	"git commit -F {F}", "git grep --no-index -e x {F}", "git grep --untracked -e x {F}", "git log --output={F}",
	"git clone {F} cloned", "git init {F}",
	"jq . {F}", "jq -n --rawfile s {F} '$s'", "jq -n --slurpfile s {F} '$s'", "jq . a.txt {F}",
	"dd if={F} of=out", "dd if=a.txt of={F}",
	"env cat {F}", "nice cp {F} out", "timeout 5 mv {F} out", "echo {F} | xargs cat", "bash -c 'cat {F}'",
	"sh -c 'cp a.txt {F}'", "cat < {F}", "echo x > {F}", "echo x >> {F}", "tee {F} < a.txt", "cd dir && cat ../{F}",
	"cat $(echo {F})", "cat \"{F}\"", "x={F}; cat $x",
	// Forms issue 29's red team added: sed's -s and --follow-symlinks,
	// awk's and date's files, a checksum list, and git's operands.
	"sed -s -n 'r {F}' a.txt", "sed -i --follow-symlinks s/a/b/ {F}", "sed -n 's/a/b/gw {F}' a.txt",
	"awk -f {F} a.txt", "awk -f /dev/null {F}", "date -f {F}", "date --file={F}",
	"printf '00000000000000000000000000000000  {F}\\n' > sums && md5sum -c sums", "md5sum --check {F}",
	"git add {F}", "git add -A", "git hash-object {F}", "git hash-object -w {F}", "git update-index --add {F}",
	"git blame {F}", "git blame --contents={F} a.txt", "git grep -e x {F}", "git grep x -- {F}",
	"git checkout -- {F}", "git restore {F}", "git rm --cached {F}", "git mv {F} moved", "git mv a.txt {F}",
	"git stash push -- {F}", "git worktree add {F}", "git bundle create {F} HEAD", "git archive -o out.tar HEAD {F}",
	"git log -L1,1:{F}", "git log -p -- {F}", "git show HEAD:{F}", "git diff-index -p HEAD {F}", "git diff-files -p {F}",
	"git apply {F}", "git am {F}", "git checkout-index -f -- {F}", "git merge-file {F} a.txt a.txt", "git format-patch -o {F} HEAD", "git notes add -F {F}",
}

// traceHookCommands are the templates with each form of operand.
func traceHookCommands() []string {
	var out []string
	for _, tmpl := range traceTemplates {
		name, _, _ := strings.Cut(tmpl, " ")
		if _, err := exec.LookPath(name); err != nil && !strings.Contains(name, "=") {
			continue
		}
		for _, o := range traceOperands {
			out = append(out, o.before+strings.ReplaceAll(tmpl, "{F}", o.operand))
		}
	}
	return out
}

// traceSkipped are the programs of the table the oracle does not run:
// editors and pagers that wait on a terminal, and programs that reach
// the network.
var traceSkipped = map[string]bool{"vi": true, "vim": true, "nvim": true, "ex": true, "view": true, "man": true, "ssh": true, "scp": true, "sftp": true, "rsync": true}

// TestTraceOracle runs the generated commands and holds every access in
// the zone to the subjects. It needs bwrap and strace.
func TestTraceOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("the traced oracle runs real programs; -short leaves it out")
	}
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Fatal("the traced oracle runs commands in bubblewrap, which is not installed")
	}
	if _, err := exec.LookPath("strace"); err != nil {
		t.Fatal("the traced oracle traces commands with strace, which is not installed")
	}
	commands := slices.Concat(traceCommands(), traceWrapperCommands(), traceHookCommands())
	if only := os.Getenv("TRACE_ONLY"); only != "" {
		// A subset, while a table is being checked: the commands that
		// hold the text.
		commands = slices.DeleteFunc(commands, func(c string) bool { return !strings.Contains(c, only) })
	}
	dir := t.TempDir()
	input := filepath.Join(dir, "commands")
	if err := os.WriteFile(input, []byte(strings.Join(commands, "\x00")+"\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	traces := filepath.Join(dir, "traces")
	if err := os.Mkdir(traces, 0o755); err != nil {
		t.Fatal(err)
	}
	driver := traceSetup + `
i=0
while IFS= read -r -d '' cmd; do
	( ` + traceSetup + `
	timeout -s KILL 3 strace -f -qq -y -o /tmp/trace/$i -e trace=%file,%process,fchdir,fchmod,fchown bash -c "$cmd" </dev/null >/dev/null 2>&1 )
	i=$((i+1))
done < /tmp/commands`
	run := exec.Command(bwrap, "--ro-bind", "/", "/", "--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev",
		"--bind", traces, "/tmp/trace", "--ro-bind", input, "/tmp/commands", "--unshare-all", "--die-with-parent",
		"--setenv", "HOME", traceHome, "--setenv", "LC_ALL", "C", "--chdir", "/", "bash", "-c", driver)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("the sandbox: %v\n%s", err, out)
	}
	split := Subjects(WithReadTool("read", "path"), WithWriteTool("write", "path"))
	var accesses, asked, disagreements int
	for i, command := range commands {
		data, err := os.ReadFile(filepath.Join(traces, fmt.Sprint(i)))
		if err != nil {
			t.Fatalf("%q left no trace: %v", command, err)
		}
		subjects, err := split(commandArgs(command))
		if err != nil {
			t.Fatalf("%q: %v", command, err)
		}
		reads, writes, unseen := traceSubjects(subjects)
		for _, a := range traceAccesses(string(data)) {
			accesses++
			if unseen {
				asked++
				continue
			}
			if !covered(a, reads, writes) {
				disagreements++
				t.Errorf("%q %ss %s; subjects: reads %v, writes %v", command, a.kind, a.path, reads, writes)
			}
		}
	}
	t.Logf("%d commands, %d accesses in the zone, %d in calls that ask, %d disagreements", len(commands), accesses, asked, disagreements)
	if accesses < len(commands)/2 && os.Getenv("TRACE_ONLY") == "" {
		// Most commands name a sentinel they reach: a trace that shows
		// few accesses is a trace the oracle misreads.
		t.Fatalf("%d accesses for %d commands: the traces were not read", accesses, len(commands))
	}
}

// traceSubjects are the absolute paths a split reads and writes, and
// whether the call asks.
func traceSubjects(subjects []agentpolicy.Subject) (reads, writes []string, unseen bool) {
	for _, s := range subjects {
		unseen = unseen || s.Unseen != ""
		value, _, _ := agentpolicy.Field(s.Args, "path")
		if !path.IsAbs(value) {
			value = path.Join(traceProject, value)
		}
		switch s.Tool {
		case "read":
			reads = append(reads, value)
		case "write":
			writes = append(writes, value)
		}
	}
	return reads, writes, unseen
}

// covered reports whether a subject names the file accessed or a
// directory above it: a write of a directory reaches what is in it.
// A read is covered by a write subject too, which the write rules hold.
func covered(a access, reads, writes []string) bool {
	list := writes
	if a.kind == "read" {
		list = append(slices.Clone(reads), writes...)
	}
	for _, p := range list {
		if p == a.path || strings.HasPrefix(a.path, p+"/") {
			return true
		}
	}
	return false
}

// access is one file of the zone a traced command reached.
type access struct{ kind, path string }

// traceLine is one completed system call of strace -f -y.
var traceLine = regexp.MustCompile(`^(\d+)\s+(\w+)\((.*)\)\s+= (\d+)`)

// traceString is a quoted path argument, with the directory of a
// descriptor before it when -y shows one: 3</tmp/w/dir>, "c.txt".
var traceString = regexp.MustCompile(`(?:(-?\d+|AT_FDCWD)(?:<([^>]*)>)?, )?"((?:[^"\\]|\\.)*)"`)

// traceAccesses are the accesses in the zone a trace shows, each path
// resolved against the directory its process was in.
func traceAccesses(trace string) []access {
	cwd, exe := map[string]string{}, map[string]string{}
	var out []access
	// created are the files the command made, transient those of them it
	// renamed away or removed again: a temporary file leaves nothing.
	created, transient := map[string]bool{}, map[string]bool{}
	first := ""
	for _, line := range strings.Split(trace, "\n") {
		m := traceLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		pid, call, args, ret := m[1], m[2], m[3], m[4]
		if first == "" {
			first = pid
			cwd[pid] = traceProject
		}
		dir := cwd[pid]
		if dir == "" {
			dir = traceProject
		}
		switch call {
		case "clone", "clone3", "fork", "vfork":
			cwd[ret], exe[ret] = dir, exe[pid]
			continue
		}
		var paths []string
		for _, s := range traceString.FindAllStringSubmatch(args, -1) {
			base := dir
			if s[2] != "" {
				base = s[2]
			}
			p := s[3]
			if !path.IsAbs(p) {
				p = path.Join(base, p)
			}
			paths = append(paths, path.Clean(p))
		}
		if call == "chdir" && len(paths) > 0 {
			cwd[pid] = paths[0]
			continue
		}
		if call == "fchdir" {
			if d := regexp.MustCompile(`<([^>]*)>`).FindStringSubmatch(args); d != nil {
				cwd[pid] = d[1]
			}
			continue
		}
		kind := traceKind(call, args)
		if kind == "" {
			continue
		}
		if kind == "run" && len(paths) > 0 {
			exe[pid] = path.Base(paths[0])
		}
		if kind == "run" && len(paths) > 1 {
			paths = paths[:1] // the rest are its arguments
		}
		for j, p := range paths {
			k := kind
			switch {
			case (call == "symlink" || call == "symlinkat") && j == 0:
				continue // the link's target is text, not a file reached
			case (call == "link" || call == "linkat") && j == 0:
				k = "read" // a hard link makes the file readable by another name
			case (call == "rename" || call == "renameat" || call == "renameat2" || call == "unlink" || call == "unlinkat") && j == 0 && created[p]:
				transient[p] = true // a temporary file, renamed away or removed
			}
			if strings.Contains(args, "O_CREAT") || j == 1 && (call == "link" || call == "linkat" || call == "symlink" || call == "symlinkat") {
				created[p] = true
			}
			if inZone(p) && !(exe[pid] == "git" && ownRepository(k, p)) {
				out = append(out, access{k, p})
			}
		}
	}
	kept := out[:0]
	for _, a := range out {
		if !transient[a.path] {
			kept = append(kept, a)
		}
	}
	return kept
}

// traceKind is what a call does to the files it names: "read", "write",
// "run", or "" for a call the oracle does not hold (stat, access).
func traceKind(call, args string) string {
	switch call {
	case "open", "openat", "openat2":
		switch {
		case strings.Contains(args, "O_DIRECTORY"):
			return ""
		case strings.Contains(args, "O_WRONLY") || strings.Contains(args, "O_RDWR") || strings.Contains(args, "O_CREAT") || strings.Contains(args, "O_TRUNC"):
			return "write"
		}
		return "read"
	case "creat", "rename", "renameat", "renameat2", "unlink", "unlinkat", "rmdir", "mkdir", "mkdirat",
		"link", "linkat", "symlink", "symlinkat", "chmod", "fchmodat", "chown", "lchown", "fchownat",
		"truncate", "utime", "utimes", "utimensat", "futimesat":
		return "write"
	case "execve", "execveat":
		return "run"
	}
	return ""
}

// ownRepository reports whether git reaching p is git keeping its own
// repository, which the git tables hold rather than file subjects: any
// read under .git, and a write there but of its configuration and hooks,
// which decide what git runs later.
func ownRepository(kind, p string) bool {
	rel, ok := strings.CutPrefix(p, traceProject+"/.git/")
	switch {
	case !ok:
		return false
	case kind == "read":
		return true
	}
	return rel != "config" && !strings.HasPrefix(rel, "hooks")
}

// inZone reports whether a path is in the scratch project or HOME.
func inZone(p string) bool {
	return strings.HasPrefix(p, traceProject+"/") || strings.HasPrefix(p, traceHome+"/")
}

// TestTraceAccesses holds the trace reader to a trace of known calls:
// paths resolved against the directory after chdir and against a
// descriptor's directory, a hard link's source read, a temporary file
// renamed away dropped, execve's arguments no paths, git's own
// repository left to the git tables.
func TestTraceAccesses(t *testing.T) {
	trace := `10    execve("/usr/bin/bash", ["bash", "-c", "x"], 0x1 /* 1 vars */) = 0
10    openat(AT_FDCWD, ".env", O_RDONLY) = 3
10    chdir("dir")                      = 0
10    openat(AT_FDCWD, "../secrets/key", O_RDONLY) = 3
10    clone(child_stack=NULL, flags=SIGCHLD) = 11
11    openat(AT_FDCWD, "c.txt", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 4
11    openat(5</tmp/w/docs>, "d.md", O_RDONLY) = 6
11    openat(AT_FDCWD, "/tmp/w/zitmp", O_RDWR|O_CREAT|O_EXCL, 0600) = 7
11    rename("/tmp/w/zitmp", "/tmp/w/a.zip") = 0
11    linkat(AT_FDCWD, "/tmp/w/.env", AT_FDCWD, "/tmp/w/l", 0) = 0
11    openat(AT_FDCWD, "/tmp/w/missing", O_RDONLY) = -1 ENOENT (No such file or directory)
11    openat(AT_FDCWD, "/usr/lib/x.so", O_RDONLY) = 3
12    execve("/usr/bin/git", ["git", "/tmp/w/.env"], 0x1 /* 1 vars */) = 0
12    openat(AT_FDCWD, "/tmp/w/.git/HEAD", O_RDONLY) = 3
12    openat(AT_FDCWD, "/tmp/w/.git/config", O_WRONLY|O_CREAT, 0666) = 3
`
	want := []access{
		{"read", "/tmp/w/.env"},
		{"read", "/tmp/w/secrets/key"},
		{"write", "/tmp/w/dir/c.txt"},
		{"read", "/tmp/w/docs/d.md"},
		{"write", "/tmp/w/a.zip"},
		{"read", "/tmp/w/.env"},
		{"write", "/tmp/w/l"},
		{"write", "/tmp/w/.git/config"},
	}
	got := traceAccesses(trace)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("accesses:\n got %v\nwant %v", got, want)
	}
	if covered(access{"read", "/tmp/w/.env"}, []string{"/tmp/w/.envx"}, nil) || !covered(access{"write", "/tmp/w/d/x"}, nil, []string{"/tmp/w/d"}) {
		t.Error("covered reads a sibling as the path, or misses a directory above it")
	}
}
