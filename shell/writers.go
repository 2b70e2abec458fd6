package shell

import "strings"

// The programs that write files whose names they make when they run, or
// that take their commands or the names of their files from standard
// input: split and csplit (a prefix and a suffix they count), shuf -o,
// patch (the files its patch names), ed (its commands), unzip, ar and
// cpio (the members of an archive); and those that replace or remove
// their operands: the compressors, unlink and shred. The files they read
// are subjects, so
// a deny rule for one holds; what they write without naming it asks.

// addWriters adds the programs to the table.
func addWriters(table map[string]*program) {
	table["shuf"] = &program{
		flags: gnuOptions(byEffect{
			inert: `
				e echo
				i: input-range:
				n: head-count:
				r repeat
				z zero-terminated
			`,
			readsArg: `
				random-source:
			`,
			writesArg: `
				o: output:
			`,
		}),
		permute: true, readOnly: true, files: shufFiles,
	}
	table["split"] = &program{
		flags: gnuOptions(byEffect{
			inert: `
				a: suffix-length:
				additional-suffix:
				b: bytes:
				C: line-bytes:
				d
				numeric-suffixes::
				x
				hex-suffixes::
				e elide-empty-files
				l: lines:
				n: number:
				separator:
				t:
				u unbuffered
				verbose
			`,
			runs: `
				filter:
			`,
		}),
		permute: true, files: firstRead, check: namesMade,
	}
	table["csplit"] = &program{
		flags: gnuOptions(byEffect{
			inert: `
				b: suffix-format:
				f: prefix:
				k keep-files
				n: digits:
				s quiet silent
				z elide-empty-files
				suppress-matched
			`,
		}),
		permute: true, files: firstRead, check: namesMade,
	}
	table["patch"] = &program{
		flags: gnuOptions(byEffect{
			inert: `
				b backup
				B: prefix:
				binary
				c context
				D: ifdef:
				dry-run
				e ed
				E remove-empty-files
				f force
				F: fuzz:
				g: get:
				l ignore-whitespace
				merge::
				n normal
				N forward
				p: strip:
				R reverse
				s quiet silent
				t batch
				T set-time
				u unified
				V: version-control:
				verbose
				x: debug:
				Y: basename-prefix:
				z: suffix:
				Z set-utc
				follow-symlinks
				posix
				quoting-style:
				read-only:
				reject-format:
				backup-if-mismatch
				no-backup-if-mismatch
			`,
			readsArg: `
				i: input:
			`,
			writesArg: `
				o: output:
				r: reject-file:
			`,
			changes: `
				d: directory:
			`,
		}),
		permute: true, files: patchFiles, check: patchWrites,
	}
	table["ed"] = &program{
		flags: gnuOptions(byEffect{
			inert: `
				G traditional
				l loose-exit-status
				p: prompt:
				r restricted
				s quiet silent
				v verbose
				E extended-regexp
			`,
		}),
		permute: true, files: readsAll, check: edCommands,
	}
	table["unzip"] = &program{
		flags: flagSet(byEffect{
			inert: `
				l
				v
				t
				z
				Z
				p
				c
				q
				f
				u
				n
				o
				j
				C
				L
				M
				s
				V
				X
				K
				a
				b
				B
				D
				T
				W
				h
				hh
			`,
			writesArg: `
				d:
			`,
			changes: `
				x:
				P:
				I:
				O:
			`,
		}),
		permute: true, readOnly: true, files: firstRead, check: unzipMembers,
	}
	table["cpio"] = &program{
		flags: flagSet(byEffect{
			inert: `
				t list
				v verbose
			`,
		}),
		files: noFiles, check: cpioNames,
	}
	table["ar"] = &program{
		flags: flagSet(byEffect{
			inert: `
				t
				v
			`,
		}),
		files: arFiles, check: arMembers,
	}
	table["unlink"] = &program{flags: gnuOptions(byEffect{}), permute: true, files: writesAll}
	table["shred"] = &program{
		flags: gnuOptions(byEffect{
			inert: `
				f force
				n: iterations:
				s: size:
				u
				remove::
				v verbose
				x exact
				z zero
			`,
			readsArg: `
				random-source:
			`,
		}),
		permute: true, files: writesAll,
	}
	// bzip2 -d names what it cannot strip a suffix from NAME.out.
	for name, suffixes := range map[string][]string{"gzip": {".gz"}, "gunzip": {".gz"}, "bzip2": {".bz2", ".out"}, "bunzip2": {".bz2", ".out"}, "xz": {".xz"}, "unxz": {".xz"}} {
		table[name] = &program{flags: gnuOptions(byEffect{inert: compressorOptions[name[len(name)-2:]]}), permute: true, files: compressed(suffixes)}
	}
}

