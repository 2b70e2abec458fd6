package claudecode

import (
	"encoding/json"
	"errors"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"golang.org/x/net/idna"
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
//
// The specifier "host:<pattern>" is the reading [Settings] gives a deny or
// ask rule (spec §6.1 leaves hosts to be compared as text, and a deny of
// "169.254.169.254" then misses "[::ffff:a9fe:a9fe]"): the pattern has
// been read by [HostPattern], and the host has an IPv4-mapped IPv6
// address written as the IPv4 address, so every spelling of one host is
// one text.
func DomainMatcher(field string) agentpolicy.Matcher {
	return func(spec string, args json.RawMessage) bool {
		pattern, isDomain := strings.CutPrefix(spec, "domain:")
		if !isDomain {
			var isHost bool
			if pattern, isHost = strings.CutPrefix(spec, "host:"); !isHost {
				return false
			}
		}
		raw, ok, err := agentpolicy.Field(args, field)
		if !ok || err != nil {
			return false
		}
		host, err := URLHost(raw)
		if err != nil {
			return false
		}
		if isDomain {
			return matchDomain(normaliseHost(pattern), host)
		}
		return matchDomain(pattern, unmapHost(host))
	}
}

// unmapHost writes an IPv4-mapped IPv6 address, "::ffff:127.0.0.1", as the
// IPv4 address it reaches; any other host is returned as it is.
func unmapHost(host string) string {
	if addr, err := netip.ParseAddr(host); err == nil && addr.Is4In6() {
		return addr.Unmap().String()
	}
	return host
}

// HostPattern reads a WebFetch domain pattern as a host, in the form
// [URLHost] gives a URL's host, so a deny rule reaches the host however
// either side spells it: a name mapped by UTS #46 and written in ASCII
// ("bücher.example" and "ｂücher.example" are "xn--bcher-kva.example"),
// an IPv4 address in any form the URL standard accepts in dotted decimal
// ("2130706433" is "127.0.0.1"), an IPv6 address without brackets or port
// in its shortest form and an IPv4-mapped one as the IPv4 address, one
// trailing dot dropped, case folded. A "*" keeps its meaning: a label
// holding one is mapped around it, and when what remains is not ASCII,
// which no host's label is after mapping, the label becomes "*", so a deny
// rule reaches further rather than nowhere. A pattern that is no host
// ("exa mple.com") is returned as [DomainMatcher] compares it as text.
func HostPattern(pattern string) string {
	p := strings.TrimSpace(pattern)
	if plainName(p) {
		// Letters, digits, hyphens and stars map to themselves.
		return strings.TrimSuffix(strings.ToLower(p), ".")
	}
	if strings.HasPrefix(p, "[") {
		if end := strings.IndexByte(p, ']'); end > 0 {
			p = p[1:end]
		}
	}
	if addr, err := netip.ParseAddr(p); err == nil && addr.Zone() == "" {
		return addr.Unmap().String()
	}
	if !strings.Contains(p, "*") {
		host, err := domainHost(p)
		if err != nil {
			return normaliseHost(pattern)
		}
		return unmapHost(host)
	}
	labels := strings.Split(strings.TrimSuffix(p, "."), ".")
	for i, label := range labels {
		labels[i] = labelPattern(label)
	}
	return strings.Join(labels, ".")
}

// plainName reports whether a pattern is a name of ASCII letters, digits,
// hyphens and stars, whose last label is not read as a number, which UTS
// #46 leaves as it is but for case.
func plainName(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i] | 0x20
		if !('a' <= c && c <= 'z' || '0' <= p[i] && p[i] <= '9' || p[i] == '-' || p[i] == '.' || p[i] == '*') {
			return false
		}
	}
	trimmed := strings.TrimSuffix(strings.ToLower(p), ".")
	return trimmed != "" && !strings.Contains(trimmed, "..") && !numericHost(trimmed)
}

// labelPattern maps one label of a domain pattern: without a "*" as a name
// is mapped, with one around its stars, and to "*" when what is left is
// not ASCII.
func labelPattern(label string) string {
	if !strings.Contains(label, "*") {
		if ascii, err := lookup.ToASCII(label); err == nil {
			return strings.ToLower(ascii)
		}
		return "*"
	}
	parts := strings.Split(label, "*")
	for i, part := range parts {
		mapped, err := lookup.ToUnicode(part)
		if err != nil || strings.ContainsFunc(mapped, func(r rune) bool { return r >= 0x80 }) {
			return "*"
		}
		parts[i] = strings.ToLower(mapped)
	}
	return strings.Join(parts, "*")
}

// errNoHost is why a URL without a host cannot be decided.
var errNoHost = errors.New("agentpolicy/claudecode: the URL names no host")

