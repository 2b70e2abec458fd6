package agentpolicy

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ChristopherDavenport/agenttool"
)

// Engine is the runtime form of a [Policy]: the policy in force, compiled
// with its matchers, and the grants made since. [Build] makes one.
//   - [Engine.Decide] is the loop's BeforeToolCall hook, and
//     [Engine.ToolProvider] its ToolProvider.
//   - [Engine.SetPolicy] replaces the rules; [Engine.GrantOver] and
//     [Engine.GrantSet] grant more.
//   - [Engine.Release] answers the calls held for an ask, and
//     [Engine.Answers] answers deferred calls with a [Reviewer].
//
// One engine serves every agent of a product. It remembers what it defers
// under the call's own run ([Engine.Deferred], [Engine.Restore]), and
// decides with the grant sets of the call's scope ([ContextWithGrantScope]).
//
// It is safe for concurrent use. A decision reads an immutable compiled
// snapshot without a lock; a replacement or a grant compiles a new one and
// swaps it in. The batch hold, the deferred calls and the review log have
// small locks of their own. None is held while a hook, a splitter, a
// reviewer or an observer runs.
type Engine struct {
	snap atomic.Pointer[snapshot]
	// mu serialises the mutations that compile a snapshot from the one
	// in force; a decision never takes it.
	mu sync.Mutex

	// Set once by Build and read-only afterwards.
	matchers  map[string]ToolMatcher
	aliases   map[string][]string
	observers []func(context.Context, Verdict)
	confine   func(ctx context.Context, tool agenttool.Tool, args json.RawMessage) (bool, string)
	hooks     []hook
	tools     func(ctx context.Context, name string) (agenttool.Tool, bool)
	jnl       Journal
	indexes   []matcherIndex
	// neverStarted is WithNeverStarted's reading of the session's record.
	neverStarted func(ctx context.Context, runID, callID string) bool

	// State that outlives a call, each behind its own lock: the recent
	// batches the hold read, the calls deferred and not yet answered, and
	// the reviews the denial bound counts.
	batches  batches
	deferred deferrals
	reviews  reviewLog
}

// Option configures an [Engine] at [Build].
type Option func(*Engine)

// WithObserver registers fn to receive every verdict the engine produces,
// exactly once, after the engine has released every lock (RFC 0001 §8). A
// hook cannot append to the transcript, so this is how a verdict reaches
// the session, through [Verdict.Record].
//
// Each WithObserver adds an observer rather than replacing one. The
// observers are called in the order they were given, each with every
// verdict. So a kit that records verdicts and a product's own observer
// both see everything, whichever option comes last. A nil fn adds nothing.
func WithObserver(fn func(context.Context, Verdict)) Option {
	return func(e *Engine) {
		if fn != nil {
			e.observers = append(e.observers, fn)
		}
	}
}

// WithAliases names the tools a rule name governs, for the rules a product
// does not write itself. A settings file copied from the reference's
// documentation, or a skill's allowed-tools, uses the reference's tool
// names: "Bash", "Read", "Edit". A product's tools are named whatever the
// product named them. One name may govern several tools: Read reaches the
// search tools as well as the file one.
//
//	agentpolicy.WithAliases(map[string][]string{
//		"Bash": {"bash"},
//		"Read": {"read", "grep", "glob"},
//		"Edit": {"edit", "write"},
//	})
//
// [Build] and [Engine.SetPolicy] expand a rule whose name has an entry
// into one rule per tool it names. Each keeps the specifier, the source and
// the note. [Engine.Policy] reports the expanded rules.
//   - A name with no entry is a tool's own name, and still fails closed.
//   - Expansion is one level, and nothing folds case.
//   - An entry does not build if it has no name or a glob for a name, or
//     names no tool. Nor does a target that is empty or holds a "*".
//   - Several WithAliases add their entries; a later entry for a name
//     replaces an earlier one. The table is copied.
func WithAliases(aliases map[string][]string) Option {
	return func(e *Engine) {
		if e.aliases == nil {
			e.aliases = make(map[string][]string, len(aliases))
		}
		for name, tools := range aliases {
			e.aliases[name] = slices.Clone(tools)
		}
	}
}

// WithConfinement replaces how the engine reads whether a call runs
// confined, agenttool.ConfinedBy over the call's tool and arguments by
// default. RFC 0001 §4.3 is the full contract.
//
//   - A confined call passes a bare ask rule naming the called tool, by
//     name or glob. It is allowed, and the reason names what confined it
//     and the rule it skipped.
//   - A deny rule, and an ask rule with a specifier, apply whatever the
//     confinement; so does the default.
//   - A subject naming another tool is that tool's; the sandbox says
//     nothing about it.
//
// fn is not called for a call whose tool the loop could not resolve, which
// reads as unconfined. nil turns the reading off, so every ask rule asks.
func WithConfinement(fn func(ctx context.Context, tool agenttool.Tool, args json.RawMessage) (bool, string)) Option {
	return func(e *Engine) { e.confine = fn }
}

