package shell

import (
	"path"
	"strings"
)

// tar: every option known, its mode deciding which files it reads and
// writes, and the options that run a program.

// tarOptions are tar's options by effect; the modes are told apart by
// name in tarEffects.
var tarOptions = flagSet(byEffect{
	inert: `
		A catenate
		c create
		delete
		d diff compare
		r append
		test-label
		t list
		u update
		x extract get
		check-device
		G incremental
		hole-detection:
		ignore-failed-read
		level:
		no-check-device
		no-seek
		n seek
		occurrence::
		sparse-version:
		S sparse
		C: directory:
		exclude:
		exclude-backups
		exclude-caches
		exclude-caches-all
		exclude-caches-under
		exclude-vcs
		exclude-vcs-ignores
		no-null
		no-recursion
		no-unquote
		no-verbatim-files-from
		null
		verbatim-files-from
		recursion
		unquote
		anchored
		ignore-case
		no-anchored
		no-ignore-case
		no-wildcards
		no-wildcards-match-slash
		wildcards
		wildcards-match-slash
		keep-directory-symlink
		keep-newer-files
		k keep-old-files
		no-overwrite-dir
		one-top-level::
		overwrite
		overwrite-dir
		recursive-unlink
		remove-files
		skip-old-files
		U unlink-first
		W verify
		ignore-command-error
		no-ignore-command-error
		O to-stdout
		atime-preserve::
		clamp-mtime
		delay-directory-restore
		group:
		mode:
		mtime:
		m touch
		no-delay-directory-restore
		no-same-owner
		no-same-permissions
		numeric-owner
		owner:
		p preserve-permissions same-permissions
		same-owner
		sort:
		s preserve-order same-order
		acls
		no-acls
		no-selinux
		no-xattrs
		selinux
		xattrs
		xattrs-exclude:
		xattrs-include:
		force-local
		f: file:
		L: tape-length:
		M multi-volume
		b: blocking-factor:
		B read-full-records
		i ignore-zeros
		record-size:
		H: format:
		old-archive portability
		pax-option:
		posix
		V: label:
		a auto-compress
		j bzip2
		J xz
		lzip
		lzma
		lzop
		no-auto-compress
		zstd
		z gzip gunzip ungzip
		Z compress uncompress
		backup::
		hard-dereference
		h dereference
		K: starting-file:
		newer-mtime:
		N: newer: after-date:
		one-file-system
		P absolute-names
		suffix:
		strip-components:
		transform: xform:
		checkpoint::
		full-time
		l check-links
		no-quote-chars:
		quote-chars:
		quoting-style:
		R block-number
		show-defaults
		show-omitted-dirs
		show-snapshot-field-ranges
		show-transformed-names
		totals::
		utc
		v verbose
		warning:
		w interactive confirmation
		o
		restrict
		usage
		help
		version
		?
	`,
	readsArg: `
		X: exclude-from:
		exclude-ignore:
		exclude-ignore-recursive:
		exclude-tag:
		exclude-tag-all:
		exclude-tag-under:
		owner-map:
		group-map:
		add-file:
	`,
	listsFiles: `
		T: files-from:
	`,
	writesArg: `
		g: listed-incremental:
		index-file:
		volno-file:
	`,
	runs: `
		to-command:
		checkpoint-action:
		I: use-compress-program:
		F: info-script: new-volume-script:
		rmt-command:
		rsh-command:
	`,
})

