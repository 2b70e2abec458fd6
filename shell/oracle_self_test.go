package shell

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// TestOracleSandbox checks that the sandbox records what the oracle relies
// on: every program with its own name and its parent, the real programs'
// own starts and writes, the file changes, and nothing writable outside the
// three file systems.
func TestOracleSandbox(t *testing.T) {
	box, err := startSandbox(layOracle(t))
	if err != nil {
		t.Fatalf("the bash oracle's sandbox: %v", err)
	}
	defer box.close()
	for _, c := range []struct {
		command, execs, changes string
	}{
		{"touch pwned", `touch ["pwned"]`, "created /w/pwned"},
		{"exec -a name rm -f a.txt", `rm ["-f" "a.txt"]`, "deleted /w/a.txt"},
		{"sh -c 'ls; ls -a'", `sh ["-c" "ls; ls -a"], ls [] < sh, ls ["-a"] < sh`, ""},
		{"env -i nice ls", `env ["-i" "nice" "ls"], nice ["ls"], ls []`, ""},
		{"echo a.txt | xargs cat", `xargs ["cat"], cat ["a.txt"] < xargs`, ""},
		{"echo x > ~/new", "", "created /home/o/new"},
		{"chmod 600 .env; echo x >> dir/c.txt", `chmod ["600" ".env"]`, "modified /w/.env, modified /w/dir/c.txt"},
		{"echo x > /usr/bin/ls; echo y > /etc/x; echo z > /oracle/driver", "", ""},
		{"cd dir && touch new", `touch ["new"]`, "created /w/dir/new"},
		{"mkdir -p x/y", `mkdir ["-p" "x/y"]`, "created /w/x, created /w/x/y"},
	} {
		res, err := box.run(c.command)
		if err != nil {
			t.Fatalf("%q: %v", c.command, err)
		}
		// Each program, and the program that started it when that was
		// another recorded one (exec keeps the pid, a child gets its own).
		var execs, changes []string
		byPid := map[int]oracleExec{}
		for _, e := range res.Execs {
			s := showArgs(e)
			if p, ok := byPid[e.Ppid]; ok {
				s += " < " + strings.Fields(showArgs(p))[0]
			}
			byPid[e.Pid] = e
			execs = append(execs, s)
		}
		for _, ch := range res.Changes {
			changes = append(changes, ch.Kind+" "+ch.Path)
		}
		if got := strings.Join(execs, ", "); got != c.execs {
			t.Errorf("%q ran %s, want %s", c.command, got, c.execs)
		}
		if got := strings.Join(changes, ", "); got != c.changes {
			t.Errorf("%q changed %s, want %s", c.command, got, c.changes)
		}
	}
}

// showArgs renders a program and its arguments as the sandbox test
// writes them.
func showArgs(e oracleExec) string {
	args, _ := json.Marshal(e.Argv[1:])
	return fmt.Sprintf("%s %s", e.Exe[strings.LastIndexByte(e.Exe, '/')+1:], strings.ReplaceAll(string(args), ",", " "))
}

