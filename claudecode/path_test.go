package claudecode

import (
	"encoding/json"
	"path"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// pathArgs is a file tool's arguments.
func pathArgs(p string) json.RawMessage {
	data, _ := json.Marshal(map[string]string{"file_path": p})
	return data
}

// TestPathMatcherStandalone uses the matcher without the importer, as a
// host with its own rules would.
func TestPathMatcherStandalone(t *testing.T) {
	p := Paths{Cwd: "/repo", Home: "/home/a"}
	m := PathMatcher("file_path", p)
	rows := []struct {
		spec, path string
		match      bool
	}{
		{"src/**", "/repo/src/a/b.go", true},
		{"src/**", "/repo/src", true},
		{"src/**", "/repo/lib/src/a.go", false},
		{"*.go", "/repo/a/b/c.go", true},
		{"src/*.go", "/repo/src/a/b.go", false},
		{"src/**/*.go", "/repo/src/a/b.go", true},
		{"./.env", "/repo/.env", true},
		{"./.env", "/repo/app/.env", false},
		{".env", "/repo/app/.env", true},
		{"/.env", "/repo/.env", true},
		{"~/.ssh/**", "/home/a/.ssh/id_rsa", true},
		{"~/.ssh/**", "~/.ssh/id_rsa", true},
		{"~/.ssh/**", "/home/b/.ssh/id_rsa", false},
		{"//etc/**", "/etc/passwd", true},
		{"//etc/**", "/repo/etc/passwd", false},
		{"//**", "/anything", true},
		{"docs/", "/repo/docs/a.md", true},
		{"d?cs/a.md", "/repo/docs/a.md", true},
		{"[de]ocs/a.md", "/repo/docs/a.md", true},
		{`\*.md`, "/repo/*.md", true},
		{`\*.md`, "/repo/a.md", false},
		{"src/[", "/repo/src/[", false},
		{"*.env !sample.env", "/repo/sample.env", false},
		{"*.env !sample.env", "/repo/prod.env", true},
		{`a \!b`, "/repo/a !b", true},
		{"Finance (2024)/**", "/repo/Finance (2024)/x", true},
		// ".." and "." are cleaned before matching.
		{"./.env", "/repo/src/../.env", true},
		{"./.env", "src/./../.env", true},
		{"src/**", "/repo/src/../../etc/passwd", false},
		{"src/**", "src/../src/a", true},
		{"//etc/**", "/repo/../../../etc/passwd", true},
		// Case counts unless the host says it does not.
		{".env", "/repo/.ENV", false},
	}
	for _, r := range rows {
		if got := m(r.spec, pathArgs(r.path)); got != r.match {
			t.Errorf("PathMatcher(%q) on %q = %v, want %v", r.spec, r.path, got, r.match)
		}
	}
	folded := PathMatcher("file_path", Paths{Cwd: "/Repo", Home: "/home/a", FoldCase: true})
	if !folded(".env", pathArgs("/REPO/App/.ENV")) || !folded("Src/**", pathArgs("/repo/src/x")) {
		t.Error("FoldCase does not fold")
	}
	win := PathMatcher("file_path", Paths{Cwd: "/c/repo", Home: "/c/Users/a", Windows: true})
	if !win("//c/**/.env", pathArgs(`C:\repo\app\.env`)) || !win("src/**", pathArgs(`src\a.go`)) {
		t.Error("Windows paths are not read in their POSIX form")
	}
	hostile := []string{
		`{"file_path":"/repo/.env","file_path":"/repo/ok"}`,
		`{"file_path":"/repo/.env","File_path":"/repo/ok"}`,
		`{"file_path":7}`,
		`{"file_path":"/repo/.env"} {}`,
		`not json`,
		`{}`,
	}
	for _, h := range hostile {
		if m(".env", json.RawMessage(h)) || m("**", json.RawMessage(h)) {
			t.Errorf("PathMatcher matched the ambiguous or empty arguments %s", h)
		}
	}
}

// TestPathSubjectsRefuseAmbiguity: a file tool's call whose path is
// ambiguous is refused by the engine, whatever the rules.
func TestPathSubjectsRefuseAmbiguity(t *testing.T) {
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Allow: []string{"Read"}, Deny: []string{"Read(.env)"}}.file())
	eng := w.engine(w.load())
	for _, args := range []string{
		`{"file_path":"` + w.cwd + `/.env","file_path":"` + w.cwd + `/ok"}`,
		`{"file_path":"` + w.cwd + `/ok","FILE_PATH":"` + w.cwd + `/.env"}`,
		`{"offset":1}`,
		`{"file_path":"` + w.cwd + `/ok","offset":1,"offset":2}`,
	} {
		if v := wouldRaw(t, eng, "Read", []byte(args)); outcome(v) != "deny" {
			t.Errorf("%s: got %s (%s), want deny", args, outcome(v), v.Reason)
		}
	}
	if v := wouldRaw(t, eng, "Read", []byte(`{"file_path":"`+w.cwd+`/ok","offset":1}`)); outcome(v) != "allow" {
		t.Errorf("plain read: got %s (%s), want allow", outcome(v), v.Reason)
	}
}

