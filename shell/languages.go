package shell

// The interpreters' tables: one entry per family, its options declared
// by effect, one option a line, as every table of the package is, and
// read by the one option reader. The options that put code on the
// command line are inlineCode, those that load code or a setting that
// may are loadsCode, whatever their letters; an option a table does not
// hold makes the call ask.

// pythonOptions are CPython's, and PyPy's and the py launcher's: -c is
// the program, -m runs a module with the words after it, -X and -W may
// import code (a warning filter imports the category after its colon).
var pythonOptions = flagSet(byEffect{
	inert: `
		b
		B
		d
		E
		h help
		i
		I
		O
		P
		q
		s
		S
		u
		v
		V version
		x
		help-env
		help-xoptions
		help-all
		check-hash-based-pycs:
	`,
	inlineCode: `
		c:
	`,
	loadsCode: `
		X:
		W:
	`,
	runsRest: `
		m:
	`,
})

// nodeOptions are node's, ts-node's and tsx's: -e and -p are the
// program, --require, --import and the loaders load code, --env-file
// sets the variables the program runs with (NODE_OPTIONS among them).
var nodeOptions = flagSet(byEffect{
	inert: `
		c check
		i interactive
		v version
		h help
		C: conditions:
		inspect::
		inspect-brk::
		inspect-port:
		watch
		watch-path:
		input-type:
		title:
		no-warnings
		no-deprecation
		trace-warnings
		trace-deprecation
		throw-deprecation
		pending-deprecation
		enable-source-maps
		preserve-symlinks
		abort-on-uncaught-exception
		unhandled-rejections:
		stack-size:
		max-old-space-size:
		test
		expose-gc
	`,
	inlineCode: `
		e: eval:
		p: print:
	`,
	loadsCode: `
		r: require:
		import:
		loader:
		experimental-loader:
		env-file:
		env-file-if-exists:
		experimental-config-file:
	`,
})

// perlOptions are perl's: -e and -E are the program, -M and -m load a
// module, -d:MODULE a debugger module; -x, -i, -0, -C, -D and -V take
// their value joined, or none; -l takes the octal digits joined to it
// and the cluster goes on (perlrun: -l[octnum]), as -0 does (-0777e
// CODE), whose hexadecimal form -0xHH is read as -0 and an inert -x
// taking the rest.
var perlOptions = flagSet(byEffect{
	inert: `
		a
		c
		f
		g
		h
		n
		p
		s
		S
		t
		T
		u
		U
		v version
		w
		W
		X
		l#
		I:
		F::
		i::
		x::
		0#
		C::
		D::
		V::
	`,
	inlineCode: `
		e:
		E:
	`,
	loadsCode: `
		M:
		m:
		d::
	`,
})

// rubyOptions are ruby's, jruby's and irb's: -e is the program, -r
// loads a library.
var rubyOptions = flagSet(byEffect{
	inert: `
		a
		c
		d debug
		l
		n
		p
		s
		S
		v verbose
		w
		y yydebug
		h help
		version
		copyright
		I:
		C:
		E: encoding:
		external-encoding:
		internal-encoding:
		F:
		W::
		x::
		i::
		0::
		T::
		disable:
		enable:
		jit
		yjit
	`,
	inlineCode: `
		e:
	`,
	loadsCode: `
		r:
	`,
})

// phpOptions are php's: -r, -B, -R and -E are code, -d sets a setting
// that may load a file (auto_prepend_file), -c names the settings, -z
// loads an extension; -f names the script, -t and -S a server's.
var phpOptions = flagSet(byEffect{
	inert: `
		a
		C
		h help
		H
		i info
		l syntax-check
		m
		n
		q
		s
		v version
		w
		e
		ini
		f: file:
		F:
		t:
		S:
		rf:
		rc:
		re:
		rz:
		ri:
	`,
	inlineCode: `
		r: run:
		B:
		R:
		E:
	`,
	loadsCode: `
		d:
		c:
		z:
	`,
})

// luaOptions are lua's and luajit's: -e is code, -l loads a library,
// luajit's -j a module of its compiler.
var luaOptions = flagSet(byEffect{
	inert: `
		i
		v
		E
		W
		O::
	`,
	inlineCode: `
		e:
	`,
	loadsCode: `
		l:
		j:
	`,
})

