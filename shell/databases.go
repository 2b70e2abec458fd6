package shell

import "strings"

// The database shells, sqlite3, psql and mysql: programs whose command
// language has, besides SQL that may change the database, a command that
// runs a shell command (sqlite3's .shell and .system, psql's \!, mysql's
// system and \!) and commands that pipe their output to one or read
// from one (sqlite3's .output |cmd, psql's \o |cmd, mysql's pager).
// Every command they are given is code, so a call that runs one asks;
// the shell commands its literal text names are read as shell code, so a
// deny rule for what they run denies the call. An
// option the tables do not know asks too, as does a program with no
// command, which reads its commands from standard input.

// addDatabases adds the database shells to the table.
func addDatabases(table map[string]*program) {
	table["sqlite3"] = &program{hook: sqliteEffects}
	table["psql"] = &program{hook: func(base string, args []word) effects {
		return databaseEffects(base, psqlOptions.parseFlags(base, args, true), psqlShellCommands)
	}}
	table["mysql"] = &program{hook: func(base string, args []word) effects {
		return databaseEffects(base, mysqlOptions.parseFlags(base, args, true), mysqlShellCommands)
	}}
	table["mariadb"] = table["mysql"]
}

// sqliteOptions are sqlite3's options, written with one dash or two and
// read here as long ones. -cmd is a command run before the operands; the
// operands after the database are commands too.
var sqliteOptions = flagSet(byEffect{
	inert: `
		append
		ascii
		bail
		batch
		box
		column
		csv
		deserialize
		echo
		header
		noheader
		help
		html
		interactive
		json
		line
		list
		markdown
		maxsize:
		memtrace
		mmap:
		newline:
		nofollow
		nonce:
		nullvalue:
		quote
		readonly
		safe
		separator:
		stats
		table
		tabs
		version
		vfs:
		zip
	`,
	inlineCode: `
		cmd:
	`,
	loadsCode: `
		init:
	`,
})

// sqliteEffects reads sqlite3's command line: its first operand is the
// database, the others, and every -cmd, are commands; -init names a file
// of commands.
func sqliteEffects(base string, args []word) effects {
	p := sqliteOptions.parseFlags(base, longOptions(args, false), true)
	if len(p.operands) > 0 {
		// The database, which sqlite3 reads and may write.
		db := p.operands[0]
		p.operands = p.operands[1:]
		e := databaseEffects(base, p, sqliteShellCommands)
		e.reads = append(e.reads, db)
		e.unseen = firstOf(e.unseen, base+" opens the database "+db.value)
		return e
	}
	return databaseEffects(base, p, sqliteShellCommands)
}

// psqlOptions are psql's options: -c is a command, -f a file of them;
// -L and -o write a file.
var psqlOptions = flagSet(byEffect{
	inert: `
		a echo-all
		A no-align
		b echo-errors
		csv
		d: dbname:
		e echo-queries
		E echo-hidden
		F: field-separator:
		h: host:
		H html
		l list
		n no-readline
		p: port:
		P: pset:
		q quiet
		R: record-separator:
		s single-step
		S single-line
		t tuples-only
		T: table-attr:
		U: username:
		v: set: variable:
		V version
		w no-password
		W password
		x expanded
		X no-psqlrc
		z field-separator-zero
		0 record-separator-zero
		1 single-transaction
		? help
	`,
	inlineCode: `
		c: command:
	`,
	loadsCode: `
		f: file:
	`,
	writesArg: `
		L: log-file:
		o: output:
	`,
})

// mysqlOptions are the options of mysql (and mariadb) a call commonly
// gives: -e is a command; --init-command is one run on connecting; the
// files of defaults are settings that may name either.
var mysqlOptions = flagSet(byEffect{
	inert: `
		B batch
		column-names
		N skip-column-names
		D: database:
		default-character-set:
		E vertical
		f force
		h: host:
		H html
		A no-auto-rehash
		no-defaults
		p:: password::
		P: port:
		protocol:
		r raw
		s silent
		S: socket:
		t table
		u: user:
		v verbose
		V version
		X xml
		? help
	`,
	inlineCode: `
		e: execute:
		init-command:
	`,
	loadsCode: `
		defaults-file:
		defaults-extra-file:
	`,
	writesArg: `
		T: tee:
	`,
	runs: `
		pager::
	`,
})

// databaseEffects is the effect of a database shell whose command line is
// read: it asks, for its commands are code; a file an option loads is
// read; and what the literal commands reach (dbcommands.go) is read: the
// shell commands they run as scripts, the files they read and write as
// files.
func databaseEffects(base string, p parsed, commandsOf func(string) reach) effects {
	if len(p.operands) == 0 && len(p.options) == 1 && p.opaque == "" && (p.has("version", "V", "help", "?")) {
		// Only its version or its help, which run no command.
		return effects{}
	}
	e := effects{unseen: p.opaque}
	var commands []word
	for _, g := range p.options {
		switch {
		case !g.hasValue:
		case g.effect == inlineCode:
			commands = append(commands, g.value)
		case g.effect == loadsCode:
			e.reads = append(e.reads, g.value)
			e.unseen = firstOf(e.unseen, base+" "+g.written+" runs the commands of a file the splitter does not read")
		case g.effect == writesArg && base == "psql" && strings.HasPrefix(g.value.value, "|"):
			// psql -o '|cmd' pipes its output to the command.
			commands = append(commands, word{value: `\o ` + g.value.value, literal: g.value.literal})
		case g.effect == writesArg:
			e.writes = append(e.writes, g.value)
		case g.effect == runs:
			// mysql --pager=cmd pipes its output to the command.
			commands = append(commands, word{value: "pager " + g.value.value, literal: g.value.literal})
		}
	}
	if base == "sqlite3" {
		commands = append(commands, p.operands...)
	}
	for _, c := range commands {
		if !c.literal {
			e.unseen = firstOf(e.unseen, base+" runs a command made when it runs")
			continue
		}
		r := commandsOf(c.value)
		e.scripts = append(e.scripts, r.scripts...)
		e.reads = append(e.reads, r.reads...)
		e.writes = append(e.writes, r.writes...)
	}
	if len(commands) == 0 {
		e.unseen = firstOf(e.unseen, base+" reads its commands from standard input")
		e.commandsIn = commandsOf
	}
	e.unseen = firstOf(e.unseen, base+" runs commands that may change the database or run a shell command")
	return e
}
