package shell

import (
	"path"
	"slices"
	"strings"
)

// A glob operand names files only when the shell matches it, so its read
// asks. A product that holds a glob to its rules as a pattern
// ([WithPatternTool]) can do better. One confined to the directory it runs in, "*.md" or "src/*.go",
// names files there and nowhere else: a read-only command given it reads
// inside that directory, as it would given a literal name there. Such a
// glob is read as known, a read subject like a literal path, under three
// conditions, each because the shell hands the command the matches, not
// the glob:
//
//   - it cannot leave the directory: relative, no ".." part, and no part
//     beginning with a "." that may match ".." (".*", when globskipdots
//     is off); the directory is checked again once resolved against
//     where the command runs (cd /tmp, an unknown cd);
//   - no match can be an option: the glob begins with literal text ("./*",
//     "src/*"), which no option begins with, or every option of the
//     command changes nothing ("ls *.md"), so a file named "-R" or
//     "--files0-from=x" is harmless at worst;
//   - the matches are read alike however many there are: the command
//     reads each operand the glob may become, so "uniq *.txt", which
//     writes its second operand, is no such command.

// confine marks the operands among reads that are such globs.
func (prog *program) confine(p parsed, reads []word) []word {
	inert := prog.check == nil && inertOnly(prog.flags)
	var out []word
	for i, w := range reads {
		if !confinable(w) || !isOperand(p, w) || !inert && strings.IndexAny(w.value[:1], "*?[") == 0 || !readsEach(prog, p, w) {
			continue
		}
		if out == nil {
			out = slices.Clone(reads)
		}
		out[i].confined = true
	}
	if out == nil {
		return reads
	}
	return out
}

// confinable reports whether a word is a glob that names files only in
// the directory it is relative to.
func confinable(w word) bool {
	if !w.literal || !w.pattern || w.tilde || w.braces || w.value == "" || strings.HasPrefix(w.value, "/") {
		return false
	}
	for _, part := range strings.Split(w.value, "/") {
		if part == ".." || strings.HasPrefix(part, ".") && matches(part, "..") {
			return false
		}
	}
	return true
}

// matches reports whether a glob segment may match a name, bash's "[!"
// read as path.Match's "[^"; one path.Match cannot read may.
func matches(glob, name string) bool {
	ok, err := path.Match(strings.ReplaceAll(glob, "[!", "[^"), name)
	return ok || err != nil
}

// isOperand reports whether w is an operand of the command line as
// written, not a path made from one or an option's value.
func isOperand(p parsed, w word) bool {
	for _, o := range p.operands {
		if o.pos == w.pos && o.end == w.end && o.value == w.value {
			return true
		}
	}
	return false
}

// readsEach reports whether the command reads the glob operand w as a
// file whether it becomes one word or two, and writes nothing.
func readsEach(prog *program, p parsed, w word) bool {
	twice := p
	twice.operands = make([]word, 0, len(p.operands)+1)
	for _, o := range p.operands {
		twice.operands = append(twice.operands, o)
		if o.pos == w.pos && o.value == w.value {
			twice.operands = append(twice.operands, o)
		}
	}
	once, wrote := prog.files(p)
	doubled, wrote2 := prog.files(twice)
	return len(wrote) == 0 && len(wrote2) == 0 && count(doubled, w) == 2*count(once, w) && count(once, w) > 0
}

// count is how many of words are w.
func count(words []word, w word) int {
	n := 0
	for _, o := range words {
		if o.pos == w.pos && o.value == w.value {
			n++
		}
	}
	return n
}

// inertOnly reports whether every option a table lists changes nothing.
func inertOnly(f *optionTable) bool {
	if f == nil {
		return false
	}
	for e, list := range f.lists {
		if effect(e) != inert && strings.TrimSpace(list) != "" {
			return false
		}
	}
	return true
}

// confinedOnly reports whether every word of a command line that is not
// a literal is a glob confine marked among reads.
func confinedOnly(args, reads []word) bool {
	for _, w := range args {
		if w.literal && !w.pattern {
			continue
		}
		if !slices.ContainsFunc(reads, func(r word) bool { return r.confined && r.pos == w.pos && r.value == w.value }) {
			return false
		}
	}
	return true
}

// holdsGlobs reports whether the globs confine marked among a command's
// reads are held to the rules as patterns ([WithPatternTool]), without
// which a glob is read as known nowhere: a rule matching a literal path
// cannot see that "*.env" may be ".env".
func (s *splitter) holdsGlobs(reads []word) bool {
	read, _ := s.operandTargets()
	return s.patternTools[read.tool] != "" || !slices.ContainsFunc(reads, func(w word) bool { return w.confined })
}

// confines reports whether a glob, resolved against where it is read,
// stays relative to the call's own directory and below it.
func (in where) confines(glob string) bool {
	paths, why := in.paths(glob)
	if why != "" {
		return false
	}
	for _, p := range paths {
		if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || upward(p) {
			return false
		}
	}
	return true
}