// TestOracleCheck holds the oracle's rules to what they must find: a
// program or a change the subjects do not name is a problem, and what the
// rules accept is not.
func TestOracleCheck(t *testing.T) {
	cmd := func(command string, constrain bool) agentpolicy.Subject {
		args, _ := json.Marshal(map[string]string{"command": command})
		return agentpolicy.Subject{Args: args, Text: command, Constrain: constrain}
	}
	write := func(path, text string) agentpolicy.Subject {
		args, _ := json.Marshal(map[string]string{"path": path})
		return agentpolicy.Subject{Tool: "write", Args: args, Text: text}
	}
	run := func(pid, ppid int, argv ...string) oracleExec {
		return oracleExec{Exe: "/usr/bin/" + argv[0], Argv: argv, Cwd: "/w", Pid: pid, Ppid: ppid}
	}
	for _, c := range []struct {
		name, command string
		subjects      []agentpolicy.Subject
		execs         []oracleExec
		changes       []oracleChange
		problems      int
	}{
		{"named", "rm -f x", []agentpolicy.Subject{cmd("rm -f x", false)}, []oracleExec{run(2, 1, "rm", "-f", "x")}, nil, 0},
		{"not named", "rm -f x", []agentpolicy.Subject{cmd("ls", false)}, []oracleExec{run(2, 1, "rm", "-f", "x")}, nil, 1},
		{"other arguments", "rm -f x", []agentpolicy.Subject{cmd("rm -f y", false)}, []oracleExec{run(2, 1, "rm", "-f", "x")}, nil, 1},
		{"a path names the base name", "/bin/rm x", []agentpolicy.Subject{cmd("/bin/rm x", false)}, []oracleExec{{Exe: "/usr/bin/rm", Argv: []string{"/bin/rm", "x"}, Pid: 2, Ppid: 1}}, nil, 0},
		{"exec -a", "exec -a n rm x", []agentpolicy.Subject{cmd("rm x", false)}, []oracleExec{{Exe: "/usr/bin/rm", Argv: []string{"n", "x"}, Pid: 2, Ppid: 1}}, nil, 0},
		{"an expansion stands for any words", "rm $x y", []agentpolicy.Subject{cmd("rm $x y", false)}, []oracleExec{run(2, 1, "rm", "a", "b", "y")}, nil, 0},
		{"an expansion may vanish", "rm $x y", []agentpolicy.Subject{cmd("rm $x y", false)}, []oracleExec{run(2, 1, "rm", "y")}, nil, 0},
		{"literal words stay literal", "rm a y", []agentpolicy.Subject{cmd("rm a y", false)}, []oracleExec{run(2, 1, "rm", "y")}, nil, 1},
		{"a constraint names a wrapper", "env rm x", []agentpolicy.Subject{cmd("env rm x", true), cmd("rm x", false)},
			[]oracleExec{run(2, 1, "env", "rm", "x"), run(2, 1, "rm", "x")}, nil, 0},
		{"the wrapper's command must be named", "env rm x", []agentpolicy.Subject{cmd("env rm x", true)},
			[]oracleExec{run(2, 1, "env", "rm", "x"), run(2, 1, "rm", "x")}, nil, 1},
		{"xargs appends words", "xargs rm", []agentpolicy.Subject{cmd("xargs rm", true), cmd("rm", false)},
			[]oracleExec{run(2, 1, "xargs", "rm"), run(3, 2, "rm", "a", "b")}, nil, 0},
		{"only what xargs starts gets words", "rm", []agentpolicy.Subject{cmd("rm", false)}, []oracleExec{run(3, 1, "rm", "a")}, nil, 1},
		{"xargs -I's string", "xargs -I% rm %", []agentpolicy.Subject{cmd("xargs -I% rm %", true), cmd("rm %", false)},
			[]oracleExec{run(2, 1, "xargs", "-I%", "rm", "%"), run(3, 2, "rm", "a.txt")}, nil, 0},
		{"a shell a program starts", "flock f -c 'rm x'", []agentpolicy.Subject{cmd("flock f -c rm x", true), cmd("rm x", false)},
			[]oracleExec{run(2, 1, "flock", "f", "-c", "rm x"), run(3, 2, "sh", "-c", "rm x"), run(4, 3, "rm", "x")}, nil, 0},
		{"a shell bash starts", "sh -c 'rm x'", []agentpolicy.Subject{cmd("rm x", false)},
			[]oracleExec{run(3, 1, "sh", "-c", "rm x"), run(4, 3, "rm", "x")}, nil, 1},
		{"a write named", "echo > f", []agentpolicy.Subject{cmd("echo", false), write("f", "f")}, nil, []oracleChange{{"/w/f", "created"}}, 0},
		{"a write not named", "echo > f", []agentpolicy.Subject{cmd("echo", false)}, nil, []oracleChange{{"/w/f", "created"}}, 1},
		{"a write elsewhere", "cd d && echo > f", []agentpolicy.Subject{write("f", "f")}, nil, []oracleChange{{"/w/d/f", "created"}}, 1},
		{"a directory names what is in it", "rm -r d", []agentpolicy.Subject{write("d", "d")}, nil,
			[]oracleChange{{"/w/d", "deleted"}, {"/w/d/c", "deleted"}}, 0},
		{"mkdir -p", "mkdir -p x/y", []agentpolicy.Subject{write("x/y", "x/y")}, nil, []oracleChange{{"/w/x", "created"}, {"/w/x/y", "created"}}, 0},
		{"a changed parent is not named by its child", "x", []agentpolicy.Subject{write("x/y", "x/y")}, nil, []oracleChange{{"/w/x", "modified"}}, 1},
		{"~ is HOME", "echo > ~/f", []agentpolicy.Subject{write("~/f", "~/f")}, nil, []oracleChange{{"/home/o/f", "created"}}, 0},
		{"a quoted ~ is a name", `echo > "~"`, []agentpolicy.Subject{write("./~", `"~"`)}, nil, []oracleChange{{"/home/o", "modified"}}, 1},
		{"git's store", "git add a", []agentpolicy.Subject{cmd("git add a", false)}, []oracleExec{run(2, 1, "git", "add", "a")},
			[]oracleChange{{"/w/.git/index", "created"}}, 0},
		{"git's configuration", "git config k v", []agentpolicy.Subject{cmd("git config k v", false)}, []oracleExec{run(2, 1, "git", "config", "k", "v")},
			[]oracleChange{{"/w/.git/config", "modified"}}, 1},
		{"git's store without git", "echo > .git/index", []agentpolicy.Subject{cmd("echo", false)}, nil, []oracleChange{{"/w/.git/index", "modified"}}, 1},
		{"the commit form", "git commit -m \"$(cat <<'EOF'\nm\nEOF\n)\"", []agentpolicy.Subject{cmd("git commit -m m", false)},
			[]oracleExec{run(2, 1, "cat"), run(3, 1, "git", "commit", "-m", "m")}, nil, 0},
		{"a cat elsewhere", "git commit -m \"$(cat m)\"", []agentpolicy.Subject{cmd("git commit -m $(cat m)", false)},
			[]oracleExec{run(2, 1, "cat"), run(3, 1, "git", "commit", "-m", "m")}, nil, 1},
		{"tar's compressor", "tar czf a.tgz a", []agentpolicy.Subject{cmd("tar czf a.tgz a", false), write("a.tgz", "a.tgz")},
			[]oracleExec{run(2, 1, "tar", "czf", "a.tgz", "a"), run(3, 2, "sh", "-c", "gzip"), run(4, 3, "gzip")}, []oracleChange{{"/w/a.tgz", "created"}}, 0},
		{"gzip bash starts", "gzip a", []agentpolicy.Subject{cmd("ls", false)}, []oracleExec{run(2, 1, "gzip", "a")}, nil, 1},
	} {
		problems := checkResult(c.command, c.subjects, &oracleResult{Execs: c.execs, Changes: c.changes})
		if len(problems) != c.problems {
			t.Errorf("%s: %q: %d problems %q, want %d", c.name, c.command, len(problems), problems, c.problems)
		}
	}
	if !slices.Equal(splitWords("a $(b c) `d e` ${f g}"), []string{"a", "$(b c)", "`d e`", "${f g}"}) {
		t.Errorf("splitWords keeps a substitution whole: %q", splitWords("a $(b c) `d e` ${f g}"))
	}
}
