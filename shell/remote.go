package shell

import "strings"

// The table's entries for the commands that copy files to and from
// another host, rsync, ssh, scp and sftp (runners.go adds them): each
// option on a line of its own under the effect it has, and how the
// operands are read.

// rsyncOptions are rsync's options.
var rsyncOptions = flagSet(byEffect{
	inert: `
		v verbose
		info:
		debug:
		stderr:
		q quiet
		no-motd
		c checksum
		a archive
		r recursive
		R relative
		no-implied-dirs
		b backup
		backup-dir:
		suffix:
		u update
		inplace
		append
		append-verify
		d dirs
		mkpath
		l links
		L copy-links
		copy-unsafe-links
		safe-links
		munge-links
		k copy-dirlinks
		K keep-dirlinks
		H hard-links
		p perms
		E executability
		chmod:
		A acls
		X xattrs
		o owner
		g group
		devices
		copy-devices
		write-devices
		specials
		D
		t times
		U atimes
		open-noatime
		N crtimes
		O omit-dir-times
		J omit-link-times
		super
		fake-super
		S sparse
		preallocate
		n dry-run
		W whole-file
		checksum-choice:
		x one-file-system
		B: block-size:
		existing
		ignore-existing
		remove-source-files
		del
		delete
		delete-before
		delete-during
		delete-delay
		delete-after
		delete-excluded
		ignore-missing-args
		delete-missing-args
		ignore-errors
		force
		max-delete:
		max-size:
		min-size:
		max-alloc:
		P
		partial
		partial-dir:
		delay-updates
		m prune-empty-dirs
		numeric-ids
		usermap:
		groupmap:
		chown:
		timeout:
		contimeout:
		I ignore-times
		size-only
		modify-window:
		T: temp-dir:
		y fuzzy
		compare-dest:
		copy-dest:
		link-dest:
		z compress
		compress-choice:
		compress-level:
		skip-compress:
		C cvs-exclude
		f: filter:
		F
		exclude:
		include:
		0 from0
		s protect-args
		secluded-args
		trust-sender
		address:
		port:
		sockopts:
		blocking-io
		outbuf:
		stats
		8 8-bit-output
		h human-readable
		progress
		i itemize-changes
		out-format:
		log-file-format:
		list-only
		bwlimit:
		stop-after:
		stop-at:
		fsync
		4 ipv4
		6 ipv6
		V version
		help
		no-v
		no-verbose
		no-r
		no-recursive
		no-perms
		no-p
		no-times
		no-t
		no-owner
		no-o
		no-group
		no-g
		no-D
		no-devices
		no-specials
		no-links
		no-l
	`,
	readsArg: `
		exclude-from:
		include-from:
		password-file:
		read-batch:
	`,
	listsFiles: `
		files-from:
	`,
	writesArg: `
		log-file:
		write-batch:
		only-write-batch:
	`,
	runs: `
		e: rsh:
		rsync-path:
	`,
})

// rsyncFiles are the local files rsync reads and writes: the sources and
// the destination, the last operand; HOST:PATH and rsync:// URLs name
// files on another host.
func rsyncFiles(p parsed) (reads, writes []word) {
	var local []word
	for _, w := range p.operands {
		if !remotePath(w.value) {
			local = append(local, w)
		}
	}
	if len(p.operands) < 2 || remotePath(p.operands[len(p.operands)-1].value) {
		return sourcesRemoved(p, local, nil)
	}
	return sourcesRemoved(p, local[:len(local)-1], local[len(local)-1:])
}

// sourcesRemoved are rsync's files when --remove-source-files deletes
// the sources it sent: they are written as well as read. With -r or -a
// each source is read whole, a tree.
func sourcesRemoved(p parsed, sources, dest []word) (reads, writes []word) {
	if p.has("r", "recursive", "a", "archive") {
		sources = asTrees(sources, &tree{})
	}
	if p.has("remove-source-files") {
		return sources, append(dest[:len(dest):len(dest)], sources...)
	}
	return sources, dest
}

// remotePath reports whether rsync or scp reads a path as on another
// host: a colon before any slash, or a URL.
func remotePath(v string) bool {
	head, _, _ := strings.Cut(v, "/")
	return strings.Contains(head, ":")
}

// sshOptions are the options of ssh, scp and sftp: -F reads a
// configuration that may name a local command, -S and sftp's -D run a
// program.
var sshOptions = map[string]*optionTable{
	"ssh": flagSet(byEffect{
		inert: `
			4
			6
			A
			a
			C
			f
			G
			g
			K
			k
			M
			N
			n
			q
			s
			T
			t
			V
			v
			X
			x
			Y
			y
			B:
			b:
			c:
			D:
			e:
			I:
			J:
			L:
			l:
			m:
			O:
			o:
			p:
			P:
			Q:
			R:
			W:
			w:
		`,
		readsArg: `
			i:
		`,
		writesArg: `
			E:
		`,
		runs: `
			F:
			S:
		`,
	}),
	"scp": flagSet(byEffect{
		inert: `
			3
			4
			6
			A
			B
			C
			O
			p
			q
			R
			r
			s
			T
			v
			c:
			D:
			J:
			l:
			o:
			P:
			X:
		`,
		readsArg: `
			i:
		`,
		runs: `
			F:
			S:
		`,
	}),
	"sftp": flagSet(byEffect{
		inert: `
			4
			6
			A
			a
			C
			f
			N
			p
			q
			r
			v
			B:
			c:
			J:
			l:
			o:
			P:
			R:
			s:
		`,
		readsArg: `
			b:
			i:
		`,
		runs: `
			F:
			S:
			D:
		`,
	}),
}

// sshSafeSettings are the -o settings of ssh known to run no local
// command, lower case; any other asks, as ProxyCommand, LocalCommand and
// KnownHostsCommand run one.
var sshSafeSettings = map[string]bool{
	"batchmode": true, "connecttimeout": true, "connectionattempts": true, "port": true, "user": true,
	"hostname": true, "stricthostkeychecking": true, "identitiesonly": true, "serveraliveinterval": true,
	"serveralivecountmax": true, "loglevel": true, "compression": true, "requesttty": true,
	"passwordauthentication": true, "pubkeyauthentication": true, "preferredauthentications": true,
	"addressfamily": true, "tcpkeepalive": true, "forwardagent": true, "forwardx11": true,
	"hostkeyalgorithms": true, "pubkeyacceptedalgorithms": true, "kbdinteractiveauthentication": true,
	"updatehostkeys": true, "visualhostkey": true, "checkhostip": true, "exitonforwardfailure": true,
	"gssapiauthentication": true, "numberofpasswordprompts": true, "setenv": true, "sendenv": true,
}

// sshSettings is why a -o setting may run a local command: one not known
// to be safe, or one made when the command runs.
func sshSettings(base string, p parsed) string {
	for _, g := range p.options {
		if g.name != "o" || !g.hasValue {
			continue
		}
		v := g.value.value
		key, _, _ := strings.Cut(strings.TrimSpace(v), "=")
		key, _, _ = strings.Cut(key, " ")
		if !g.value.literal || !sshSafeSettings[strings.ToLower(key)] {
			return base + " -o " + key + " is not a setting known to run no local command"
		}
	}
	return ""
}
