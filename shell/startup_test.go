package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// startupCases are commands whose shells run, or do not run, the file
// .env as a startup file, as real bash and dash do: each spelling the
// splitter reads as a read of .env, and twins that run nothing first.
// Some the splitter holds to a read of .env though this shell runs none
// (marked held): a variable set but not exported, or ENV handed to a
// shell that is not interactive, reaches any shell a later program
// starts with it, exported or interactive.
var startupCases = []struct {
	command    string
	runs, held bool
}{
	{"BASH_ENV=.env bash -c :", true, true},
	{"env BASH_ENV=.env bash -c :", true, true},
	{"env -i BASH_ENV=.env bash -c :", true, true},
	{"export BASH_ENV=.env; bash -c :", true, true},
	{"declare -x BASH_ENV=.env; bash -c :", true, true},
	{"BASH_ENV=.env; export BASH_ENV; bash -c :", true, true},
	{"export BASH_ENV; BASH_ENV=.env; bash -c :", true, true},
	{"set -a; BASH_ENV=.env; bash -c :", true, true},
	{"env -S 'BASH_ENV=.env bash -c :'", true, true},
	{"env -iS 'BASH_ENV=\".env\" bash -c :'", true, true},
	{"printf -v BASH_ENV .env; export BASH_ENV; bash -c :", true, true},
	{"read BASH_ENV <<< .env; export BASH_ENV; bash -c :", true, true},
	{"cd sub; export BASH_ENV=.env; cd ..; bash -c :", true, true},
	{"bash -c 'export BASH_ENV=.env; bash -c :'", true, true},
	{"f() { local -x BASH_ENV=.env; bash -c :; }; f", true, true},
	{"export BASH_ENV=.env; ./build.sh", true, true},
	{"export ENV=.env; sh -i -c : </dev/null", true, true},
	{"set -k; bash -c : BASH_ENV=.env", true, true},
	{"export ENV=.env; bash --posix -i -c : </dev/null", true, true},
	{"BASH_ENV=.env; bash -c :", false, true},
	{"export ENV=.env; sh -c :", false, true},
	{"export ENV=.env; bash --posix -c :", false, true},
	{"BASH_ENV= bash -c :", false, false},
	{"env BASH_ENV= bash -c :", false, false},
	{"env LANG=C bash -c :", false, false},
	{"export FOO=.env; bash -c :", false, false},
	{"env -S 'LANG=C bash -c :'", false, false},
}

// TestStartupFilesAsBash runs each of startupCases in real bash, in a
// directory whose .env prints a marker, and holds the splitter to what
// it did: a command whose shell ran .env has a read of .env among its
// subjects, and so has one marked held; the others have none.
func TestStartupFilesAsBash(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		".env":     "echo STARTUP-RAN\n",
		"build.sh": "#!/bin/bash\n:\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	split := Subjects(WithReadTool("read", "path"))
	for _, c := range startupCases {
		cmd := exec.Command("bash", "-c", c.command)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir}
		out, _ := cmd.CombinedOutput()
		if ran := strings.Contains(string(out), "STARTUP-RAN"); ran != c.runs {
			t.Errorf("%q: bash ran .env first: %v, want %v (%s)", c.command, ran, c.runs, out)
		}
		subjects, err := split(commandArgs(c.command))
		if err != nil {
			t.Fatalf("%q: %v", c.command, err)
		}
		read := false
		for _, s := range subjects {
			read = read || s.Tool == "read" && strings.Contains(string(s.Args), `".env"`)
		}
		if read != c.held {
			t.Errorf("%q: a read of .env among the subjects: %v, want %v", c.command, read, c.held)
		}
	}
}