// Build validates the policy against the matchers and returns the
// engine. A rule that could never match is refused here, not ignored at
// the first call. Build fails with:
//   - [ErrNoDefault] when the default is unset;
//   - [ErrNoMatcher] when a rule has a specifier or a carve-out and its
//     tool has no matcher. A [ToolMatcher] with a splitter and no Match
//     counts as none;
//   - [ErrToolGlob] when a rule's tool name is a glob the engine will not
//     honour;
//   - the grammar's error for a hand-built rule without a name.
//
// [WithAliases] is applied and checked first. The lists, the matchers and
// the alias table are copied, so the caller's slices and maps are not
// retained. RFC 0001 §6 is the full contract.
func Build(p Policy, matchers map[string]ToolMatcher, opts ...Option) (*Engine, error) {
	e := &Engine{confine: agenttool.ConfinedBy, reviews: reviewLog{bound: DefaultDenialBound}}
	for _, opt := range opts {
		if opt != nil {
			opt(e)
		}
	}
	e.matchers = maps.Clone(matchers)
	if err := checkAliases(e.aliases); err != nil {
		return nil, err
	}
	if err := e.checkIndexes(); err != nil {
		return nil, err
	}
	s, err := e.compile(p)
	if err != nil {
		return nil, err
	}
	e.install(s, nil, nil, "")
	return e, nil
}

// checkAliases refuses an alias table that could name no tool, in the
// order of the names so the error is the same every time.
func checkAliases(aliases map[string][]string) error {
	for _, name := range slices.Sorted(maps.Keys(aliases)) {
		switch {
		case name == "":
			return errAliasUnnamed
		case (Rule{Tool: name}).Glob():
			return errAliasGlob(name)
		case len(aliases[name]) == 0:
			return errAliasEmpty(name)
		}
		for _, tool := range aliases[name] {
			if tool == "" || strings.Contains(tool, "*") {
				return errAliasTarget(name, tool)
			}
		}
	}
	return nil
}

// SetPolicy replaces the policy the engine decides with. It is validated
// as [Build] validates one and expanded through the same aliases. The
// matchers are not rebuilt, and the hook values the loop holds keep
// working. So a product can re-derive its rules mid-run, where agentturn
// would refuse a new config. A tool an MCP server announces need not wait
// on an [Ask] default.
//
// The policy in force changes for the next call decided; a decision under
// way finishes under the rules it started with. A policy that does not
// build returns its error and leaves the one in force in place.
//   - It replaces the rules [Engine.Grant] and [Engine.GrantOver] added
//     too, since those are part of the policy a product derives.
//   - It keeps the rule sets [Engine.GrantSet] activated, the deferred
//     calls and the batch memo.
//   - It is not journalled; a product records it where it derives the
//     policy.
func (e *Engine) SetPolicy(p Policy) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, err := e.compile(p)
	if err != nil {
		return err
	}
	cur := e.snap.Load()
	e.install(s, cur.grants.sets, nil, "")
	return nil
}

// Policy returns a copy of the policy to persist, its rules as evaluated:
//   - aliases expanded, lists in merged order;
//   - the grants of [Engine.Grant] and [Engine.GrantOver] applied;
//   - carve-outs and removals included.
//
// What a product writes back into its settings is all here;
// [Engine.PolicyOf] is one source's part. Changing the copy changes
// nothing in the engine.
//
// The rule sets [Engine.GrantSet] activated are not here; [Engine.Grants]
// reports them. They last as long as the skill that carries them, and an
// engine built from this policy decides as this one once they are revoked.
func (e *Engine) Policy() Policy {
	return e.snap.Load().policy.clone()
}

// Sources returns the sources the policy was merged from, as [Merge] listed
// them, so the session can name the policy in force.
func (e *Engine) Sources() []Source {
	return slices.Clone(e.snap.Load().policy.Sources)
}

// Withheld returns the allow rules withheld from untrusted sources, in
// this order:
//   - those [Merge] withheld, before alias expansion;
//   - those of the untrusted sets [Engine.GrantSet] activated, as given, in
//     [Engine.Grants] order.
//
// The engine never consults them. A front shows them when it asks whether
// to trust a folder or a skill, so the user reads what trusting allows.
// Trusting a source means merging or granting again with [Source.Trusted]
// set.
func (e *Engine) Withheld() []Rule {
	s := e.snap.Load()
	withheld := slices.Clone(s.policy.Withheld)
	for _, g := range s.grants.ordered() {
		withheld = append(withheld, g.withheld...)
	}
	return withheld
}
