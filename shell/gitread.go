package shell

import "strings"

// The read-only git subcommands and the options known to change nothing
// in each; a call with any other option is not known to be read-only.

// gitHistory are the inert options of the subcommands that show history
// and differences: log, show, diff and their kin, written as every table
// of options is ([byEffect]): ":" marks a value, "::" one that may only
// be joined.
const gitHistory = "oneline graph decorate:: no-decorate all branches:: tags:: remotes:: stat:: shortstat numstat name-only name-status patch p u s no-patch format: pretty:: abbrev-commit no-abbrev-commit abbrev:: n: max-count: skip: since: after: until: before: author: committer: grep: i regexp-ignore-case E extended-regexp F fixed-strings all-match invert-grep merges no-merges first-parent reverse date: relative-date follow L: S: G: pickaxe-regex pickaxe-all color:: no-color word-diff:: word-diff-regex: color-words:: raw summary full-diff M:: C:: find-renames:: find-copies:: no-renames topo-order date-order author-date-order left-right cherry-pick cherry-mark cherry boundary walk-reflogs g merge simplify-by-decoration ancestry-path full-history dense sparse simplify-merges show-signature notes no-notes mailmap use-mailmap no-mailmap parents children source encoding: expand-tabs:: no-expand-tabs diff-filter: relative:: text a ignore-space-change b ignore-all-space w ignore-space-at-eol ignore-blank-lines ignore-cr-at-eol unified: U: function-context W minimal patience histogram diff-algorithm: no-ext-diff no-textconv cc m c dirstat:: quiet q exit-code check binary full-index compact-summary stat-width: stat-name-width: stat-count: stat-graph-width: src-prefix: dst-prefix: no-prefix default-prefix line-prefix: z null count cached staged merge-base R submodule:: ignore-submodules:: color-moved:: no-color-moved color-moved-ws: break-rewrites:: B:: irreversible-delete D l: anchored: indent-heuristic no-indent-heuristic log-size no-walk:: do-walk remerge-diff:: diff-merges: no-diff-merges combined-all-paths show-pulls exclude: not glob: single-worktree bisect stdin"