// juliaOptions are julia's: -e and -E are code, -L loads a file.
var juliaOptions = flagSet(byEffect{
	inert: `
		h help
		v version
		q quiet
		i
		project::
		t: threads:
		p: procs:
		O:: optimize::
		g::
		color:
		banner:
		history-file:
		startup-file:
		compile:
		check-bounds:
		depwarn:
	`,
	inlineCode: `
		e: eval:
		E: print:
	`,
	loadsCode: `
		L: load:
		J: sysimage:
	`,
})

// rOptions are R's and Rscript's: -e is code, -f names the script.
var rOptions = flagSet(byEffect{
	inert: `
		h help
		version
		verbose
		vanilla
		q quiet silent
		save
		no-save
		restore
		no-restore
		no-environ
		no-site-file
		no-init-file
		default-packages:
	`,
	inlineCode: `
		e:
	`,
	loadsCode: `
		f: file:
	`,
})

// inlineOnly is the table of an interpreter whose one option the
// splitter follows is -e, its program on the command line, besides
// those that print and exit: osascript, groovy, scala, jrunscript, raku.
var inlineOnly = flagSet(byEffect{
	inert: `
		h help
		v version
	`,
	inlineCode: `
		e:
	`,
})

// elixirOptions are elixir's: -e is code, -r requires a file, -pa and
// -pz add code paths, -S runs a script found in PATH.
var elixirOptions = flagSet(byEffect{
	inert: `
		h help
		v version
	`,
	inlineCode: `
		e: eval:
	`,
	loadsCode: `
		r:
		pr:
		pa:
		pz:
		S:
	`,
})

// pwshOptions are PowerShell's, read case-insensitively and with one
// dash (-Command as --command): -Command and -EncodedCommand are code,
// -File names the script.
var pwshOptions = flagSet(byEffect{
	inert: `
		noprofile nop
		noninteractive noni
		nologo
		executionpolicy: ep:
		interactive
		login l
		sta
		mta
		windowstyle:
		workingdirectory: wd:
		inputformat:
		outputformat:
		version v
		help h
	`,
	inlineCode: `
		c: command:
		encodedcommand: ec: e:
	`,
	loadsCode: `
		f: file:
		settingsfile:
		configurationname:
	`,
})

// fishOptions are fish's: -c and -C are commands in its language.
var fishOptions = flagSet(byEffect{
	inert: `
		i interactive
		l login
		n no-execute
		N no-config
		P private
		p: profile:
		profile-startup:
		d: debug:
		o: debug-output:
		f: features:
		print-rusage-self
		v version
		h help
	`,
	inlineCode: `
		c: command:
		C: init-command:
	`,
})

// cshOptions are csh's and tcsh's: -c is a command in its language.
var cshOptions = flagSet(byEffect{
	inert: `
		b
		d
		D
		e
		f
		F
		i
		l
		m
		n
		q
		s
		t
		v
		V
		x
		X
		version
		help
	`,
	inlineCode: `
		c:
	`,
})

// nuOptions are nu's: -c and -e are commands in its language.
var nuOptions = flagSet(byEffect{
	inert: `
		i interactive
		l login
		n no-config-file
		no-std-lib
		no-history
		stdin
		v version
		h help
		log-level:
		config:
		env-config:
	`,
	inlineCode: `
		c: commands:
		e: execute:
	`,
})

// replShellOptions are xonsh's and elvish's: -c is a command in their
// language.
var replShellOptions = flagSet(byEffect{
	inert: `
		i interactive
		l login
		norc
		no-rc
		version
		h help
	`,
	inlineCode: `
		c:
	`,
})

// expectOptions are expect's: -c is Tcl code, -f names the script.
var expectOptions = flagSet(byEffect{
	inert: `
		d
		i
		n
		N
		v
		D:
	`,
	inlineCode: `
		c:
	`,
	loadsCode: `
		f:
		b:
	`,
})

// ipythonOptions are IPython's: -c is code, -m runs a module, which
// runs after IPython's own startup files, no tool's run.
var ipythonOptions = flagSet(byEffect{
	inert: `
		i
		quick
		no-banner
		pdb
		profile:
		help
		version
	`,
	inlineCode: `
		c:
	`,
	runsRest: `
		m:
	`,
})

// irbOptions are irb's: -r loads a library.
var irbOptions = flagSet(byEffect{
	inert: `
		d
		f
		I:
		noprompt
		simple-prompt
		v version
		h help
	`,
	loadsCode: `
		r:
	`,
})

