// Package agentpolicy decides what an AI agent may do: a rule grammar over
// tool calls, an engine whose decisions become the agentturn loop's
// BeforeToolCall and ToolProvider hooks, and a [Verdict] for every decision
// that a product records beside its session. Guards over what enters or
// leaves the agent's window live in the guard package.
//
// A policy is three lists of rules and a default:
//
//	eng, err := agentpolicy.Build(agentpolicy.Policy{
//		Allow:   must(agentpolicy.ParseRules("read bash(git status:*)")),
//		Deny:    must(agentpolicy.ParseRules("bash(rm:*)")),
//		Ask:     must(agentpolicy.ParseRules("bash(git push:*)")),
//		Default: agentpolicy.Ask(),
//	}, map[string]agentpolicy.ToolMatcher{
//		"bash": {Match: agentpolicy.PrefixMatcher("command"), Subjects: split},
//	}, agentpolicy.WithObserver(record))
//	cfg.BeforeToolCall = eng.BeforeToolCall()
//	cfg.ToolProvider = eng.ToolProvider(tools)
//
// # The loop's hooks
//
// The hook values are the whole interface to the loop: BeforeToolCall
// allows a call, blocks it with a reason the model reads ("denied by
// bash(rm:*)"), or defers it to the caller, who answers through the loop's
// Resume, with [Engine.Release] for the calls held beside it, or with a
// [Reviewer] through [Engine.Answers] when nobody is there to ask;
// ToolProvider leaves out of the request a tool a deny rule with no
// specifier takes away, so the model never plans around it.
//
// # Precedence and sources
//
// Precedence is deny, then ask, then allow, then the default, always,
// whatever the sources the rules came from; within a list the first rule
// that matches is cited. A tool's [Subjects] splits a call into subjects, a
// shell command into its subcommands say, each decided on its own, and the
// call is blocked if any is denied, deferred if any asks, and allowed only
// when every one is allowed. [Merge] combines the settings files of several
// [Source]s, ordered by rank, withholding the allow rules of the ones the
// user has not trusted; a carve-out, read(!.env.example), lets some calls
// past a rule of a source it does not rank below.
//
// # Reading the arguments
//
// The policy reads a call's arguments as the tool will: every matcher and
// splitter reads a member with [Field], and a call whose rules read its
// arguments is blocked when two decoders could read them differently, a key
// repeated or spelled twice in different case, say.
//
// # Grants
//
// [Engine.GrantOver] answers a prompt with "always allow", writing into the
// policy the rules a product persists, [Engine.PolicyOf]; [Engine.GrantSet]
// activates a skill's rules beside it, for one conversation under
// [ContextWithGrantScope], until [Engine.Revoke] takes them back, its allow
// rules shadowing the ask rules of the sources it does not rank below.
//
// # The engine and its record
//
// [Build] compiles the policy once into an immutable form indexed by tool,
// so a decision reads the rules of its own tool and takes no lock;
// [Engine.SetPolicy] replaces it under a running loop. The engine never
// calls a model or opens a socket: the same policy and the same call always
// give the same verdict, and every verdict reaches every observer exactly
// once, in the order the observers were given, as [Verdict.Record] writes
// it for the session. A [Journal], given with [WithJournal], is written
// before a verdict takes effect, and an allow or a grant it cannot record
// is refused; the journal package keeps one in a file.
//
// # Unattended runs
//
// A run nobody watches answers its asks with [Unattended], which refuses
// each and queues it for a person, who answers it later with
// [Engine.GrantOver] from the queue's entry. A run that ended waiting for
// an answer is answered in another process after [Engine.Restore] rebuilds
// its deferrals from the journal.
//
// The examples show the scenarios end to end: a batch held and released
// (Engine.Decide), a reviewer (Engine.Answers), a skill's grant
// (Engine.GrantSet), "always allow" (Engine.GrantOver) and sources merged
// (Merge). RFC 0001, rfc/0001-agent-policy.md, is the full contract.
package agentpolicy
