package shell

import (
	"path"
	"strings"
)

// The files git reads and writes besides its repository: the values of
// options that name a file, the working-tree files diff and grep read,
// and the directory init and clone make a repository in.

// gitFiles are the files the options of a subcommand name, read and
// written: "-o out", "-oout", "--output=out", "--out out", "-F msg".
func gitFiles(sub string, rest []word) (reads, writes []word) {
	options := gitCommands()[sub].files
	if options == nil {
		return nil, nil
	}
	for i := 0; i < len(rest); i++ {
		v := rest[i].value
		var e effect
		value, joined := word{}, false
		switch {
		case v == "--":
			return reads, writes
		case strings.HasPrefix(v, "--") && len(v) > 3:
			name, after, ok := strings.Cut(v[2:], "=")
			e = gitLongFile(options, name)
			value, joined = rest[i], ok
			value.value = after
		case len(v) > 1 && v[0] == '-':
			// A cluster: "-aF msg", "-aFmsg". A letter before the file
			// option that takes a value of its own would take the rest,
			// which is then read as a file too: a subject too many.
			for k := 1; k < len(v) && e == inert; k++ {
				e = options[v[k:k+1]]
				value, joined = rest[i], k+1 < len(v)
				value.value = v[k+1:]
			}
		}
		if e != readsArg && e != writesArg {
			continue
		}
		if !joined {
			if i+1 >= len(rest) {
				continue
			}
			i++
			value = rest[i]
		}
		if e == readsArg {
			reads = append(reads, value)
		} else {
			writes = append(writes, value)
		}
	}
	return reads, writes
}

// gitLongFile is the effect of the long option that name abbreviates
// among options, inert when it abbreviates none.
func gitLongFile(options map[string]effect, name string) effect {
	for option, e := range options {
		if len(option) > 1 && strings.HasPrefix(option, name) {
			return e
		}
	}
	return inert
}

// gitListed is why the paths a subcommand works on are known only when
// it runs: --pathspec-from-file, in any abbreviation, reads them from a
// file or standard input.
func gitListed(sub string, rest []word) string {
	for _, w := range rest {
		if w.value == "--" {
			return ""
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(w.value, "--"), "=")
		if strings.HasPrefix(w.value, "--") && len(name) > 2 && strings.HasPrefix("pathspec-from-file", name) {
			return "git " + sub + " --pathspec-from-file reads the paths it works on from a list, known only when it runs"
		}
	}
	return ""
}

// gitWorkTree are the working-tree files git diff and git grep read by
// name. Every operand of diff may be one: git compares a file with the
// index, and two paths, one of them outside the repository, as
// --no-index does without being told. grep with --no-index or
// --untracked reads the files it names outside the index: every operand
// but the pattern, which -e or -f gives instead. Each is read whole when
// it is a directory, a tree (diff of two directories recurses); grep
// outside the index with no path searches the working directory.
func gitWorkTree(sub string, rest []word) []word {
	files := gitWorkFiles(sub, rest)
	if sub == "grep" && len(files) == 0 && hasWord(rest, "--no-index", "--untracked") {
		files = []word{{value: ".", literal: true}}
	}
	return asTrees(files, &tree{})
}

// gitWorkFiles are the operands gitWorkTree reads.
func gitWorkFiles(sub string, rest []word) []word {
	switch {
	case sub == "diff":
	case sub == "grep" && hasWord(rest, "--no-index", "--untracked"):
	default:
		return nil
	}
	var files []word
	patternGiven := false
	for i, w := range rest {
		v := w.value
		switch {
		case v == "--":
			return append(files, rest[i+1:]...)
		case v == "-e" || v == "-f" || strings.HasPrefix(v, "--regexp") || strings.HasPrefix(v, "--file"):
			patternGiven = true
		case len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v[1:], "ef"):
			// A cluster that ends in e or f, or gives one its value.
			patternGiven = true
		case strings.HasPrefix(v, "-"):
		case sub == "grep" && !patternGiven && len(files) == 0:
			// The pattern.
			patternGiven = true
		default:
			files = append(files, w)
		}
	}
	return files
}

