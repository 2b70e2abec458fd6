package shell

import (
	"strings"
	"sync"
)

// The read-only git subcommands and the options known to change nothing
// in each; a call with any other option is not known to be read-only.

// gitHistory are the inert options of the subcommands that show history
// and differences: log, show, diff and their kin. A name ending in "="
// takes its value joined; a short option is a letter, one ending in "="
// takes the rest of its word.
const gitHistory = "oneline graph decorate decorate= no-decorate all branches branches= tags tags= remotes remotes= stat stat= shortstat numstat name-only name-status patch p u s no-patch format= pretty pretty= abbrev-commit no-abbrev-commit abbrev abbrev= n= max-count= skip= since= after= until= before= author= committer= grep= i regexp-ignore-case E extended-regexp F fixed-strings all-match invert-grep merges no-merges first-parent reverse date= relative-date follow L= S= G= pickaxe-regex pickaxe-all color color= no-color word-diff word-diff= word-diff-regex= color-words color-words= raw summary full-diff M M= C C= find-renames find-renames= find-copies find-copies= no-renames topo-order date-order author-date-order left-right cherry-pick cherry-mark cherry boundary walk-reflogs g merge simplify-by-decoration ancestry-path full-history dense sparse simplify-merges show-signature notes no-notes mailmap use-mailmap no-mailmap parents children source encoding= expand-tabs expand-tabs= no-expand-tabs diff-filter= relative relative= text a ignore-space-change b ignore-all-space w ignore-space-at-eol ignore-blank-lines ignore-cr-at-eol unified= U= function-context W minimal patience histogram diff-algorithm= no-ext-diff no-textconv cc m c dirstat dirstat= quiet q exit-code check binary full-index compact-summary stat-width= stat-name-width= stat-count= stat-graph-width= src-prefix= dst-prefix= no-prefix default-prefix line-prefix= z null count cached staged merge-base R submodule submodule= ignore-submodules ignore-submodules= color-moved color-moved= no-color-moved color-moved-ws= break-rewrites break-rewrites= B B= irreversible-delete D l= anchored= indent-heuristic no-indent-heuristic log-size no-walk no-walk= do-walk remerge-diff remerge-diff= diff-merges= no-diff-merges combined-all-paths show-pulls first-parent exclude= not glob= single-worktree bisect stdin cherry-pick"

// gitReadOnlyOptions are the read-only subcommands, each with its inert
// options; a subcommand with an action as its first word ("stash list")
// is listed with it.
var gitReadOnlyOptions = map[string]*gitInert{
	"status":         inertGit("s short b branch porcelain porcelain= long v verbose u untracked-files untracked-files= ignored ignored= ignore-submodules ignore-submodules= z null column column= no-column ahead-behind no-ahead-behind renames no-renames find-renames find-renames= show-stash"),
	"log":            inertGit(gitHistory),
	"show":           inertGit(gitHistory),
	"diff":           inertGit(gitHistory + " no-index"),
	"whatchanged":    inertGit(gitHistory),
	"shortlog":       inertGit(gitHistory + " numbered summary email e group= w="),
	"rev-list":       inertGit(gitHistory + " objects objects-edge count timestamp header"),
	"blame":          inertGit("L= l t s e show-email show-name show-number f M M= C C= w incremental porcelain line-porcelain c n p root reverse= first-parent date= color-lines color-by-age score-debug abbrev= since= b"),
	"branch":         inertGit("l list a all r remotes v vv verbose q quiet contains contains= no-contains no-contains= merged merged= no-merged no-merged= points-at= sort= format= color color= no-color column column= no-column show-current abbrev= no-abbrev i ignore-case omit-empty"),
	"tag":            inertGit("l list n n= contains contains= no-contains no-contains= merged merged= no-merged no-merged= points-at= sort= format= color color= column column= no-column i ignore-case omit-empty"),
	"rev-parse":      inertGit("abbrev-ref abbrev-ref= short short= verify q quiet sq symbolic symbolic-full-name show-toplevel show-prefix show-cdup git-dir git-common-dir absolute-git-dir is-inside-work-tree is-inside-git-dir is-bare-repository is-shallow-repository show-superproject-working-tree all branches branches= tags tags= remotes remotes= glob= exclude= not default= prefix= path-format= local-env-vars resolve-git-dir shared-index-path show-object-format show-object-format= show-ref-format git-path since= after= until= before= flags no-flags revs-only no-revs"),
	"ls-files":       inertGit("c cached d deleted m modified o others i ignored s stage u unmerged k killed z t v f full-name recurse-submodules abbrev abbrev= debug eol deduplicate exclude= x= exclude-standard error-unmatch with-tree= format= sparse directory no-empty-directory"),
	"ls-tree":        inertGit("d r t l long z name-only name-status object-only full-name full-tree abbrev abbrev= format="),
	"describe":       inertGit("all tags contains abbrev= candidates= exact-match debug long match= exclude= always first-parent dirty dirty= broken broken="),
	"cat-file":       inertGit("t s e p batch batch= batch-check batch-check= batch-all-objects follow-symlinks unordered buffer z textconv filters"),
	"show-ref":       inertGit("head tags heads branches verify exists d dereference s hash hash= abbrev abbrev= q quiet"),
	"for-each-ref":   inertGit("count= sort= format= color color= shell perl python tcl points-at= merged merged= no-merged no-merged= contains contains= no-contains no-contains= ignore-case omit-empty exclude= include-root-refs"),
	"merge-base":     inertGit("a all octopus independent is-ancestor fork-point"),
	"count-objects":  inertGit("v verbose H human-readable"),
	"grep":           inertGit("cached no-index untracked no-exclude-standard exclude-standard recurse-submodules a text textconv no-textconv i ignore-case I max-depth= r recursive no-recursive w word-regexp v invert-match h H full-name E extended-regexp G basic-regexp P perl-regexp F fixed-strings n line-number column l files-with-matches name-only L files-without-match z null o only-matching c count color color= no-color break heading p show-function C= context= A= after-context= B= before-context= W function-context m= max-count= threads= f= e and or not all-match q quiet"),
	"remote":         inertGit("v verbose"),
	"reflog":         inertGit(gitHistory),
	"version":        inertGit("build-options"),
	"var":            inertGit("l"),
	"check-ignore":   inertGit("q quiet v verbose n non-matching no-index stdin z"),
	"stash list":     inertGit(gitHistory),
	"stash show":     inertGit(gitHistory + " include-untracked only-untracked"),
	"remote show":    inertGit("n"),
	"remote get-url": inertGit("push all"),
	"worktree list":  inertGit("porcelain v verbose expire= z"),
	"config get":     inertGit("all regexp value= fixed-value url= global system local worktree file= f= blob= includes no-includes show-origin show-scope default= type= bool int bool-or-int path expiry-date z null name-only"),
	"config list":    inertGit("global system local worktree file= f= blob= includes no-includes show-origin show-scope name-only z null"),
}