// URLHost returns the host a fetch of raw reaches, read as Claude Code's
// URL parser (the WHATWG URL standard) reads it, in the form
// [DomainMatcher] compares: mapped by UTS #46 as
// browsers map a name for lookup (full-width letters to ASCII, "。" to
// ".", a soft hyphen to nothing, case folded) and written in ASCII, so
// "ｅｘａｍｐｌｅ.com" and "bücher.example" are "example.com" and
// "xn--bcher-kva.example"; an IPv4 address in any form the standard
// accepts ("2130706433", "0x7f.1") in dotted decimal; an IPv6 address
// without brackets in its shortest form; one trailing dot dropped. It
// refuses what two URL parsers could read as different hosts, a backslash,
// whitespace or a control character anywhere, a URL that is not absolute
// http or https, a host the standard refuses, and a host holding a
// percent-escape, which the standard would decode first.
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
	if a := authority(raw, u.Scheme); strings.Contains(a[strings.LastIndexByte(a, '@')+1:], "%") {
		// net/url decodes an escape of a byte beyond ASCII, "%80", into
		// a host no UTF-8 reader would take.
		return "", errors.New("agentpolicy/claudecode: the URL's host holds a percent-escape")
	}
	if strings.HasPrefix(u.Host, "[") {
		addr, err := netip.ParseAddr(u.Hostname())
		if err != nil || !addr.Is6() || addr.Zone() != "" {
			return "", errors.New("agentpolicy/claudecode: the host " + u.Host + " is not an IPv6 address")
		}
		return addr.String(), nil
	}
	return domainHost(u.Hostname())
}

// authority is the text between "scheme://" and the path, query or
// fragment of a URL, the user information and the host, "" when it has
// none.
func authority(raw, scheme string) string {
	rest, ok := strings.CutPrefix(raw[len(scheme)+1:], "//")
	if !ok {
		return ""
	}
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// lookup is UTS #46 processing as the WHATWG URL standard's "domain to
// ASCII" applies it: nontransitional, hyphens and DNS lengths unchecked,
// the joiner and bidi rules checked, and ASCII beyond letters, digits and
// hyphens left to the forbidden code points below.
var lookup = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false),
	idna.StrictDomainName(false), idna.CheckHyphens(false), idna.CheckJoiners(true), idna.VerifyDNSLength(false))

// forbiddenInDomain are the ASCII code points the URL standard refuses in
// a domain after mapping, beside the control characters.
const forbiddenInDomain = " #/:<>?@[\\]^|%"

// domainHost reads a host that is not bracketed as the URL standard does:
// mapped to ASCII, then read as an IPv4 address when its last label is a
// number.
func domainHost(host string) (string, error) {
	if host == "" {
		return "", errNoHost
	}
	ascii, err := lookup.ToASCII(host)
	if err != nil {
		return "", errors.New("agentpolicy/claudecode: the host " + host + " is not a domain name: " + err.Error())
	}
	control := func(r rune) bool { return r < ' ' || r == 0x7f }
	if strings.Trim(ascii, ".") == "" || strings.ContainsAny(ascii, forbiddenInDomain) || strings.ContainsFunc(ascii, control) {
		return "", errors.New("agentpolicy/claudecode: the host " + host + " holds a character no domain name may")
	}
	if numericHost(strings.TrimSuffix(ascii, ".")) {
		return ipv4Host(ascii)
	}
	return normaliseHost(ascii), nil
}

// numericHost reports whether the URL standard reads a host as an IPv4
// address: its last label is a number, decimal or "0x" hexadecimal.
func numericHost(host string) bool {
	last := host[strings.LastIndexByte(host, '.')+1:]
	if hex, ok := strings.CutPrefix(last, "0x"); ok {
		return !strings.ContainsFunc(hex, func(r rune) bool { return !strings.ContainsRune("0123456789abcdef", r) })
	}
	return last != "" && !strings.ContainsFunc(last, func(r rune) bool { return r < '0' || r > '9' })
}

// ipv4Host parses an IPv4 address as the URL standard does: one to four
// numbers, each decimal, "0x" hexadecimal or "0" octal, the last filling
// the bytes the others leave; it returns the address in dotted decimal.
func ipv4Host(host string) (string, error) {
	bad := errors.New("agentpolicy/claudecode: the host " + host + " is not an IPv4 address")
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) > 4 {
		return "", bad
	}
	var value uint64
	for i, part := range parts {
		n, ok := ipv4Number(part)
		last := i == len(parts)-1
		if !ok || !last && n > 255 || last && n >= 1<<(8*(5-len(parts))) {
			return "", bad
		}
		if last {
			value += n
		} else {
			value += n << (8 * (3 - i))
		}
	}
	return netip.AddrFrom4([4]byte{byte(value >> 24), byte(value >> 16), byte(value >> 8), byte(value)}).String(), nil
}

// ipv4Number reads one number of an IPv4 address: decimal, "0x"
// hexadecimal, or octal after a leading "0".
func ipv4Number(s string) (uint64, bool) {
	base := 10
	switch {
	case strings.HasPrefix(s, "0x"):
		s, base = s[2:], 16
		if s == "" {
			return 0, true
		}
	case len(s) > 1 && s[0] == '0':
		s, base = s[1:], 8
	}
	n, err := strconv.ParseUint(s, base, 64)
	return n, err == nil && n < 1<<32
}

// normaliseHost lower-cases a host or pattern and drops one trailing dot;
// an IPv6 literal loses its brackets and port and is written in its
// shortest form, so every spelling of one address compares equal.
func normaliseHost(s string) string {
	if strings.HasPrefix(s, "[") {
		if end := strings.IndexByte(s, ']'); end > 0 {
			s = s[1:end]
		}
	}
	if addr, err := netip.ParseAddr(s); err == nil && addr.Is6() {
		return addr.String()
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