// TestGlobPatternBase: a Glob whose pattern climbs out of its directory is
// decided on where it reads.
func TestGlobPatternBase(t *testing.T) {
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Allow: []string{"Read(src/**)"}, Deny: []string{"Read(~/.ssh/**)"}}.file())
	eng := w.engine(w.load())
	rows := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "<cwd>/src", "pattern": "**/*.go"}, "allow"},
		{map[string]any{"path": "<cwd>/src", "pattern": "../../**/*"}, "ask"},
		{map[string]any{"path": "<cwd>/src", "pattern": "~/.ssh/*"}, "deny"},
		{map[string]any{"path": "<cwd>/src", "pattern": w.home + "/.ssh/*"}, "deny"},
		{map[string]any{"path": "<cwd>/src", "pattern": "**/*.{ts,tsx}"}, "allow"},
		{map[string]any{"path": "<cwd>/src", "pattern": "{" + w.home + "/.ssh,x}/*"}, "deny"},
		{map[string]any{"path": "<cwd>/src", "pattern": "{..,x}/*"}, "deny"},
	}
	for _, r := range rows {
		if v := w.would(eng, "Glob", r.args); outcome(v) != r.want {
			t.Errorf("%v: got %s (%s), want %s", r.args, outcome(v), v.Reason, r.want)
		}
	}
}

// FuzzPathMatcher: the matcher never panics, and a path decides as its
// cleaned form does, so ".." never takes a path out of a rule that covers
// where it leads.
func FuzzPathMatcher(f *testing.F) {
	for _, s := range [][2]string{
		{".env", "src/../.env"}, {"src/**", "/repo/src/../../x"}, {"//etc/**", "../../etc/passwd"},
		{"*.env !sample.env", "a/sample.env"}, {"~/x/**", "~/x/../x/y"}, {"[", "["}, {"a/**/b", "a/./b"},
	} {
		f.Add(s[0], s[1])
	}
	m := PathMatcher("file_path", Paths{Cwd: "/repo", Home: "/home/a"})
	f.Fuzz(func(t *testing.T, spec, p string) {
		got := m(spec, pathArgs(p))
		abs := p
		if !strings.HasPrefix(abs, "/") && abs != "~" && !strings.HasPrefix(abs, "~/") {
			abs = "/repo/" + abs
		}
		if strings.HasPrefix(abs, "~") {
			abs = "/home/a" + abs[1:]
		}
		if clean := m(spec, pathArgs(path.Clean(abs))); clean != got {
			t.Fatalf("PathMatcher(%q): %q gives %v, its cleaned form %q gives %v", spec, p, got, path.Clean(abs), clean)
		}
	})
}

