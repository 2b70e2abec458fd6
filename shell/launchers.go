package shell

// The launchers: programs that run a command given on their command line
// under a tracer, a debugger, another root, namespace, scheduling policy,
// limit or session. Each is a wrapper (wrappers.go) with its real options,
// one a line; an option a table does not list makes the line ask, since
// the splitter could not tell where the command begins. An option that
// runs a program of its own, loads a library, names a configuration that
// may, or moves the command to another directory is left out for that
// reason: it asks.

// addLaunchers adds the launchers to the table.
func addLaunchers(table map[string]*program) {
	addSupervisors(table)
	for name, prog := range map[string]*program{
		"strace": {
			flags: flagSet(byEffect{
				inert: `
					a: columns:
					b: detach-on:
					c summary-only
					C summary
					d debug
					D
					daemonize::
					e:
					trace:
					signal:
					status:
					abbrev:
					verbose:
					raw:
					read:
					write:
					f follow-forks
					F
					h help
					i instruction-pointer
					I: interruptible:
					k stack-traces
					n syscall-number
					O: summary-syscall-overhead:
					P: trace-path:
					p: attach:
					q
					quiet::
					r
					relative-timestamps::
					s: string-limit:
					S: summary-sort-by:
					t
					absolute-timestamps::
					T
					syscall-times::
					U: summary-columns:
					v no-abbrev
					V version
					w summary-wall-clock
					x
					strings-in-hex::
					X: const-print-style:
					y
					decode-fds::
					Y
					decode-pids::
					z successful-only
					Z failed-only
					A output-append-mode
					output-separately
					seccomp-bpf
					tips::
				`,
				writesArg: `
					o: output:
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help", "V", "version"}},
		},
		"ltrace": {
			flags: flagSet(byEffect{
				inert: `
					a: align:
					b no-signals
					c
					C demangle
					D: debug:
					e:
					f
					h help
					i
					l: library:
					L
					n: indent:
					p:
					r
					s:
					S
					t
					T
					w: where:
					x:
					V version
				`,
				writesArg: `
					o: output:
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help", "V", "version"}},
		},
		"chroot": {
			flags: flagSet(byEffect{
				inert: `
					groups:
					userspec:
					skip-chdir
					help
					version
				`,
			}),
			wraps: &wrapper{operands: 1, none: []string{"help", "version"}, privileged: true, startsShell: true,
				elsewhere: "chroot runs the command under another root"},
		},
		"unshare": {
			flags: flagSet(byEffect{
				inert: `
					f fork
					map-user:
					map-group:
					r map-root-user
					c map-current-user
					map-auto
					map-users:
					map-groups:
					kill-child::
					mount-proc::
					propagation:
					setgroups:
					keep-caps
					S: setuid:
					G: setgid:
					monotonic:
					boottime:
					h help
					V version
				`,
				writesArg: `
					m:: mount::
					u:: uts::
					i:: ipc::
					n:: net::
					p:: pid::
					U:: user::
					C:: cgroup::
					T:: time::
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help", "V", "version"}, privileged: true, startsShell: true},
		},
		"nsenter": {
			flags: flagSet(byEffect{
				inert: `
					t: target:
					m:: mount::
					u:: uts::
					i:: ipc::
					n:: net::
					p:: pid::
					U:: user::
					C:: cgroup::
					T:: time::
					a all
					S: setuid:
					G: setgid:
					preserve-credentials
					F no-fork
					h help
					V version
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help", "V", "version"}, privileged: true, startsShell: true,
				elsewhere: "nsenter runs the command in another process's namespaces"},
		},
		"pkexec": {
			flags: flagSet(byEffect{
				inert: `
					user:
					disable-internal-agent
					keep-cwd
					help
					version
				`,
			}),
			wraps: &wrapper{none: []string{"help", "version"}, privileged: true, startsShell: true},
		},
		"setpriv": {
			flags: flagSet(byEffect{
				inert: `
					d dump
					clear-groups
					groups:
					keep-groups
					init-groups
					inh-caps:
					ambient-caps:
					bounding-set:
					ruid:
					euid:
					rgid:
					egid:
					reuid:
					regid:
					nnp no-new-privs
					securebits:
					pdeathsig:
					reset-env
					h help
					V version
				`,
			}),
			wraps: &wrapper{none: []string{"d", "dump", "h", "help", "V", "version"}, privileged: true},
		},
		"chrt": {
			flags: flagSet(byEffect{
				inert: `
					a all-tasks
					b batch
					d deadline
					f fifo
					i idle
					m max
					o other
					p pid
					r rr
					R reset-on-fork
					T: sched-runtime:
					P: sched-period:
					D: sched-deadline:
					v verbose
					h help
					V version
				`,
			}),
			wraps: &wrapper{operands: 1, none: []string{"m", "max", "p", "pid", "h", "help", "V", "version"}},
		},
		"prlimit": {
			flags: flagSet(byEffect{
				inert: `
					p: pid:
					o: output:
					noheadings
					raw
					verbose
					c:: core::
					d:: data::
					e:: nice::
					f:: fsize::
					i:: sigpending::
					l:: memlock::
					m:: rss::
					n:: nofile::
					q:: msgqueue::
					r:: rtprio::
					s:: stack::
					t:: cpu::
					u:: nproc::
					v:: as::
					x:: locks::
					y:: rttime::
					h help
					V version
				`,
			}),
			wraps: &wrapper{none: []string{"p", "pid", "h", "help", "V", "version"}},
		},
		"numactl": {
			flags: flagSet(byEffect{
				inert: `
					a all
					b balancing
					C: physcpubind:
					H hardware
					i: interleave:
					l localalloc
					m: membind:
					N: cpunodebind:
					p: preferred:
					P: preferred-many:
					s show
					w: weighted-interleave:
					h help
				`,
			}),
			wraps: &wrapper{none: []string{"H", "hardware", "s", "show", "h", "help"}},
		},
		"cgexec": {
			flags: flagSet(byEffect{
				inert: `
					g:
					sticky
					h help
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help"}},
		},
		"fakeroot": {
			flags: flagSet(byEffect{
				inert: `
					u unknown-is-real
					b: fd-base:
					h help
					v version
				`,
				readsArg: `
					i:
				`,
				writesArg: `
					s:
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help", "v", "version"}, startsShell: true},
		},
		"proot": {
			flags: flagSet(byEffect{
				inert: `
					0 root-id
					k: kernel-release:
					v: verbose:
					V version
					h help
				`,
			}),
			wraps: &wrapper{none: []string{"V", "version", "h", "help"}, startsShell: true},
		},
		"firejail": {
			flags: flagSet(byEffect{
				inert: `
					quiet
					noprofile
					net:
					nonewprivs
					noroot
					nosound
					novideo
					seccomp
					caps.drop:
					private-dev
					private-tmp
					help
					version
				`,
			}),
			wraps: &wrapper{none: []string{"help", "version"}, startsShell: true},
		},
		"systemd-run": {
			flags: flagSet(byEffect{
				inert: `
					user
					system
					scope
					u: unit:
					description:
					slice:
					r remain-after-exit
					service-type:
					t pty
					P pipe
					q quiet
					wait
					G collect
					nice:
					no-block
					no-ask-password
					h help
					version
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help", "version"}, privileged: true,
				elsewhere: "systemd-run runs the command in the directory its service manager gives it"},
		},
		"xvfb-run": {
			flags: flagSet(byEffect{
				inert: `
					a auto-servernum
					d auto-display
					h help
					l listen-tcp
					n: server-num:
					p: xauth-protocol:
					s: server-args:
					w: wait:
				`,
				writesArg: `
					e: error-file:
					f: auth-file:
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help"}},
		},
		"dbus-run-session": {
			flags: flagSet(byEffect{
				inert: `
					help
					version
				`,
			}),
			wraps: &wrapper{none: []string{"help", "version"}},
		},
		"ssh-agent": {
			flags: flagSet(byEffect{
				inert: `
					c
					s
					D
					d
					E:
					k
					t:
				`,
				writesArg: `
					a:
				`,
			}),
			wraps: &wrapper{none: []string{"k"}},
		},
		// --tool is not in valgrind's table: it loads the file the name
		// makes, "../" and all.
		"valgrind": {
			flags: flagSet(byEffect{
				inert: `
					h help
					help-debug
					version
					q quiet
					v verbose
					trace-children::
					trace-children-skip::
					child-silent-after-fork::
					track-fds::
					time-stamp::
					error-exitcode::
					leak-check::
					show-leak-kinds::
					errors-for-leak-kinds::
					show-reachable::
					leak-resolution::
					track-origins::
					undef-value-errors::
					num-callers::
					error-limit::
					max-stackframe::
					main-stacksize::
					gen-suppressions::
				`,
				readsArg: `
					suppressions::
				`,
				writesArg: `
					log-file::
					xml-file::
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help", "help-debug", "version"}},
		},
		"caffeinate": {
			flags: flagSet(byEffect{
				inert: `
					d
					i
					m
					s
					u
					t:
					w:
				`,
			}),
			wraps: &wrapper{},
		},
		"entr": {
			flags: flagSet(byEffect{
				inert: `
					a
					c
					d
					n
					p
					r
					s
					x
					z
				`,
			}),
			wraps: &wrapper{shell: []string{"s"}},
		},
		// dtach and abduco keep a program in a session they detach from:
		// "dtach -n SOCKET [options] CMD…", "abduco -n NAME CMD…"; dtach
		// -a and -p, and abduco -a, attach to one and run nothing.
		"dtach": {
			flags: flagSet(byEffect{
				inert: `
					a:
					A:
					c:
					n:
					N:
					p:
					e:
					E
					r:
					z
				`,
			}),
			wraps: &wrapper{none: []string{"a", "p"}},
		},
		"abduco": {
			flags: flagSet(byEffect{
				inert: `
					a
					A
					c
					n
					f
					r
					l
					q
					e:
				`,
			}),
			wraps: &wrapper{operands: 1, none: []string{"a"}, startsShell: true},
		},
		"eatmydata": {
			flags: flagSet(byEffect{
				inert: `
					help
					version
				`,
			}),
			wraps: &wrapper{none: []string{"help", "version"}},
		},
		"chronic": {
			flags: flagSet(byEffect{
				inert: `
					e
					v
				`,
			}),
			wraps: &wrapper{},
		},
		"ifne": {
			flags: flagSet(byEffect{
				inert: `
					n
				`,
			}),
			wraps: &wrapper{},
		},
		"catchsegv": {
			flags: flagSet(byEffect{}),
			wraps: &wrapper{},
		},
		"faketime": {
			flags: flagSet(byEffect{
				inert: `
					m
					f
					exclude-monotonic
					disable-shm
					h help
					v version
				`,
			}),
			// "faketime TIMESTAMP CMD…"
			wraps: &wrapper{operands: 1, none: []string{"h", "help", "v", "version"}},
		},
		"gosu": {
			flags: flagSet(byEffect{
				inert: `
					help
					version
				`,
			}),
			// "gosu USER CMD…" runs the command as USER.
			wraps: &wrapper{operands: 1, none: []string{"help", "version"}, privileged: true},
		},
		"su-exec": {
			flags: flagSet(byEffect{}),
			wraps: &wrapper{operands: 1, privileged: true},
		},
		"tini": {
			flags: flagSet(byEffect{
				inert: `
					h
					version
					v
					w
					g
					s
					p:
					e:
					l
				`,
			}),
			wraps: &wrapper{none: []string{"h", "version", "l"}},
		},
		"dumb-init": {
			flags: flagSet(byEffect{
				inert: `
					c single-child
					r: rewrite:
					v verbose
					V version
					h help
				`,
			}),
			wraps: &wrapper{none: []string{"V", "version", "h", "help"}},
		},
		"torsocks": {
			flags: flagSet(byEffect{
				inert: `
					u: user:
					p: pass:
					a: address:
					P: port:
					i isolate
					d debug
					q quiet
					h help
					version
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help", "version"}},
		},
		"proxychains4": {
			flags: flagSet(byEffect{
				inert: `
					q
				`,
				readsArg: `
					f:
				`,
			}),
			wraps: &wrapper{},
		},
		"sandbox-exec": {
			flags: flagSet(byEffect{
				inert: `
					n:
					p:
					D:
				`,
				readsArg: `
					f:
				`,
			}),
			wraps: &wrapper{},
		},
		"cross-env": {
			flags: flagSet(byEffect{}),
			wraps: &wrapper{assigns: true},
		},
	} {
		table[name] = prog
	}
}