// compressorOptions are the options of gzip ("ip"), bzip2 ("p2") and xz
// ("xz"), by the last letters of their names, shared by the programs that
// undo them.
var compressorOptions = map[string]string{
	"ip": `
		c stdout to-stdout
		d decompress uncompress
		f force
		k keep
		l list
		n no-name
		N name
		q quiet
		r recursive
		S: suffix:
		t test
		v verbose
		fast
		best
		rsyncable
		synchronous
		1
		2
		3
		4
		5
		6
		7
		8
		9
	`,
	"p2": `
		c stdout
		d decompress
		z compress
		k keep
		f force
		t test
		q quiet
		v verbose
		s small
		fast
		best
		1
		2
		3
		4
		5
		6
		7
		8
		9
	`,
	"xz": `
		z compress
		d decompress
		t test
		l list
		k keep
		f force
		c stdout
		q quiet
		v verbose
		e extreme
		T: threads:
		fast
		best
	` + digits,
}

// compressed are the files a compressor reaches: it reads its operands
// and, but with -c, -l or -t, replaces each with a file named after it,
// the suffix added or taken away (gunzip .bashrc.gz makes .bashrc), and
// removes it.
func compressed(known []string) fileOperands {
	return func(p parsed) (reads, writes []word) {
		if p.has("c", "stdout", "to-stdout", "l", "list", "t", "test") {
			return p.operands, nil
		}
		suffixes := known[:len(known):len(known)]
		for _, g := range p.options {
			if g.name == "S" || g.name == "suffix" {
				suffixes = append(suffixes, g.value.value)
			}
		}
		for _, w := range p.operands {
			writes = append(writes, w)
			for _, s := range suffixes {
				added := w
				added.value += s
				writes = append(writes, added)
				if taken, ok := strings.CutSuffix(w.value, s); ok {
					named := w
					named.value = taken
					writes = append(writes, named)
				}
			}
		}
		return p.operands, writes
	}
}

// shufFiles is the file shuf reads: its operand, unless -e makes the
// operands the lines or -i a range.
func shufFiles(p parsed) (reads, writes []word) {
	if p.has("e", "echo", "i", "input-range") {
		return nil, nil
	}
	return p.operands, nil
}

// firstRead is a command that reads its first operand: split's input,
// csplit's, the archive unzip reads.
func firstRead(p parsed) (reads, writes []word) {
	if len(p.operands) == 0 {
		return nil, nil
	}
	return p.operands[:1], nil
}

// namesMade is why split and csplit write files no rule can name: a
// prefix and a suffix they count, which may spell any name (".bash" and
// "rc").
func namesMade(base string, _ parsed) string {
	return base + " writes files whose names it makes when it runs"
}

// patchFiles are the files patch names on its command line: the file it
// patches, read and written, and the patch it reads.
func patchFiles(p parsed) (reads, writes []word) {
	switch len(p.operands) {
	case 0:
		return nil, nil
	case 1:
		return p.operands, p.operands
	}
	return p.operands[:2], p.operands[:1]
}

// patchWrites is why patch writes files no rule can name: those its
// patch names, and their backups; --dry-run writes none.
func patchWrites(_ string, p parsed) string {
	if p.has("dry-run") {
		return ""
	}
	return "patch writes the files its patch names, known only when it runs"
}

// edCommands is why ed runs what no rule reads: its commands, from
// standard input, may write any file and run a shell ("!cmd").
func edCommands(string, parsed) string {
	return "ed runs the commands it reads from standard input"
}

// unzipMembers is why unzip writes files no rule can name: the members
// of the archive, unless it only lists, tests or prints them.
func unzipMembers(_ string, p parsed) string {
	if p.has("l", "v", "t", "z", "Z", "p", "c") {
		return ""
	}
	return "unzip writes the files the archive holds, known only when it runs"
}

// cpioNames is why cpio reads or writes files no rule can name: -o reads
// their names from standard input, -i and -p write the members; only -t
// lists.
func cpioNames(_ string, p parsed) string {
	if p.has("t", "list") && len(p.operands) == 0 {
		return ""
	}
	return "cpio copies files whose names it reads when it runs"
}

// arFiles are the files ar names: the archive and the members, after
// the key when it is written without a dash.
func arFiles(p parsed) (reads, writes []word) {
	if len(p.options) == 0 && len(p.operands) > 0 {
		return p.operands[1:], nil
	}
	return p.operands, nil
}

// arMembers is why ar writes what no rule names: its first word is a key
// ("t", "-tv", "rcs"); only t and p, which list and print, change nothing.
func arMembers(_ string, p parsed) string {
	key := ""
	for _, g := range p.options {
		key += g.name
	}
	if key == "" && len(p.operands) > 0 {
		key = p.operands[0].value
	}
	if key != "" && strings.Trim(key, "tpvO") == "" {
		return ""
	}
	return "ar " + key + " writes the members of an archive, known only when it runs"
}
