package shell

import (
	"errors"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// The splitter reads bash. A string another shell runs, "sh -c '…'",
// is read as bash and again in that shell's dialect, and when the two
// readings find different subjects, or the dialect cannot read it, the
// string is unseen: dash reads $'rm' as "$rm", not "rm", and {a,b} as
// it is, not as "a b". zsh, which the
// parser reads only in part and which runs code from glob qualifiers
// bash reads as patterns, is never read.

// dialects are the languages the shells other than bash read, and the
// programs that run a string with one.
var dialects = map[string]syntax.LangVariant{
	"sh": syntax.LangPOSIX, "dash": syntax.LangPOSIX, "ash": syntax.LangPOSIX, "posh": syntax.LangPOSIX,
	"yash": syntax.LangPOSIX, "ksh": syntax.LangMirBSDKorn, "mksh": syntax.LangMirBSDKorn,
	// watch runs its words, and flock its -c string, with sh -c; at and
	// batch run their jobs with sh.
	"watch": syntax.LangPOSIX, "flock": syntax.LangPOSIX, "at": syntax.LangPOSIX, "batch": syntax.LangPOSIX,
}

// dialectParsers reuse a parser per dialect.
var dialectParsers sync.Map

// parseDialect reads src in the language lang.
func parseDialect(lang syntax.LangVariant, src string) (*syntax.File, error) {
	pool, _ := dialectParsers.LoadOrStore(lang, &sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(lang)) }})
	p := pool.(*sync.Pool).Get().(*syntax.Parser)
	defer pool.(*sync.Pool).Put(p)
	return p.Parse(strings.NewReader(src), "")
}

// shellScript adds the subjects of src, a string the program base runs
// as shell code, as [splitter.script] does, and checks that base reads
// it as bash does.
func (s *splitter) shellScript(base, src string, depth int) error {
	start := len(s.subjects)
	if err := s.script(src, depth); err != nil {
		return err
	}
	if s.again {
		return nil
	}
	if base == "zsh" {
		return s.unreadAs(start, &unreadable{why: "the splitter reads bash, not zsh", reading: src})
	}
	lang, ok := dialects[base]
	if !ok {
		return nil
	}
	f, err := parseDialect(lang, src)
	if err != nil {
		return s.unreadAs(start, &unreadable{why: base + " does not read it as bash: " + err.Error(), reading: src})
	}
	other := splitter{config: s.config, posix: lang == syntax.LangPOSIX, again: true, keyword: s.keyword, dirs: places{outer: s.dirs.outer}, positional: s.positional, startup: s.startupAround()}
	if err := other.walk(f, src, depth); err != nil {
		if errors.Is(err, errDeep) {
			return err
		}
		return s.unreadAs(start, &unreadable{why: base + " reads it otherwise than bash", reading: src})
	}
	if !sameSubjects(s.subjects[start:], other.subjects) {
		return s.unreadAs(start, &unreadable{why: base + " reads it otherwise than bash", reading: src, also: other.subjects})
	}
	return nil
}

// unreadAs drops the subjects added from start on and returns u, whose
// readings keep them as constraints.
func (s *splitter) unreadAs(start int, u *unreadable) error {
	s.subjects = s.subjects[:start]
	return u
}