// gitNewRepository is where git init makes a repository, whose
// .git/config git later runs programs from: its directory operand or the
// working directory, its .git unless --bare.
func gitNewRepository(sub word, rest []word) word {
	at := sub
	at.value = "."
	for _, w := range rest {
		if !strings.HasPrefix(w.value, "-") {
			at = w
			break
		}
	}
	if !hasWord(rest, "--bare") {
		at.value = path.Join(at.value, ".git")
	}
	return at
}

// gitCloneValues are the options of git clone that take their value in
// the next word.
var gitCloneValues = map[string]bool{
	"-o": true, "--origin": true, "-b": true, "--branch": true, "-u": true, "--upload-pack": true,
	"--reference": true, "--reference-if-able": true, "--depth": true, "--shallow-since": true,
	"--shallow-exclude": true, "-j": true, "--jobs": true, "--filter": true, "--separate-git-dir": true,
	"-c": true, "--config": true, "--server-option": true, "--bundle-uri": true, "--ref-format": true,
	"--template": true,
}

// gitClone reads git clone: why it runs what no rule reads (a template
// directory, whose hooks run during the clone, or a setting not known to
// run nothing), the source it reads when that is a path on this
// machine, and the new directory it writes, named by its second operand
// or, without one, after the repository.
func gitClone(sub word, rest []word) (why string, reads, writes []word) {
	var operands []word
	for i := 0; i < len(rest); i++ {
		v := rest[i].value
		name, value, joined := strings.Cut(v, "=")
		switch {
		case v == "--":
			operands = append(operands, rest[i+1:]...)
			i = len(rest)
		case len(name) > 3 && strings.HasPrefix("--template", name):
			why = firstOf(why, "git clone --template copies hooks that run during the clone")
		case len(name) > 2 && strings.HasPrefix("--config", name) || strings.HasPrefix(v, "-c") && !strings.HasPrefix(v, "--"):
			setting := value
			switch {
			case strings.HasPrefix(v, "-c") && len(v) > 2 && !strings.HasPrefix(v, "--"):
				setting = v[2:]
			case !joined && i+1 < len(rest):
				i++
				setting = rest[i].value
			}
			key, _, _ := strings.Cut(setting, "=")
			if !gitKeySafe(key) {
				why = firstOf(why, "git clone "+name+" "+key+" is not a setting known to run nothing")
			}
		case gitCloneValues[v]:
			i++
		case strings.HasPrefix(v, "-"):
		default:
			operands = append(operands, rest[i])
		}
	}
	if len(operands) > 0 && localRepository(operands[0].value) {
		reads = operands[:1]
	}
	switch len(operands) {
	case 0:
		return why, nil, nil
	case 1:
		at := operands[0]
		at.value = humanish(at.value)
		if at.value == "" {
			at.literal = false
			at.value = operands[0].value
		}
		return why, reads, []word{at}
	}
	return why, reads, operands[1:2]
}

// localRepository reports whether git clone reads its source as a path
// on this machine: no URL ("scheme://"), and no host before a colon that
// comes before any slash ("host:path").
func localRepository(source string) bool {
	return !strings.Contains(source, "://") && !remotePath(source)
}

// humanish is the directory git clone names after a repository's URL or
// path: its last part without ".git" or ".bundle", "" when there is none.
func humanish(url string) string {
	url = strings.TrimRight(url, "/")
	url = strings.TrimSuffix(url, "/.git")
	if i := strings.LastIndexAny(url, "/:"); i >= 0 {
		url = url[i+1:]
	}
	url = strings.TrimSuffix(strings.TrimSuffix(url, ".git"), ".bundle")
	if url == "." || url == ".." {
		return ""
	}
	return url
}
