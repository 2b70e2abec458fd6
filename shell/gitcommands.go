package shell

import "sync"

// The table of git's subcommands: one entry per subcommand (or per
// action of one, "stash list"), saying which options leave it read-only,
// which options name a file it reads or writes, run a program or read a
// list of paths, and whether it reads a remote's URL.

// gitCommand is what the table knows of one git subcommand.
type gitCommand struct {
	// inert, when set, are the options that leave the subcommand
	// read-only: given only these, it changes nothing. A subcommand
	// without it is never read-only.
	inert *optionTable
	// files, for a subcommand with neither inert nor options, are its
	// options whose value is a file git reads or writes, that run a
	// program (runs) or read the paths git works on from a list
	// (listsFiles), beside its other short options, so that the one
	// option reader takes a cluster ("-aF msg", "-ix CMD") as git does;
	// its other long options the table does not know, and the reader
	// steps over them. A subcommand with a table declares these there.
	files *optionTable
	// url marks a subcommand that reads a remote's URL, whose ext:: and
	// fd:: transports run a command.
	url bool
	// operands is what the subcommand does with the files its operands
	// name: readsArg for one that shows or stores their contents, in the
	// working tree or committed ("HEAD:.env"), writesArg for one that
	// rewrites them from the index or a commit; inert when they name no
	// file (revisions, branches, remotes).
	operands effect
	// blobsOnly marks a subcommand whose operands are revisions: only
	// "REV:path" among them names a file.
	blobsOnly bool
	// revisions marks a subcommand whose operands before "--" are
	// revisions or, as git reads a word that names no revision, paths
	// (log, show): each is read as a path, but "REV:path", read as the
	// path it names.
	revisions bool
	// options, for a subcommand that is never read-only, are its options,
	// which say which words are operands; one given an option outside
	// them asks, since it may take the next word.
	options *optionTable
}