// FuzzDomainMatcher: the matcher never panics, and the user information of
// a URL never decides it.
func FuzzDomainMatcher(f *testing.F) {
	for _, s := range [][3]string{
		{"github.com", "github.com", "evil.example"}, {"*.example.com", "a", "a.example.com"},
		{"example.*", "x:y", "example.org"}, {"*", "", "[::1]:8080"}, {"[::1]", "u", "[::1]"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	m := DomainMatcher("url")
	f.Fuzz(func(t *testing.T, pattern, userinfo, host string) {
		spec := "domain:" + pattern
		with := fetchArgs("https://" + userinfo + "@" + host + "/x")
		without := fetchArgs("https://" + host + "/x")
		got := m(spec, with)
		if _, err := URLHost("https://" + userinfo + "@" + host + "/x"); err != nil {
			if got {
				t.Fatalf("%q matched a URL URLHost refuses: %v", spec, err)
			}
			return
		}
		if h1, _ := URLHost("https://" + userinfo + "@" + host + "/x"); true {
			if h2, err := URLHost("https://" + host + "/x"); err == nil && h1 == h2 && m(spec, without) != got {
				t.Fatalf("%q: userinfo %q changed the match on %q", spec, userinfo, host)
			}
		}
	})
}

func fetchArgs(u string) json.RawMessage {
	data, _ := json.Marshal(map[string]string{"url": u})
	return data
}

// TestDomainMatcherStandalone uses the matcher without the importer.
func TestDomainMatcherStandalone(t *testing.T) {
	m := DomainMatcher("url")
	rows := []struct {
		spec, url string
		match     bool
	}{
		{"domain:example.com", "https://example.com/", true},
		{"domain:EXAMPLE.COM.", "https://example.com/", true},
		{"domain:example.com", "https://example.com.evil.example/", false},
		{"domain:example.com", "https://evil-example.com/", false},
		{"domain:*.example.com", "https://.example.com/", false},
		{"domain:ex*le.com", "https://example.com/", true},
		{"domain:ex*le.com", "https://ex.a.le.com/", false},
		{"domain:a*b*c.example", "https://axxbyyc.example/", true},
		{"domain:a*b*c.example", "https://abc.example/", true},
		{"domain:a*b*c.example", "https://acb.example/", false},
		{"domain:a*b*c.example", "https://abcd.example/", false},
		{"domain:*-api.example", "https://eu-api.example/", true},
		{"example.com", "https://example.com/", false},
		{"domain:example.com", "https://user:pw@example.com:8443/p?q#f", true},
		{"domain:example.com", "https://github.com@evil.example/", false},
		{"domain:example.com", `https://example.com\@evil.example/`, false},
		{"domain:example.com", "ftp://example.com/", false},
		{"domain:example.com", "//example.com/", false},
		{"domain:127.0.0.1", "http://127.0.0.1/", true},
		// Hosts are read as the WHATWG URL parser reads them: every IPv4
		// spelling it accepts is the dotted address.
		{"domain:127.0.0.1", "http://2130706433/", true},
		{"domain:127.0.0.1", "http://0x7f.1/", true},
		{"domain:127.0.0.1", "http://127.1/", true},
		{"domain:127.0.0.1", "http://017700000001/", true},
		{"domain:127.0.0.1", "http://0177.0.0.1./", true},
		{"domain:127.0.0.1", "http://127.0.0.2/", false},
		{"domain:*", "http://256.256.256.256/", false},
		{"domain:*", "http://1.example/", true},
		{"domain:*", "http://example.0x/", false},
		{"domain:*", "http://[::ffff:127.0.0.1]/", true},
		{"domain:[::ffff:7f00:1]", "http://[::ffff:127.0.0.1]/", true},
		{"domain:[::1]", "http://[0:0:0:0:0:0:0:1]:8080/", true},
		{"domain:127.0.0.1", "http://[::ffff:127.0.0.1]/", false},
		// UTS #46 maps a name before lookup.
		{"domain:example.com", "https://ｅｘａｍｐｌｅ.com/", true},
		{"domain:example.com", "https://ＥＸＡＭＰＬＥ.com/", true},
		{"domain:example.com", "https://example。com/", true},
		{"domain:example.com", "https://exam\u00adple.com/", true},
		// A percent-escape in a host is refused, which Go's URL parser
		// will not decode: stricter than the standard, never looser.
		{"domain:*", "https://%65xample.com/", false},
		{"domain:*", "https://0%80/", false},
		{"domain:example.com", "https://us%40er@example.com/", true},
		{"domain:*", "https://b%C3%BCcher.example/", false},
		{"domain:example.com", "https://examp1e.com/", false},
		{"domain:xn--bcher-kva.example", "https://bücher.example/", true},
		{"domain:xn--bcher-kva.example", "https://xn--bcher-kva.example/", true},
		{"domain:xn--bcher-kva.example", "https://bucher.example/", false},
		{"domain:*", "https://exa%2Fmple.com/", false},
		{"domain:*", "https://a\u200db.example/", false},
	}
	for _, r := range rows {
		if got := m(r.spec, fetchArgs(r.url)); got != r.match {
			t.Errorf("DomainMatcher(%q) on %q = %v, want %v", r.spec, r.url, got, r.match)
		}
	}
	if m("domain:*", json.RawMessage(`{"url":"https://a.example/","url":"https://b.example/"}`)) {
		t.Error("matched arguments with two urls")
	}
	var _ agentpolicy.Matcher = m
}