// gitReadOnlyOptions are the read-only subcommands, each with its inert
// options; a subcommand with an action as its first word ("stash list")
// is listed with it.
var gitReadOnlyOptions = map[string]*optionTable{
	"status":         inertGit("s short b branch porcelain:: long v verbose u untracked-files:: ignored:: ignore-submodules:: z null column:: no-column ahead-behind no-ahead-behind renames no-renames find-renames:: show-stash"),
	"log":            inertGit(gitHistory),
	"show":           inertGit(gitHistory),
	"diff":           inertGit(gitHistory + " no-index"),
	"whatchanged":    inertGit(gitHistory),
	"shortlog":       inertGit(gitHistory + " numbered summary email e group: w:"),
	"rev-list":       inertGit(gitHistory + " objects objects-edge count timestamp header"),
	"blame":          inertGit("L: l t s e show-email show-name show-number f M:: C:: w incremental porcelain line-porcelain c n p root reverse: first-parent date: color-lines color-by-age score-debug abbrev: since: b"),
	"branch":         inertGit("l list a all r remotes v vv verbose q quiet contains:: no-contains:: merged:: no-merged:: points-at: sort: format: color:: no-color column:: no-column show-current abbrev: no-abbrev i ignore-case omit-empty"),
	"tag":            inertGit("l list n:: contains:: no-contains:: merged:: no-merged:: points-at: sort: format: color:: column:: no-column i ignore-case omit-empty"),
	"rev-parse":      inertGit("abbrev-ref:: short:: verify q quiet sq symbolic symbolic-full-name show-toplevel show-prefix show-cdup git-dir git-common-dir absolute-git-dir is-inside-work-tree is-inside-git-dir is-bare-repository is-shallow-repository show-superproject-working-tree all branches:: tags:: remotes:: glob: exclude: not default: prefix: path-format: local-env-vars resolve-git-dir shared-index-path show-object-format:: show-ref-format git-path since: after: until: before: flags no-flags revs-only no-revs"),
	"ls-files":       inertGit("c cached d deleted m modified o others i ignored s stage u unmerged k killed z t v f full-name recurse-submodules abbrev:: debug eol deduplicate exclude: x: exclude-standard error-unmatch with-tree: format: sparse directory no-empty-directory"),
	"ls-tree":        inertGit("d r t l long z name-only name-status object-only full-name full-tree abbrev:: format:"),
	"describe":       inertGit("all tags contains abbrev: candidates: exact-match debug long match: exclude: always first-parent dirty:: broken::"),
	"cat-file":       inertGit("t s e p batch:: batch-check:: batch-all-objects follow-symlinks unordered buffer z textconv filters"),
	"show-ref":       inertGit("head tags heads branches verify exists d dereference s hash:: abbrev:: q quiet"),
	"for-each-ref":   inertGit("count: sort: format: color:: shell perl python tcl points-at: merged:: no-merged:: contains:: no-contains:: ignore-case omit-empty exclude: include-root-refs"),
	"merge-base":     inertGit("a all octopus independent is-ancestor fork-point"),
	"count-objects":  inertGit("v verbose H human-readable"),
	"grep":           inertGit("cached no-index untracked no-exclude-standard exclude-standard recurse-submodules a text textconv no-textconv i ignore-case I max-depth: r recursive no-recursive w word-regexp v invert-match h H full-name E extended-regexp G basic-regexp P perl-regexp F fixed-strings n line-number column l files-with-matches name-only L files-without-match z null o only-matching c count color:: no-color break heading p show-function C: context: A: after-context: B: before-context: W function-context m: max-count: threads: f: e and or not all-match q quiet"),
	"remote":         inertGit("v verbose"),
	"reflog":         inertGit(gitHistory),
	"version":        inertGit("build-options"),
	"var":            inertGit("l"),
	"check-ignore":   inertGit("q quiet v verbose n non-matching no-index stdin z"),
	"stash list":     inertGit(gitHistory),
	"stash show":     inertGit(gitHistory + " include-untracked only-untracked"),
	"remote show":    inertGit("n"),
	"remote get-url": inertGit("push all"),
	"worktree list":  inertGit("porcelain v verbose expire: z"),
	"config get":     inertGit("all regexp value: fixed-value url: global system local worktree file: f: blob: includes no-includes show-origin show-scope default: type: bool int bool-or-int path expiry-date z null name-only"),
	"config list":    inertGit("global system local worktree file: f: blob: includes no-includes show-origin show-scope name-only z null"),
}

// gitActions are the subcommands listed with an action in the table.
var gitActions = map[string]bool{"stash": true, "remote": true, "worktree": true, "config": true}

// inertGit is the table of a subcommand whose options in list are all
// inert, with the counts ("-5") every history command reads.
func inertGit(list string) *optionTable {
	return flagSet(byEffect{inert: list + digits})
}

// gitReadOnly reports whether a subcommand with its words is known to
// change nothing: the subcommand is in the table and every option is one
// of its inert options, given as the table writes it.
func gitReadOnly(sub string, rest []word) bool {
	if len(rest) > 0 && gitActions[sub] {
		if set, ok := gitReadOnlyOptions[sub+" "+rest[0].value]; ok {
			return gitInertOnly(set, sub, rest[1:])
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
	return gitInertOnly(set, sub, rest)
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

// gitInertOnly reports whether every option among the words is in the
// subcommand's table, read by the one option reader: abbreviated long
// options, clusters and values joined or in the next word, as git's own
// parser reads them; words after "--" are paths.
func gitInertOnly(table *optionTable, sub string, rest []word) bool {
	return table.parseFlags("git "+sub, rest, true).opaque == ""
}
