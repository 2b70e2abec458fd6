package shell

import "strings"

// A program may get its code from its input rather than its words: xargs
// appends the words it reads to the command it runs, and a shell or an
// interpreter given /dev/stdin as its script reads the script from its
// input. No rule reads that input, so such a command asks unless the
// program is known to run nothing whatever it is given.

// xargsUnseen is why the command xargs runs, inner, hides code, given
// xargs's options p: xargs appends the words it reads to a program that
// is not known to be safe with any arguments, or, with -I, -i or
// --replace, puts them in the program's name; --process-slot-var hands
// the program a variable.
func xargsUnseen(p parsed, inner []word) string {
	var why string
	for _, g := range p.options {
		if g.name == "process-slot-var" {
			why = firstOf(why, environmentUnseen(g.value.value))
		}
	}
	if len(inner) == 0 {
		// xargs runs echo.
		return why
	}
	name := inner[0].value
	if replace := xargsReplace(p); replace != "" && strings.Contains(name, replace) {
		return firstOf(why, "xargs puts the words it reads in the name of the command it runs")
	}
	base := name[strings.LastIndexByte(name, '/')+1:]
	if !appendSafe(base) {
		return firstOf(why, "xargs appends the words it reads to "+name+", which may read them as options that run a command")
	}
	return why
}

// xargsReplace is the string xargs replaces with what it reads, given its
// options: -I STR, -iSTR, --replace[=STR] in any abbreviation ("{}" when
// none is given), or "" without them.
func xargsReplace(p parsed) string {
	for _, g := range p.options {
		switch {
		case g.name == "I", (g.name == "i" || g.name == "replace") && g.hasValue:
			return g.value.value
		case g.name == "i" || g.name == "replace":
			return "{}"
		}
	}
	return ""
}

// streamPath reports whether path names a program's input or one of its
// descriptors rather than a file: /dev/stdin, /dev/fd/N,
// /proc/self/fd/N, /proc/N/fd/N, /dev/tcp and /dev/udp.
func streamPath(path string) bool {
	path = cleanPath(path)
	switch {
	case path == "/dev/stdin", strings.HasPrefix(path, "/dev/fd/"),
		strings.HasPrefix(path, "/dev/tcp/"), strings.HasPrefix(path, "/dev/udp/"):
		return true
	case strings.HasPrefix(path, "/proc/"):
		_, rest, _ := strings.Cut(path[len("/proc/"):], "/")
		return strings.HasPrefix(rest, "fd/")
	}
	return false
}

// streamUnseen is why a shell or an interpreter hides code: an argument
// naming its input or a descriptor, which it may read its program from
// ("bash /dev/stdin", "python3 /proc/self/fd/0").
func streamUnseen(base string, args []word) string {
	if prog := lookup(base); prog == nil || !prog.shell && prog.language == nil {
		return ""
	}
	for _, a := range args {
		if streamPath(a.value) {
			return base + " reads its program from " + a.value + ", which no rule reads"
		}
	}
	return ""
}
