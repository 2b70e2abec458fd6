package shell

import (
	"bufio"
	"debug/elf"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The bash oracle's sandbox: bwrap over an empty root in which every
// program on PATH is a recorder (testdata/oracle/inside), real bash runs
// the command, and the working directory, HOME and /tmp are small tmpfs
// file systems the driver lays out anew and compares for every command.
const (
	oracleWorkDir = "/w"
	oracleHome    = "/home/o"
	oraclePath    = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"
	// oracleLogLimit is the size of the recorders' log file system.
	oracleLogLimit = 8 << 20
)

// oracleFiles are the files every command starts with: the agent's own
// settings, an empty git repository, a secret and a few plain files.
var oracleFiles = []oracleFile{
	{Path: "/w/.claude/settings.local.json", Content: `{"permissions":{"allow":["Bash(echo:*)"]}}` + "\n"},
	{Path: "/w/.git/config", Content: "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"},
	{Path: "/w/.git/HEAD", Content: "ref: refs/heads/main\n"},
	{Path: "/w/.git/objects", Dir: true},
	{Path: "/w/.git/refs/heads", Dir: true},
	{Path: "/w/.env", Content: "SECRET=not-a-secret\n"},
	{Path: "/w/a.txt", Content: "alpha\nbeta\n"},
	{Path: "/w/b.txt", Content: "gamma\n"},
	{Path: "/w/dir/c.txt", Content: "c\n"},
	{Path: "/w/empty", Dir: true},
	{Path: "/w/list", Content: "a.txt\nb.txt\n"},
	{Path: "/home/o/.bashrc", Content: "# rc\n"},
}

// realPrograms run for real in the sandbox once their recorder has logged
// them, so the oracle sees what they start and what they write: shells, so
// the commands of a -c string or a script are recorded in turn; wrappers,
// so the command they really run is; readers that can run a command or
// write a file; git, which runs what its options and configuration name;
// and the writers of the file operands the tables name. git runs its
// built-in commands only: its helper programs are not in the sandbox.
// Every other program is only recorded. All but git come with Debian's
// essential packages, and a machine that cloned this repository has git.
var realPrograms = []string{
	"bash", "sh", "dash",
	"env", "timeout", "nice", "nohup", "setsid", "xargs", "flock",
	"find", "sed", "awk", "sort", "tee", "tar", "cat", "git",
	"touch", "cp", "mv", "rm", "mkdir", "rmdir", "ln", "dd", "truncate", "install", "chmod",
}

// recordedNames are programs recorded even where the machine lacks them,
// since the inputs name them and a program that is not found is a program
// the oracle cannot see run.
var recordedNames = []string{
	"sudo", "doas", "su", "runuser", "script", "git", "rg", "fd", "fdfind", "python3", "python", "node",
	"npm", "npx", "perl", "ruby", "zsh", "ksh", "mksh", "yash", "gawk", "nawk", "curl", "wget",
	"rsync", "ssh", "scp", "vim", "vi", "ex", "man", "zip", "watch", "unbuffer", "ionice", "taskset",
	"stdbuf", "time", "make", "go", "docker", "kubectl", "jq",
}

// oracleFile is one file or directory of the starting layout.
type oracleFile struct {
	Path    string `json:"path"`
	Content string `json:"content"`
	Dir     bool   `json:"dir"`
}

// oracleSetup is the driver's first input (testdata/oracle/inside Setup).
type oracleSetup struct {
	Roots    []string      `json:"roots"`
	Files    []oracleFile  `json:"files"`
	Dir      string        `json:"dir"`
	Env      []string      `json:"env"`
	Timeout  time.Duration `json:"timeout"`
	Grace    time.Duration `json:"grace"`
	LogLimit int64         `json:"log_limit"`
}

// oracleExec is one program the sandbox started, as its recorder logged it.
type oracleExec struct {
	Exe  string   `json:"exe"`
	Argv []string `json:"argv"`
	Cwd  string   `json:"cwd"`
	Pid  int      `json:"pid"`
	Ppid int      `json:"ppid"`
}

// oracleChange is a file a command created, deleted or modified.
type oracleChange struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
}