// tarEffects reads tar: the archive it writes when it creates or adds to
// one, the files it reads into it, and the files it extracts, known only
// when it runs.
func tarEffects(args []word) effects {
	p := tarOptions.parseFlags("tar", oldStyle(args), true)
	e := effects{unseen: firstOf(p.opaque, listedFiles("tar", p))}
	if g, _ := p.first(listsFiles); stdinListed(p) {
		// The names are relative to the directory of the -C before -T.
		e.listedIn = &tarDirectories(parsed{options: p.options, operands: []word{{value: ".", literal: true, pos: g.value.pos}}})[0]
	}
	if g, ok := p.first(runs); ok {
		e.unseen = firstOf(e.unseen, "tar "+g.written+" may run a program")
		for _, script := range commandValues(p, runsCommand["tar"]) {
			// --checkpoint-action=exec=CMD runs CMD.
			e.scripts = append(e.scripts, strings.TrimPrefix(script, "exec="))
		}
	}
	var archive []word
	for _, g := range p.options {
		if (g.name == "f" || g.name == "file") && g.hasValue {
			archive = []word{g.value}
			if !p.has("force-local") && strings.Contains(strings.SplitN(g.value.value, "/", 2)[0], ":") {
				e.unseen = firstOf(e.unseen, "tar -f "+g.value.value+" runs a remote shell")
			}
		}
	}
	e.reads, e.writes = optionFiles(p)
	operands := tarDirectories(p)
	switch {
	case p.has("c", "create", "r", "append", "u", "update", "A", "catenate"):
		e.writes = append(e.writes, archive...)
		if !p.has("no-recursion") {
			// A directory goes in whole.
			operands = asTrees(operands, &tree{})
		}
		e.reads = append(e.reads, operands...)
		if p.has("remove-files") {
			// It deletes each file once it is in the archive.
			e.writes = append(e.writes, operands...)
		}
	case p.has("delete"):
		e.writes = append(e.writes, archive...)
	case p.has("x", "extract", "get") && !p.has("O", "to-stdout"):
		e.reads = append(e.reads, archive...)
		e.unseen = firstOf(e.unseen, "tar -x writes the files the archive holds, known only when it runs")
	default:
		e.reads = append(e.reads, archive...)
		// Listing or comparing reads the archive (and, comparing, the
		// files it names, known only when it runs) and changes nothing.
		e.readOnly = p.has("t", "list") && e.unseen == "" && len(e.writes) == 0 && allKnown(args)
	}
	return e
}

// tarDirectories are tar's operands with the directory of the -C options
// before each, which tar changes to, each relative to the one before,
// before it reads the files after it: "-C secrets . -C .. .env" reads
// ".env".
func tarDirectories(p parsed) []word {
	out := make([]word, 0, len(p.operands))
	for _, w := range p.operands {
		dir, literal, tilde := "", true, false
		for _, g := range p.options {
			if (g.name != "C" && g.name != "directory") || g.value.pos > w.pos {
				continue
			}
			literal = literal && g.value.literal
			home := g.value.tilde && (g.value.value == "~" || strings.HasPrefix(g.value.value, "~/"))
			if path.IsAbs(g.value.value) || home {
				// "-C ~" is the home directory, as the shell expands it.
				dir, tilde = g.value.value, home
			} else {
				dir = path.Join(dir, g.value.value)
			}
		}
		if dir != "" && !strings.HasPrefix(w.value, "/") {
			w.literal = w.literal && literal
			w.tilde = tilde
			w.value = path.Join(dir, w.value)
		}
		out = append(out, w)
	}
	return out
}

// oldStyle rewrites tar's first word when it is a cluster without a
// dash, "czf a.tgz", as the options it gives, "-c -z -f a.tgz": each
// letter that takes an argument takes the next word.
func oldStyle(args []word) []word {
	if len(args) == 0 || strings.HasPrefix(args[0].value, "-") || !args[0].literal {
		return args
	}
	letters, rest := args[0].value, args[1:]
	out := make([]word, 0, len(args)+len(letters))
	for i := 0; i < len(letters); i++ {
		out = append(out, word{value: "-" + letters[i:i+1], literal: true, pos: args[0].pos, end: args[0].end})
		if o, ok := tarOptions.indexed().short[letters[i]]; ok && o.arity == required && len(rest) > 0 {
			out = append(out, rest[0])
			rest = rest[1:]
		}
	}
	return append(out, rest...)
}