// gitCommands is the table, by subcommand. It is built on first use, not
// when the package loads: parsing its option lists is most of what the
// package would allocate at start, and a hook process that decides no git
// command should not pay for it.
var gitCommands = sync.OnceValue(func() map[string]gitCommand {
	table := map[string]gitCommand{
		"status": {inert: inertGit(`
			s short
			b branch
			porcelain::
			long
			v verbose
			u:: untracked-files::
			ignored::
			ignore-submodules::
			z null
			column::
			no-column
			ahead-behind
			no-ahead-behind
			renames
			no-renames
			M:: find-renames::
			show-stash
		`)},
		"log":         {inert: gitTable(byEffect{inert: gitHistory, readsArg: "O:", writesArg: "output:", listsFiles: "stdin"}), operands: readsArg, revisions: true},
		"show":        {inert: gitTable(byEffect{inert: gitHistory, readsArg: "O:", writesArg: "output:", listsFiles: "stdin"}), operands: readsArg, revisions: true},
		"diff":        {inert: gitTable(byEffect{inert: gitHistory + " no-index", readsArg: "O:", writesArg: "output:"}), operands: readsArg},
		"whatchanged": {inert: gitTable(byEffect{inert: gitHistory, readsArg: "O:", writesArg: "output:", listsFiles: "stdin"}), operands: readsArg, revisions: true},
		"shortlog": {inert: gitTable(byEffect{inert: gitHistory + `
			numbered
			summary
			email e
			group:
			w:
		`, writesArg: "output:"})},
		"rev-list": {inert: gitTable(byEffect{inert: gitHistory + `
			objects objects-edge
			count
			timestamp
			header
			stdin
		`, writesArg: "output:"})},
		"blame": {inert: gitTable(byEffect{inert: `
			L:
			l
			t
			s
			e show-email
			show-name
			show-number
			f
			M::
			C::
			w
			incremental
			porcelain
			line-porcelain
			c
			n
			p
			root
			reverse:
			first-parent
			date:
			color-lines
			color-by-age
			score-debug
			abbrev::
			since:
			b
			progress
			no-progress
			encoding:
			ignore-rev:
		`, readsArg: `
			contents:
			ignore-revs-file:
			S:
		`}), operands: readsArg},
		"branch": {inert: inertGit(`
			l list
			a all
			r remotes
			v
			vv
			verbose
			q quiet
			contains::
			no-contains::
			merged::
			no-merged::
			points-at:
			sort:
			format:
			color::
			no-color
			column::
			no-column
			show-current
			abbrev::
			no-abbrev
			i ignore-case
			omit-empty
		`)},
		"tag": {inert: gitTable(byEffect{inert: `
			l list
			n::
			contains::
			no-contains::
			merged::
			no-merged::
			points-at:
			sort:
			format:
			color::
			column::
			no-column
			i ignore-case
			omit-empty
		`, readsArg: `
			F: file:
		`, changes: `
			a annotate
			s sign
			u: local-user:
			f force
			d delete
			v verify
			m: message:
			e edit
		`})},
		"rev-parse": {inert: inertGit(`
			abbrev-ref::
			short::
			verify
			q
			quiet
			sq
			symbolic
			symbolic-full-name
			show-toplevel
			show-prefix
			show-cdup
			git-dir
			git-common-dir
			absolute-git-dir
			is-inside-work-tree
			is-inside-git-dir
			is-bare-repository
			is-shallow-repository
			show-superproject-working-tree
			all
			branches::
			tags::
			remotes::
			glob:
			exclude:
			not
			default:
			prefix:
			path-format:
			local-env-vars
			resolve-git-dir
			shared-index-path
			show-object-format::
			show-ref-format
			git-path
			since:
			after:
			until:
			before:
			flags
			no-flags
			revs-only
			no-revs
		`), operands: readsArg, blobsOnly: true},
		"ls-files": {inert: inertGit(`
			c cached
			d deleted
			m modified
			o others
			i ignored
			s stage
			u unmerged
			k killed
			z
			t
			v
			f
			full-name
			recurse-submodules
			abbrev::
			debug
			eol
			deduplicate
			exclude: x:
			exclude-standard
			error-unmatch
			with-tree:
			format:
			sparse
			directory
			no-empty-directory
		`)},
		"ls-tree": {inert: inertGit(`
			d
			r
			t
			l long
			z
			name-only
			name-status
			object-only
			full-name
			full-tree
			abbrev::
			format:
		`)},
		"describe": {inert: inertGit(`
			all
			tags
			contains
			abbrev::
			candidates:
			exact-match
			debug
			long
			match:
			exclude:
			always
			first-parent
			dirty::
			broken::
		`)},
		"cat-file": {inert: gitTable(byEffect{inert: `
			t
			s
			e
			p
			batch-all-objects
			follow-symlinks
			unordered
			buffer
			z
			Z
			textconv
			filters
			path:
		`, listsFiles: `
			batch::
			batch-check::
			batch-command::
		`}), operands: readsArg, blobsOnly: true},
		"show-ref": {inert: inertGit(`
			head
			tags
			heads
			branches
			verify
			exists
			d dereference
			s
			hash::
			abbrev::
			q quiet
		`)},
		"for-each-ref": {inert: inertGit(`
			count:
			sort:
			format:
			color::
			shell
			perl
			python
			tcl
			points-at:
			merged::
			no-merged::
			contains::
			no-contains::
			ignore-case
			omit-empty
			exclude:
			include-root-refs
		`)},
		"merge-base": {inert: inertGit(`
			a all
			octopus
			independent
			is-ancestor
			fork-point
		`)},
		"count-objects": {inert: inertGit(`
			v verbose
			H human-readable
		`)},
		"grep": {inert: gitTable(byEffect{inert: `
			cached
			no-index
			untracked
			no-exclude-standard
			exclude-standard
			recurse-submodules
			a text
			textconv
			no-textconv
			i ignore-case
			I
			max-depth:
			r recursive
			no-recursive
			w word-regexp
			v invert-match
			h
			H
			full-name
			E extended-regexp
			G basic-regexp
			P perl-regexp
			F fixed-strings
			n line-number
			column
			l files-with-matches
			name-only
			L files-without-match
			z null
			o only-matching
			c count
			color::
			no-color
			break
			heading
			p show-function
			C: context:
			A: after-context:
			B: before-context:
			W function-context
			m: max-count:
			threads:
			e:
			and
			or
			not
			all-match
			q quiet
		`, readsArg: `
			f:
		`, runs: `
			O:: open-files-in-pager::
		`}), operands: readsArg},
		"remote": {inert: inertGit(`
			v verbose
		`), url: true},
		"reflog":  {inert: gitTable(byEffect{inert: gitHistory, readsArg: "O:", writesArg: "output:"})},
		"version": {inert: inertGit("build-options")},
		"var":     {inert: inertGit("l")},
		"check-ignore": {inert: inertGit(`
			q quiet
			v verbose
			n non-matching
			no-index
			stdin
			z
		`)},
		"stash list": {inert: gitTable(byEffect{inert: gitHistory, writesArg: "output:"})},
		"stash show": {inert: gitTable(byEffect{inert: gitHistory + `
			include-untracked
			only-untracked
		`, readsArg: "O:", writesArg: "output:"}), operands: readsArg, revisions: true},
		"remote show": {inert: inertGit("n")},
		"remote get-url": {inert: inertGit(`
			push
			all
		`)},
		"worktree list": {inert: inertGit(`
			porcelain
			v verbose
			expire:
			z
		`)},
		"config get": {inert: gitTable(byEffect{inert: `
			all
			regexp
			value:
			fixed-value
			url:
			global
			system
			local
			worktree
			blob:
			includes
			no-includes
			show-origin
			show-scope
			default:
			type:
			bool
			int
			bool-or-int
			path
			expiry-date
			z null
			name-only
		`, readsArg: `
			f: file:
		`})},
		"config list": {inert: gitTable(byEffect{inert: `
			global
			system
			local
			worktree
			blob:
			includes
			no-includes
			show-origin
			show-scope
			name-only
			z null
		`, readsArg: `
			f: file:
		`})},
		"range-diff": {files: flagSet(byEffect{readsArg: "O:", writesArg: "output:"})},
		"diff-tree":  {files: flagSet(byEffect{inert: gitDiffShorts, readsArg: "O:", writesArg: "output:"}), operands: readsArg},
		"diff-index": {files: flagSet(byEffect{inert: gitDiffShorts, readsArg: "O:", writesArg: "output:"}), operands: readsArg},
		"diff-files": {files: flagSet(byEffect{inert: gitDiffShorts, readsArg: "O:", writesArg: "output:"}), operands: readsArg},
		"bundle":     {files: flagSet(byEffect{writesArg: "output:"}), url: true},
		"format-patch": {operands: readsArg, revisions: true, files: flagSet(byEffect{
			inert: `
				n numbered
				N no-numbered
				s signoff
				v: reroll-count:
				k keep-subject
				p no-stat
				q quiet
				stdout
			` + digits,
			readsArg: `
				O:
			`,
			writesArg: `
				o: output-directory:
				output:
			`,
		})},
		"archive": {url: true, operands: readsArg, options: flagSet(byEffect{
			inert: `
				format:
				l list
				v verbose
				prefix:
				add-virtual-file:
				worktree-attributes
				remote:
				mtime:
			` + digits,
			readsArg: `
				add-file:
			`,
			writesArg: `
				o: output:
			`,
			runs: "exec:",
		})},
		"commit": {files: flagSet(byEffect{
			inert: `
				q quiet
				v verbose
				m: message:
				c: reedit-message:
				C: reuse-message:
				s signoff
				e edit
				S:: gpg-sign::
				a all
				i include
				p patch
				o only
				n no-verify
				z null
				u:: untracked-files::
			`,
			readsArg: `
				F: file:
				t: template:
			`,
			listsFiles: `
				pathspec-from-file:
			`,
		})},
		"merge": {files: flagSet(byEffect{
			inert: `
				n
				e edit
				s: strategy:
				X: strategy-option:
				m: message:
				v verbose
				q quiet
				S:: gpg-sign::
				abort
				quit
				continue
			`,
			readsArg: `
				F: file:
			`,
		})},
		"notes": {files: flagSet(byEffect{
			inert: `
				m: message:
				c: reedit-message:
				C: reuse-message:
				f force
			`,
			readsArg: `
				F: file:
			`,
		})},
		"add": {operands: readsArg, options: flagSet(byEffect{
			inert: `
				n dry-run
				v verbose
				f force
				i interactive
				p patch
				e edit
				u update
				A all
				no-ignore-removal
				no-all
				ignore-removal
				N intent-to-add
				refresh
				ignore-errors
				ignore-missing
				sparse
				no-warn-embedded-repo
				renormalize
				chmod:
				pathspec-file-nul
			`,
			listsFiles: "pathspec-from-file:",
		})},
		"hash-object": {operands: readsArg, options: flagSet(byEffect{inert: `
			t:
			w
			no-filters
			literally
			path:
			stdin
		`, listsFiles: "stdin-paths"})},
		"checkout": {operands: writesArg, options: flagSet(byEffect{
			inert: `
				q quiet
				progress
				no-progress
				f force
				m merge
				conflict:
				b:
				B:
				l
				detach
				t
				track::
				no-track
				guess
				no-guess
				orphan:
				ignore-skip-worktree-bits
				overwrite-ignore
				no-overwrite-ignore
				ignore-other-worktrees
				recurse-submodules::
				no-recurse-submodules
				overlay
				no-overlay
				p patch
				ours
				theirs
				2
				3
				pathspec-file-nul
			`,
			listsFiles: "pathspec-from-file:",
		})},
		"restore": {operands: writesArg, options: flagSet(byEffect{
			inert: `
				s: source:
				p patch
				W worktree
				S staged
				q quiet
				progress
				no-progress
				ours
				theirs
				m merge
				conflict:
				ignore-unmerged
				ignore-skip-worktree-bits
				recurse-submodules::
				no-recurse-submodules
				overlay
				no-overlay
				pathspec-file-nul
			`,
			listsFiles: "pathspec-from-file:",
		})},
		"rm": {operands: writesArg, options: flagSet(byEffect{
			inert: `
				f force
				n dry-run
				r
				cached
				ignore-unmatch
				sparse
				q quiet
				pathspec-file-nul
			`,
			listsFiles: "pathspec-from-file:",
		})},
		"update-index": {operands: readsArg, options: flagSet(byEffect{
			inert: `
				add
				remove
				force-remove
				replace
				refresh
				q
				ignore-submodules
				unmerged
				ignore-missing
				really-refresh
				cacheinfo:
				chmod:
				assume-unchanged
				no-assume-unchanged
				skip-worktree
				no-skip-worktree
				fsmonitor-valid
				no-fsmonitor-valid
				ignore-skip-worktree-entries
				g again
				unresolve
				info-only
				force-untracked-cache
				split-index
				no-split-index
				untracked-cache
				no-untracked-cache
				test-untracked-cache
				force-write-index
				fsmonitor
				no-fsmonitor
				verbose
				z
				index-version:
				show-index-version
			`,
			listsFiles: `
				stdin
				index-info
			`,
		})},
		"stash push": {operands: writesArg, options: flagSet(byEffect{
			inert: `
				p patch
				S staged
				k keep-index
				no-keep-index
				u include-untracked
				a all
				q quiet
				m: message:
				pathspec-file-nul
			`,
			listsFiles: "pathspec-from-file:",
		})},
		"checkout-index": {operands: writesArg, options: flagSet(byEffect{
			inert: `
				u index
				q quiet
				f force
				a all
				n no-create
				stage:
				temp
				ignore-skip-worktree-bits
				z
			`,
			writesArg: `
				prefix:
			`,
			listsFiles: "stdin",
		})},
		"merge-file": {operands: readsArg, options: flagSet(byEffect{inert: `
			p stdout
			q quiet
			L:
			diff3
			zdiff3
			ours
			theirs
			union
			marker-size:
			diff-algorithm:
			object-id
		`})},
		"clean": {operands: writesArg, options: flagSet(byEffect{inert: `
			d
			f force
			i interactive
			n dry-run
			q quiet
			e: exclude:
			x
			X
		`})},
		"mv": {operands: writesArg, options: flagSet(byEffect{inert: `
			v verbose
			n dry-run
			f
			k
			sparse
		`})},
		"clone": {url: true, options: flagSet(byEffect{
			inert: `
				v verbose
				q quiet
				progress
				no-progress
				reject-shallow
				no-reject-shallow
				n no-checkout
				checkout
				bare
				no-bare
				mirror
				l local
				no-local
				hardlinks
				no-hardlinks
				s shared
				recurse-submodules::
				no-recurse-submodules
				recursive::
				j: jobs:
				dissociate
				o: origin:
				b: branch:
				depth:
				shallow-since:
				shallow-exclude:
				single-branch
				no-single-branch
				tags
				no-tags
				shallow-submodules
				no-shallow-submodules
				server-option:
				4 ipv4
				6 ipv6
				filter:
				no-filter
				also-filter-submodules
				remote-submodules
				no-remote-submodules
				sparse
				bundle-uri:
				ref-format:
			`,
			readsArg: `
				reference:
				reference-if-able:
			`,
			writesArg: `
				separate-git-dir:
			`,
			runs: `
				u: upload-pack:
			`,
			changes: `
				template:
				c: config:
			`,
		})},
		"fetch": {url: true, files: flagSet(byEffect{runs: `
			upload-pack:
		`})},
		"pull": {url: true, files: flagSet(byEffect{runs: `
			upload-pack:
		`})},
		"ls-remote": {url: true, files: flagSet(byEffect{runs: `
			upload-pack:
			exec:
		`})},
		"fetch-pack": {url: true, files: flagSet(byEffect{runs: `
			upload-pack:
			exec:
		`})},
		"push": {url: true, files: flagSet(byEffect{runs: `
			receive-pack:
			exec:
		`})},
		"send-pack": {url: true, files: flagSet(byEffect{runs: `
			receive-pack:
			exec:
		`})},
		"submodule": {url: true},
		"init": {options: flagSet(byEffect{
			inert: `
				q quiet
				bare
				shared::
				b: initial-branch:
				object-format:
				ref-format:
			`,
			readsArg: `
				template:
			`,
			writesArg: `
				separate-git-dir:
			`,
		})},
		"apply": {operands: readsArg, options: flagSet(byEffect{
			inert: `
				exclude:
				include:
				p:
				no-add
				stat
				numstat
				summary
				check
				index
				N intent-to-add
				cached
				unsafe-paths
				apply
				3 3way
				z
				C:
				whitespace:
				ignore-space-change
				ignore-whitespace
				R reverse
				unidiff-zero
				reject
				allow-overlap
				v verbose
				q quiet
				inaccurate-eof
				recount
				directory:
				allow-empty
			`,
			writesArg: `
				build-fake-ancestor:
			`,
		})},
		"am": {files: flagSet(byEffect{inert: `
			continue
			r resolved
			skip
			abort
			quit
			show-current-patch::
		`})},
		"rebase": {files: flagSet(byEffect{
			inert: `
				q quiet
				v verbose
				n no-stat
				C:
				f force-rebase
				m merge
				i interactive
				S:: gpg-sign::
				r:: rebase-merges::
				s: strategy:
				X: strategy-option:
				continue
				skip
				abort
				quit
				show-current-patch
				edit-todo
			`,
			runs: `
				x: exec:
			`,
		})},
		"daemon": {files: flagSet(byEffect{runs: `
			access-hook:
		`})},
		"send-email": {files: flagSet(byEffect{runs: `
			smtp-server:
			sendmail-cmd:
			to-cmd:
			cc-cmd:
			header-cmd:
		`})},
		"reset": {options: flagSet(byEffect{
			inert: `
				q quiet
				no-refresh
				refresh
				soft
				mixed
				N intent-to-add
				hard
				merge
				keep
				recurse-submodules::
				no-recurse-submodules
				p patch
				pathspec-file-nul
			`,
			listsFiles: "pathspec-from-file:",
		})},
		"switch": {options: flagSet(byEffect{inert: `
			c: create:
			C: force-create:
			d detach
			guess
			no-guess
			f force discard-changes
			m merge
			conflict:
			q quiet
			progress
			no-progress
			t
			track::
			no-track
			orphan:
			ignore-other-worktrees
			recurse-submodules::
			no-recurse-submodules
		`})},
		"read-tree": {options: flagSet(byEffect{
			inert: `
				m
				reset
				u
				i
				n dry-run
				v
				trivial
				aggressive
				prefix:
				exclude-per-directory:
				empty
				q quiet
				recurse-submodules::
				no-recurse-submodules
				no-sparse-checkout
			`,
			writesArg: `
				index-output:
			`,
		})},
		"cherry-pick": {files: flagSet(byEffect{inert: pickOptions + `
			x
			ff
			allow-empty
			allow-empty-message
			keep-redundant-commits
		`})},
		"revert": {files: flagSet(byEffect{inert: pickOptions + `
			reference
		`})},
		"config": {options: gitConfigOptions},
	}
	// Other names git gives the same subcommand.
	table["annotate"] = table["blame"]
	table["stage"] = table["add"]
	return table
})

// pickOptions are the options git cherry-pick and git revert share, as
// git 2.39's -h lists them (--strategy as merge's -s is read).
const pickOptions = `
	e edit
	m: mainline:
	n no-commit
	s signoff
	S:: gpg-sign::
	strategy:
	X: strategy-option:
	cleanup:
	rerere-autoupdate
	continue
	skip
	quit
	abort
`
