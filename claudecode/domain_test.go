package claudecode

import (
	"strings"
	"testing"
)

// TestHostPattern: a WebFetch domain pattern read as a host, as URLHost
// reads a URL's.
func TestHostPattern(t *testing.T) {
	rows := map[string]string{
		"169.254.169.254":          "169.254.169.254",
		"[::ffff:169.254.169.254]": "169.254.169.254",
		"::ffff:a9fe:a9fe":         "169.254.169.254",
		"2852039166":               "169.254.169.254",
		"0251.0376.0251.0376":      "169.254.169.254",
		"0xa9.0xfe.0xa9.0xfe":      "169.254.169.254",
		"[::1]:443":                "::1",
		"bücher.example":           "xn--bcher-kva.example",
		"BÜCHER.example.":          "xn--bcher-kva.example",
		"ｅｘａｍｐｌｅ.com":              "example.com",
		"*.bücher.example":         "*.xn--bcher-kva.example",
		"ｅｘ*.com":                  "ex*.com",
		"bü*.example":              "*.example",
		"*":                        "*",
		"Example.COM":              "example.com",
	}
	for pattern, want := range rows {
		if got := HostPattern(pattern); got != want {
			t.Errorf("HostPattern(%q) = %q, want %q", pattern, got, want)
		}
	}
}

// TestWebFetchDenyReadsHosts: a WebFetch deny rule refuses its host in
// every spelling the URL standard gives it, and the rule in every spelling
// a person writes it (issue 31 §3, stricter than Claude Code 2.1.328,
// divergences.json), while another host is still fetched and an allow rule
// approves no more than its text names.
func TestWebFetchDenyReadsHosts(t *testing.T) {
	rows := []struct {
		rule, url, want string
	}{
		{"169.254.169.254", "http://[::ffff:169.254.169.254]/", "deny"},
		{"169.254.169.254", "http://[::ffff:a9fe:a9fe]/", "deny"},
		{"169.254.169.254", "http://2852039166/", "deny"},
		{"169.254.169.254", "http://0251.0376.0251.0376/", "deny"},
		{"169.254.169.254", "http://169.254.169.254./", "deny"},
		{"169.254.169.254", "http://169.254.169.253/", "allow"},
		{"169.254.169.254", "http://[::ffff:169.254.169.253]/", "allow"},
		{"2852039166", "http://169.254.169.254/", "deny"},
		{"bücher.example", "https://xn--bcher-kva.example/", "deny"},
		{"bücher.example", "https://bücher.example/", "deny"},
		{"bücher.example", "https://bucher.example/", "allow"},
		{"ｅｘａｍｐｌｅ.com", "https://example.com/", "deny"},
		{"ｅｘａｍｐｌｅ.com", "https://example.org/", "allow"},
		{"example.com", "https:example.com/", "deny"},
		{"*.bücher.example", "https://a.xn--bcher-kva.example/", "deny"},
	}
	for _, r := range rows {
		w := newWorld(t)
		w.write(w.scopeFile(ScopeProject), lists{Allow: []string{"WebFetch"}, Deny: []string{"WebFetch(domain:" + r.rule + ")"}}.file())
		v := w.decide("WebFetch", fetch(r.url))
		if got := outcome(v); got != r.want {
			t.Errorf("deny %s, %s: got %s (%s), want %s", r.rule, r.url, got, v.Reason, r.want)
		}
	}
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Allow: []string{"WebFetch(domain:bücher.example)", "WebFetch(domain:127.0.0.1)"}}.file())
	for _, u := range []string{"https://xn--bcher-kva.example/", "http://[::ffff:127.0.0.1]/"} {
		if v := w.decide("WebFetch", fetch(u)); outcome(v) != "ask" {
			t.Errorf("allow rules on %s: got %s (%s), want ask: an allow rule is Claude Code's text comparison", u, outcome(v), v.Reason)
		}
	}
}

// FuzzHostPattern: a pattern without a star that is a URL's host reads as
// the host URLHost reads from that URL, so a deny rule and a URL that
// spell one host alike always meet.
func FuzzHostPattern(f *testing.F) {
	for _, s := range []string{"169.254.169.254", "2852039166", "bücher.example", "ｅｘａｍｐｌｅ.com", "example.com.", "0x7f.1", "[::ffff:7f00:1]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		got := HostPattern(pattern)
		if strings.Contains(pattern, "*") || strings.ContainsAny(pattern, "/?#@:") && !strings.HasPrefix(pattern, "[") {
			return
		}
		host, err := URLHost("https://" + pattern + "/")
		if err != nil {
			return
		}
		if want := unmapHost(host); got != want {
			t.Fatalf("HostPattern(%q) = %q, URLHost reads %q", pattern, got, want)
		}
	})
}