// dcOptions are dc's: -e is code, whose ! runs a command; -f names code.
var dcOptions = flagSet(byEffect{
	inert: `
		h help
		V version
	`,
	inlineCode: `
		e: expression:
	`,
	loadsCode: `
		f: file:
	`,
})

// gdbOptions are gdb's, each a long option however many dashes it is
// written with (-ex as --ex): -ex and -iex are commands of gdb's
// language, -x and -ix files of them; --args runs the words after it,
// a program and its arguments, under the debugger.
var gdbOptions = flagSet(byEffect{
	inert: `
		batch
		batch-silent
		return-child-result
		q quiet silent
		n nx
		nh
		readnow
		readnever
		write
		statistics
		tui
		nw nowindows
		w windows
		fullname
		version
		help
		configuration
		interpreter:
		tty:
		cd:
		d: directory:
		data-directory: D:
		s: symbols:
		se:
		e: exec:
		c: core:
		p: pid:
		b:
		l:
	`,
	inlineCode: `
		ex: eval-command:
		iex: init-eval-command:
	`,
	loadsCode: `
		x: command:
		ix: init-command:
	`,
	runsRest: `
		args
	`,
})

// denoOptions are deno's before its subcommand.
var denoOptions = flagSet(byEffect{
	inert: `
		h help
		V version
		q quiet
		unstable
		log-level:
	`,
})

// bunOptions are bun's: -e and -p are the program, --preload, --require,
// --import and --env-file load code or the variables it runs with.
var bunOptions = flagSet(byEffect{
	inert: `
		watch
		hot
		smol
		silent
		cwd:
		c: config:
		v version
		h help
		revision
	`,
	inlineCode: `
		e: eval:
		p: print:
	`,
	loadsCode: `
		preload:
		r: require:
		import:
		env-file:
	`,
})

// bunRunOptions are bun run's, as bun 1.4.4's "bun run --help" lists
// them, each value's arity tried on the program: -e and -p are the
// program, --preload and its aliases, --env-file and --config (a bunfig
// may preload code) load code or the variables it runs with, the
// profiles and --redirect-warnings write a file; --inspect and its kin
// take their value only joined.
var bunRunOptions = flagSet(byEffect{
	inert: `
		i
		silent
		elide-lines:
		F: filter:
		b bun
		no-orphans
		shell:
		workspaces
		parallel
		sequential
		no-exit-on-error
		watch
		watch-kill-signal:
		hot
		no-clear-screen
		check
		smol
		interactive
		inspect::
		inspect-wait::
		inspect-brk::
		cpu-prof
		cpu-prof-md
		cpu-prof-interval:
		heap-prof
		heap-prof-md
		heap-prof-interval:
		if-present
		no-install
		install:
		prefer-offline
		prefer-latest
		port:
		conditions:
		fetch-preconnect:
		experimental-http2-fetch
		experimental-http3-fetch
		max-http-header-size:
		insecure-http-parser
		dns-result-order:
		experimental-stream-iter
		expose-gc
		no-deprecation
		throw-deprecation
		no-warnings
		trace-warnings
		trace-deprecation
		pending-deprecation
		disable-warning:
		title:
		zero-fill-buffers
		use-system-ca
		use-openssl-ca
		use-bundled-ca
		tls-min-v1.0
		tls-min-v1.1
		tls-min-v1.2
		tls-min-v1.3
		tls-max-v1.2
		tls-max-v1.3
		redis-preconnect
		sql-preconnect
		no-addons
		no-ffi-cc
		unhandled-rejections:
		console-depth:
		user-agent:
		cron-title:
		cron-period:
		main-fields:
		preserve-symlinks
		preserve-symlinks-main
		extension-order:
		d: define:
		drop:
		feature:
		l: loader:
		no-macros
		jsx-factory:
		jsx-fragment:
		jsx-import-source:
		jsx-runtime:
		jsx-side-effects
		ignore-dce-annotations
		no-env-file
		cwd:
		h help
	`,
	readsArg: `
		tsconfig-override:
	`,
	writesArg: `
		cpu-prof-name:
		cpu-prof-dir:
		heap-prof-name:
		heap-prof-dir:
		redirect-warnings:
	`,
	inlineCode: `
		e: eval:
		p: print:
	`,
	loadsCode: `
		r: preload:
		require:
		import:
		env-file:
		c:: config::
	`,
})

// tclOptions are tclsh's and wish's: none the splitter follows; the
// first operand is the script.
var tclOptions = flagSet(byEffect{})
