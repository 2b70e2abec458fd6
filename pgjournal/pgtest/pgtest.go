// Package pgtest starts a throwaway PostgreSQL cluster for tests: initdb
// and pg_ctl in a temporary directory, listening on a loopback port, with
// a password, removed when the test ends. It needs PostgreSQL's server
// programs (Debian: apt-get install postgresql), found on PATH or under
// /usr/lib/postgresql/*/bin; without them the test fails and says how to
// install them, since a test that skips proves nothing.
//
// initdb refuses to run as root, so as root the cluster runs as the
// postgres user the Debian package creates, through runuser.
package pgtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
)

// User and Password are the superuser of every cluster Start makes.
const (
	User     = "agentpolicy"
	Password = "throwaway-test-password"
)

// Cluster is a running throwaway cluster.
type Cluster struct {
	dir  string // the data directory
	bin  string // the folder of pg_ctl, initdb, postgres
	port int
	as   []string // the command prefix that runs a server program as its owner
}

// Start initialises a cluster in a temporary directory, starts it on a
// free loopback port, and stops and removes it when tb ends.
func Start(tb testing.TB) *Cluster {
	tb.Helper()
	c, err := start()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(c.Remove)
	return c
}

// StartMain is Start for a TestMain: the caller calls Remove when the
// tests end.
func StartMain() (*Cluster, error) {
	return start()
}

func start() (*Cluster, error) {
	bin, err := serverBin()
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin}
	root, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, err
	}
	c.dir = filepath.Join(root, "data")
	pwfile := filepath.Join(root, "pw")
	if err := os.WriteFile(pwfile, []byte(Password+"\n"), 0o644); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(root)
			return nil, fmt.Errorf("pgtest: initdb refuses to run as root and there is no postgres user to run it as: apt-get install postgresql creates one")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(root, uid, gid); err != nil {
			return nil, err
		}
		c.as = []string{"runuser", "-u", "postgres", "--"}
	}
	if out, err := c.run("initdb", "-D", c.dir, "-U", User, "--pwfile", pwfile, "--auth", "scram-sha-256", "--no-sync", "-E", "UTF8", "--locale", "C"); err != nil {
		os.RemoveAll(root)
		return nil, fmt.Errorf("pgtest: initdb: %v\n%s", err, out)
	}
	if c.port, err = freePort(); err != nil {
		return nil, err
	}
	conf := fmt.Sprintf("port = %d\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\nfsync = off\nmax_connections = 100\n", c.port)
	f, err := os.OpenFile(filepath.Join(c.dir, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	_, err = f.WriteString(conf)
	f.Close()
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		c.Remove()
		return nil, err
	}
	return c, nil
}

// serverBin finds the folder of pg_ctl: on PATH, else the newest
// /usr/lib/postgresql/N/bin.
func serverBin() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		return filepath.Dir(p), nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) < version(dirs[j]) })
	if len(dirs) > 0 {
		return dirs[len(dirs)-1], nil
	}
	return "", fmt.Errorf("pgtest: PostgreSQL's server programs (pg_ctl, initdb) are not installed: on Debian, apt-get install postgresql; elsewhere put pg_ctl on PATH")
}

// version is N of /usr/lib/postgresql/N/bin.
func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (c *Cluster) run(prog string, args ...string) ([]byte, error) {
	argv := append(append(append([]string{}, c.as...), filepath.Join(c.bin, prog)), args...)
	return exec.Command(argv[0], argv[1:]...).CombinedOutput()
}

// Start starts the cluster's server, waiting until it takes connections.
func (c *Cluster) Start() error {
	if out, err := c.run("pg_ctl", "-D", c.dir, "-l", filepath.Join(filepath.Dir(c.dir), "log"), "-w", "-s", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(filepath.Dir(c.dir), "log"))
		return fmt.Errorf("pgtest: pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	return nil
}

// Stop stops the server at once, ending every session, as a crash of the
// database would look to its clients.
func (c *Cluster) Stop() error {
	if out, err := c.run("pg_ctl", "-D", c.dir, "-m", "immediate", "-w", "-s", "stop"); err != nil {
		return fmt.Errorf("pgtest: pg_ctl stop: %v\n%s", err, out)
	}
	return nil
}

// Remove stops the server and removes its files.
func (c *Cluster) Remove() {
	_ = c.Stop()
	os.RemoveAll(filepath.Dir(c.dir))
}

// URL is the URL of database db on the cluster, as its superuser.
func (c *Cluster) URL(db string) string {
	return c.URLAs(User, Password, db)
}

// URLAs is the URL of database db as the given user and password.
func (c *Cluster) URLAs(user, password, db string) string {
	return fmt.Sprintf("postgres://%s:%s@127.0.0.1:%d/%s?sslmode=disable", user, password, c.port, db)
}

// CreateDB creates an empty database with the name, failing tb if it
// cannot, and returns its URL.
func (c *Cluster) CreateDB(tb testing.TB, name string) string {
	tb.Helper()
	out, err := exec.Command(filepath.Join(c.bin, "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", c.URL("postgres"),
		"-c", "CREATE DATABASE "+name).CombinedOutput()
	if err != nil {
		tb.Fatalf("pgtest: create database %s: %v\n%s", name, err, out)
	}
	return c.URL(name)
}