// oracleResult is what bash did with one command.
type oracleResult struct {
	Execs    []oracleExec   `json:"execs"`
	Changes  []oracleChange `json:"changes"`
	Status   int            `json:"status"`
	Output   string         `json:"output"`
	TimedOut bool           `json:"timed_out"`
	LogFull  bool           `json:"log_full"`
	CPU      time.Duration  `json:"cpu"`
}

// oracleLayout is what every sandbox binds: built once per test run.
type oracleLayout struct {
	bwrap string
	args  []string
}

// layOracle builds the recorder and the tree of names linked to it, and
// finds the real programs and the libraries they load.
func layOracle(t *testing.T) *oracleLayout {
	t.Helper()
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Fatalf("the bash oracle runs commands in bubblewrap, which is not installed: " +
			"apt-get install bubblewrap (Debian and Ubuntu), or dnf install bubblewrap")
	}
	dir := t.TempDir()
	inside := filepath.Join(dir, "inside")
	build := exec.Command("go", "build", "-trimpath", "-o", inside, "./testdata/oracle/inside")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the oracle's recorder: %v\n%s", err, out)
	}

	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range programNames() {
		if err := os.Link(inside, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}

	args := []string{
		"--unshare-all", "--die-with-parent", "--new-session", "--clearenv",
		"--ro-bind", bin, "/usr/bin",
		"--symlink", "usr/bin", "/bin", "--symlink", "usr/bin", "/sbin", "--symlink", "bin", "/usr/sbin",
		"--dir", "/usr/local", "--symlink", "../bin", "/usr/local/bin", "--symlink", "../bin", "/usr/local/sbin",
		"--ro-bind", inside, "/oracle/driver",
	}
	libs := &mirror{seen: map[string]bool{}, made: map[string]bool{}}
	for _, name := range realPrograms {
		path, err := exec.LookPath(name)
		if err != nil {
			t.Fatalf("the bash oracle runs the real %s, which is not installed: %v", name, err)
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := libs.elfDeps(real); err != nil {
			t.Fatalf("reading the libraries %s loads: %v", real, err)
		}
		args = append(args, "--ro-bind", real, "/oracle/real/"+name)
	}
	if _, err := os.Stat("/etc/ld.so.cache"); err == nil {
		if err := libs.add("/etc/ld.so.cache"); err != nil {
			t.Fatal(err)
		}
	}
	args = append(args, libs.args...)
	args = append(args, "--proc", "/proc", "--dev", "/dev")
	for _, fs := range []struct {
		path string
		size int
	}{{oracleWorkDir, 16 << 20}, {oracleHome, 4 << 20}, {"/tmp", 16 << 20}, {"/oracle/log", oracleLogLimit}, {"/oracle/out", 1 << 20}} {
		args = append(args, "--size", fmt.Sprint(fs.size), "--tmpfs", fs.path)
	}
	args = append(args, "--chdir", oracleWorkDir, "/oracle/driver")
	return &oracleLayout{bwrap: bwrap, args: args}
}

// programNames are the names the recorder is linked under: every program
// in the standard directories and on PATH, and the names the inputs use.
func programNames() []string {
	names := map[string]bool{}
	for _, n := range recordedNames {
		names[n] = true
	}
	dirs := []string{"/usr/local/bin", "/usr/bin", "/bin", "/usr/local/sbin", "/usr/sbin", "/sbin"}
	dirs = append(dirs, filepath.SplitList(os.Getenv("PATH"))...)
	for _, d := range dirs {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if !e.IsDir() {
				names[e.Name()] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(names))
}

// libDirs are where the dynamic loader looks for a library without a path.
var libDirs = []string{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
	"/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"}

// mirror collects the bwrap arguments that make host files appear in the
// sandbox at the paths a program opens them by, symbolic links included.
type mirror struct {
	args []string
	// seen holds the paths added, made the paths given a link or a bind.
	seen, made map[string]bool
}

// elfDeps mirrors the loader and every library the program at path loads.
func (m *mirror) elfDeps(path string) error {
	f, err := elf.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type != elf.PT_INTERP {
			continue
		}
		interp, err := io.ReadAll(p.Open())
		if err != nil {
			return err
		}
		if err := m.add(strings.TrimRight(string(interp), "\x00")); err != nil {
			return err
		}
	}
	needed, err := f.ImportedLibraries()
	if err != nil {
		return err
	}
	for _, name := range needed {
		i := slices.IndexFunc(libDirs, func(d string) bool { _, err := os.Stat(filepath.Join(d, name)); return err == nil })
		if i < 0 {
			return fmt.Errorf("no %s in %v", name, libDirs)
		}
		at := filepath.Join(libDirs[i], name)
		if m.seen[at] {
			continue
		}
		if err := m.add(at); err != nil {
			return err
		}
		real, err := filepath.EvalSymlinks(at)
		if err != nil {
			return err
		}
		if err := m.elfDeps(real); err != nil {
			return err
		}
	}
	return nil
}

// add makes the host path at resolve in the sandbox as on the host: each
// symbolic link on the way is made again, and the file it ends at is bound
// read-only where it lies.
func (m *mirror) add(at string) error {
	if m.seen[at] {
		return nil
	}
	m.seen[at] = true
	parts := strings.Split(strings.TrimPrefix(filepath.Clean(at), "/"), "/")
	dir := "/"
	for i, part := range parts {
		next := filepath.Join(dir, part)
		info, err := os.Lstat(next)
		if err != nil {
			return err
		}
		if info.Mode()&os.ModeSymlink == 0 {
			dir = next
			continue
		}
		target, err := os.Readlink(next)
		if err != nil {
			return err
		}
		if !m.made[next] {
			m.made[next] = true
			m.args = append(m.args, "--symlink", target, next)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		return m.add(filepath.Join(append([]string{target}, parts[i+1:]...)...))
	}
	if !m.made[dir] {
		m.made[dir] = true
		m.args = append(m.args, "--ro-bind", dir, dir)
	}
	return nil
}

// sandbox is one running bwrap with the driver inside, which runs the
// commands it is sent one after another.
type sandbox struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *json.Decoder
	stderr *strings.Builder
}

// oracleTimeout bounds one command, and oracleGrace the programs it leaves
// running after bash exits.
const (
	oracleTimeout = 3 * time.Second
	oracleGrace   = 200 * time.Millisecond
)

// startSandbox starts a sandbox over the layout.
func startSandbox(l *oracleLayout) (*sandbox, error) {
	cmd := exec.Command(l.bwrap, l.args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &sandbox{cmd: cmd, in: in, out: json.NewDecoder(bufio.NewReader(out)), stderr: &stderr}
	setup := oracleSetup{
		Roots: []string{oracleWorkDir, oracleHome, "/tmp"}, Files: oracleFiles, Dir: oracleWorkDir,
		Env:     []string{"PATH=" + oraclePath, "HOME=" + oracleHome, "LC_ALL=C", "USER=o"},
		Timeout: oracleTimeout, Grace: oracleGrace, LogLimit: oracleLogLimit,
	}
	if err := s.send(setup); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// send writes one line of JSON to the driver.
func (s *sandbox) send(v any) error {
	line, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = s.in.Write(append(line, '\n'))
	return err
}

// run runs one command in the sandbox.
func (s *sandbox) run(command string) (*oracleResult, error) {
	if err := s.send(map[string]string{"command": command}); err != nil {
		return nil, s.failed(err)
	}
	var res oracleResult
	if err := s.out.Decode(&res); err != nil {
		return nil, s.failed(err)
	}
	return &res, nil
}

// failed is err with what the sandbox wrote to its standard error, which
// says why bwrap or the driver stopped.
func (s *sandbox) failed(err error) error {
	s.close()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = errors.New("the sandbox stopped")
	}
	msg := strings.TrimSpace(s.stderr.String())
	if strings.Contains(msg, "namespace") || strings.Contains(msg, "Operation not permitted") {
		msg += "\n(bwrap needs unprivileged user namespaces: sysctl -w kernel.unprivileged_userns_clone=1, " +
			"or run as root in a container that allows them)"
	}
	return fmt.Errorf("%w: %s", err, msg)
}

// close ends the sandbox: the driver exits when its input closes.
func (s *sandbox) close() {
	s.in.Close()
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}