// gitActions are the subcommands listed with an action in the table.
var gitActions = map[string]bool{"stash": true, "remote": true, "worktree": true, "config": true}

// gitInert is a subcommand's inert options: its list, read into a set
// the first time a call of the subcommand is read. It is safe for
// concurrent use.
type gitInert struct {
	list string
	once sync.Once
	set  map[string]bool
}

// inertGit is the inert options of the list.
func inertGit(list string) *gitInert {
	return &gitInert{list: list}
}

// options is the set of the options, built on its first use.
func (g *gitInert) options() map[string]bool {
	g.once.Do(func() {
		tablesBuilt.Add(1)
		g.set = map[string]bool{}
		for _, name := range strings.Fields(g.list) {
			g.set[name] = true
		}
	})
	return g.set
}

// gitReadOnly reports whether a subcommand with its words is known to
// change nothing: the subcommand is in the table and every option is one
// of its inert options, given as the table writes it.
func gitReadOnly(sub string, rest []word) bool {
	if len(rest) > 0 && gitActions[sub] {
		if set, ok := gitReadOnlyOptions[sub+" "+rest[0].value]; ok {
			return gitOptionsIn(set.options(), rest[1:])
		}
	}
	set, ok := gitReadOnlyOptions[sub]
	if !ok {
		return false
	}
	switch sub {
	case "branch", "tag":
		// Without a listing option, a name operand creates one.
		if gitOperands(rest) > 0 && !hasWord(rest, "-l", "--list", "-a", "--all", "-r", "--remotes", "--contains", "--merged", "--no-merged", "--points-at", "--show-current") {
			return false
		}
	case "remote":
		if gitOperands(rest) > 0 {
			return false
		}
	case "stash", "worktree", "config":
		return false
	case "reflog":
		// delete, expire and drop change the reflog; show and exists
		// read it.
		if len(rest) > 0 && (rest[0].value == "delete" || rest[0].value == "expire" || rest[0].value == "drop") {
			return false
		}
	}
	return gitOptionsIn(set.options(), rest)
}

// gitOperands counts the words that are no option.
func gitOperands(rest []word) int {
	n := 0
	for _, w := range rest {
		if !strings.HasPrefix(w.value, "-") {
			n++
		}
	}
	return n
}

// gitOptionsIn reports whether every option among the words is in set:
// "--name", "--name=value" for a name listed with "=", "-x", "-xVALUE"
// for a letter listed with "=", "-NUMBER", and clusters of bare letters.
// Words after "--" are paths.
func gitOptionsIn(set map[string]bool, rest []word) bool {
	for _, w := range rest {
		v := w.value
		switch {
		case v == "--":
			return true
		case strings.HasPrefix(v, "--"):
			name, _, joined := strings.Cut(v[2:], "=")
			if joined && !set[name+"="] || !joined && !set[name] {
				return false
			}
		case len(v) > 1 && v[0] == '-':
			if !gitShortIn(set, v[1:]) {
				return false
			}
		}
	}
	return true
}

// gitShortIn reports whether a cluster of short options is in set.
func gitShortIn(set map[string]bool, cluster string) bool {
	if strings.Trim(cluster, "0123456789") == "" {
		return true
	}
	for j := 0; j < len(cluster); j++ {
		letter := cluster[j : j+1]
		switch {
		case set[letter+"="]:
			return true
		case !set[letter]:
			return false
		}
	}
	return true
}
