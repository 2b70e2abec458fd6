package shell

import "strings"

// A program may get its code from its input rather than its words: xargs
// appends the words it reads to the command it runs, and a shell or an
// interpreter given /dev/stdin as its script reads the script from its
// input. No rule reads that input, so such a command asks unless the
// program is known to run nothing whatever it is given.

// xargsUnseen is why the command xargs runs, inner, the last words of
// its arguments args, hides code: xargs appends the words it reads to a
// program that is not known to be safe with any arguments, or, with -I,
// -i or --replace, puts them in the program's name.
func xargsUnseen(args, inner []word) string {
	if len(inner) == 0 {
		// xargs runs echo.
		return ""
	}
	options := args[:len(args)-len(inner)]
	name := inner[0].value
	if replace := xargsReplace(options); replace != "" && strings.Contains(name, replace) {
		return "xargs puts the words it reads in the name of the command it runs"
	}
	base := name[strings.LastIndexByte(name, '/')+1:]
	if !appendSafe(base) {
		return "xargs appends the words it reads to " + name + ", which may read them as options that run a command"
	}
	return ""
}

// xargsReplace is the string xargs replaces with what it reads, given its
// options: -I STR, -iSTR, --replace[=STR] ("{}" when none is given), or
// "" without them.
func xargsReplace(options []word) string {
	for i, o := range options {
		v := o.value
		switch {
		case v == "-I" && i+1 < len(options):
			return options[i+1].value
		case strings.HasPrefix(v, "-I") && len(v) > 2:
			return v[2:]
		case v == "-i" || v == "--replace":
			return "{}"
		case strings.HasPrefix(v, "-i"):
			return v[2:]
		case strings.HasPrefix(v, "--replace="):
			return strings.TrimPrefix(v, "--replace=")
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
	if prog := lookup(base); prog == nil || !prog.shell && !prog.interpreter {
		return ""
	}
	for _, a := range args {
		if streamPath(a.value) {
			return base + " reads its program from " + a.value + ", which no rule reads"
		}
	}
	return ""
}
