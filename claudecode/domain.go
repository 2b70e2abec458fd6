package claudecode

import (
	"encoding/json"
	"errors"
	"net"
	"net/url"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
)

// DomainMatcher returns the matcher of Claude Code's WebFetch specifier
// "domain:<pattern>" (spec §6.1) over the URL in the string member field of
// the arguments.
//
// The host is what net/url reads as the URL's host name, so
// "https://github.com@evil.example/x" is fetched from, and matched as,
// "evil.example". Host and pattern are compared in lower case, each
// without one trailing dot, and the pattern decides:
//
//   - "*" matches every host;
//   - "*.example.com" matches every subdomain at any depth, not
//     "example.com" itself;
//   - any other "*" matches within one label, never across a dot:
//     "example.*" matches "example.org", not "example.evil.example";
//   - a pattern without "*" matches that host exactly, no subdomain.
//
// The scheme, port and path play no part, and a bracketed IPv6 pattern,
// "[::1]" or "[::1]:443", is the address alone. A specifier without the
// "domain:" prefix matches nothing, and so does a URL [URLHost] refuses:
// that fails closed for an allow rule, and [Settings.Matchers] refuses such
// a call before any rule is consulted.
func DomainMatcher(field string) agentpolicy.Matcher {
	return func(spec string, args json.RawMessage) bool {
		pattern, ok := strings.CutPrefix(spec, "domain:")
		if !ok {
			return false
		}
		raw, ok, err := agentpolicy.Field(args, field)
		if !ok || err != nil {
			return false
		}
		host, err := URLHost(raw)
		if err != nil {
			return false
		}
		return matchDomain(normaliseHost(pattern), host)
	}
}

// errNoHost is why a URL without a host cannot be decided.
var errNoHost = errors.New("agentpolicy/claudecode: the URL names no host")

// URLHost returns the host a fetch of raw reaches, in the form
// [DomainMatcher] compares: lower case, without one trailing dot, an IPv6
// address without brackets. It refuses what two URL parsers could read as
// different hosts, a backslash, whitespace or a control character
// anywhere, and a URL that is not absolute http or https, since the
// policy must decide the host the fetch will reach.
func URLHost(raw string) (string, error) {
	if strings.ContainsFunc(raw, func(r rune) bool { return r == '\\' || r <= ' ' || r == 0x7f }) {
		return "", errors.New("agentpolicy/claudecode: the URL holds a backslash, a space or a control character")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", errors.New("agentpolicy/claudecode: the URL does not parse: " + err.Error())
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", errors.New("agentpolicy/claudecode: the URL is not http or https")
	}
	host := normaliseHost(u.Hostname())
	if host == "" {
		return "", errNoHost
	}
	if numericHost(host) && net.ParseIP(host) == nil {
		return "", errors.New("agentpolicy/claudecode: the host " + host + " is an address in a form fetchers rewrite")
	}
	return host, nil
}

// numericHost reports whether a browser-style URL parser would read the
// host as an IPv4 address: its last label is a number, decimal, octal or
// "0x" hexadecimal. Such a parser rewrites "2130706433" or "0x7f.1" to
// "127.0.0.1", so only the dotted form net.ParseIP accepts is decided.
func numericHost(host string) bool {
	last := host[strings.LastIndexByte(host, '.')+1:]
	if hex, ok := strings.CutPrefix(last, "0x"); ok {
		last = hex
		return !strings.ContainsFunc(last, func(r rune) bool { return !strings.ContainsRune("0123456789abcdef", r) })
	}
	return last != "" && !strings.ContainsFunc(last, func(r rune) bool { return r < '0' || r > '9' })
}

// normaliseHost lower-cases a host or pattern, drops one trailing dot and
// the brackets and port of an IPv6 literal.
func normaliseHost(s string) string {
	if strings.HasPrefix(s, "[") {
		if end := strings.IndexByte(s, ']'); end > 0 {
			s = s[1:end]
		}
	}
	return strings.TrimSuffix(strings.ToLower(s), ".")
}

// matchDomain reports whether the normalised host matches the normalised
// pattern.
func matchDomain(pattern, host string) bool {
	switch {
	case pattern == "*":
		return true
	case !strings.Contains(pattern, "*"):
		return pattern == host
	case strings.HasPrefix(pattern, "*.") && !strings.Contains(pattern[2:], "*"):
		return strings.HasSuffix(host, pattern[1:]) && len(host) > len(pattern)-1
	}
	labels := strings.Split(pattern, ".")
	hosts := strings.Split(host, ".")
	if len(labels) != len(hosts) {
		return false
	}
	for i, label := range labels {
		if !matchStars(label, hosts[i]) {
			return false
		}
	}
	return true
}

// matchStars matches a whole string, each "*" of the pattern standing for
// any run of characters, as within one label of a host.
func matchStars(pattern, label string) bool {
	head, rest, starred := strings.Cut(pattern, "*")
	if !starred {
		return pattern == label
	}
	if !strings.HasPrefix(label, head) {
		return false
	}
	label = label[len(head):]
	for {
		seg, more, starred := strings.Cut(rest, "*")
		if !starred {
			return len(label) >= len(seg) && strings.HasSuffix(label, seg)
		}
		i := strings.Index(label, seg)
		if i < 0 {
			return false
		}
		label = label[i+len(seg):]
		rest = more
	}
}
