// Package agentpolicy decides what an AI agent may do. It has a rule
// grammar over tool calls and an engine that serves the agentturn loop's
// BeforeToolCall and ToolProvider hooks. Every decision yields a [Verdict],
// which a product records beside its session. Guards over what enters or
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
// The hook values are the whole interface to the loop (RFC 0001 §4, §7, §9).
// BeforeToolCall does one of three things with a call:
//   - allow it;
//   - block it with a reason the model reads ("denied by bash(rm:*)");
//   - defer it to the caller, who answers through the loop's Resume.
//
// The calls held beside a deferred one are answered with [Engine.Release].
// When nobody is there to ask, a [Reviewer] answers through [Engine.Answers].
// ToolProvider leaves out of the request a tool that a deny rule with no
// specifier takes away, so the model never plans around it.
//
// # Precedence and sources
//
// Precedence is always deny, then ask, then allow, then the default,
// whatever source a rule came from (RFC 0001 §4.1). Within a list, the
// first rule that matches is cited.
//
// A tool's [Subjects] splits a call into subjects, such as a shell command
// into its subcommands (§4.2). Each subject is decided on its own, and the
// call is:
//   - blocked if any subject is denied;
//   - deferred if any subject asks;
//   - allowed only when every subject is allowed.
//
// [Merge] combines the settings files of several [Source]s, ordered by rank
// (§5). It withholds the allow rules of the sources the user has not
// trusted. A carve-out, read(!.env.example), lets some calls past a rule
// of a source it does not rank below.
//
// # Reading the arguments
//
// The policy reads a call's arguments as the tool will (§3.1). Every
// matcher and splitter reads a member with [Field]. A call whose rules read
// its arguments is blocked when two decoders could read them differently:
// a key repeated, or spelled twice in different case.
//
// # Grants
//
// [Engine.GrantOver] answers a prompt with "always allow" (§14.1). It writes
// into the policy the rules a product persists, which [Engine.PolicyOf]
// returns.
//
// [Engine.GrantSet] activates a skill's rules beside the policy, for one
// conversation under [ContextWithGrantScope], until [Engine.Revoke] takes
// them back (§14.2). Its allow rules shadow the ask rules of the sources it
// does not rank below.
//
// # The engine and its record
//
// [Build] compiles the policy once into an immutable form indexed by tool
// (§6). A decision reads only its own tool's rules and takes no lock.
// [Engine.SetPolicy] replaces the policy under a running loop.
//
// The engine never calls a model or opens a socket. The same policy and
// call always give the same verdict. Every verdict reaches every observer
// exactly once, in the order the observers were given (§8).
// [Verdict.Record] writes it for the session.
//
// A [Journal], given with [WithJournal], is written before a verdict takes
// effect (§17). An allow or a grant it cannot record is refused. The
// journal package keeps one in a file.
//
// # Unattended runs
//
// A run nobody watches answers its asks with [Unattended] (§17.2). It
// refuses each ask and queues it for a person, who answers it later with
// [Engine.GrantOver] from the queue's entry. A run that ended waiting for
// an answer is answered in another process, after [Engine.Restore]
// rebuilds its deferrals from the journal (§17.3).
//
// # Examples and the contract
//
// The examples show the scenarios end to end:
//   - a batch held and released (Engine.Decide);
//   - a reviewer (Engine.Answers);
//   - a skill's grant (Engine.GrantSet);
//   - "always allow" (Engine.GrantOver);
//   - sources merged (Merge).
//
// RFC 0001, rfc/0001-agent-policy.md, is the full contract.
package agentpolicy
