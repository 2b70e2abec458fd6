package main

import (
	"slices"
	"sync"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/claudecode"
)

// residentEngines are the engines the resident process (hook serve) keeps
// between calls; nil in a process that answers one call. Each call still
// reads every settings and rule file anew; only building the engine from
// what it read is saved, when an earlier call read the same.
var residentEngines *engineCache

// maxCachedEngines bounds the engines kept: a few projects' sessions at
// once.
const maxCachedEngines = 8

// engineCache holds the engines built for the last calls, most recent
// first, each with everything its build read.
type engineCache struct {
	mu      sync.Mutex
	entries []builtEngine
}

// builtEngine is an engine and the inputs it was built from: the settings
// the matchers are made from, the directory relative paths start in, the
// other agents' rule files read (which wrap the matchers) and the policy.
// Build reads nothing else ([claudecode.Settings.Equal] compares all of
// the settings), and the hook only asks an engine what it would decide ([agentpolicy.Engine.Would]), which changes nothing in it,
// so an engine built from equal inputs answers as a new one would.
type builtEngine struct {
	settings      *claudecode.Settings
	dir           string
	codex, gemini bool
	policy        agentpolicy.Policy
	engine        *agentpolicy.Engine
}

// engine is the engine of the loaded policy: one built before from equal
// inputs, else a new one, which is kept.
func (c *engineCache) engine(p *loadedPolicy, dir string) (*agentpolicy.Engine, error) {
	key := builtEngine{settings: p.settings, dir: dir, codex: p.agents.codex != nil, gemini: p.agents.gemini != nil, policy: p.policy}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.dir == key.dir && e.codex == key.codex && e.gemini == key.gemini &&
			samePolicy(e.policy, key.policy) && e.settings.Equal(key.settings) {
			copy(c.entries[1:i+1], c.entries[:i])
			c.entries[0] = e
			return e.engine, nil
		}
	}
	eng, err := p.build(p.matchers)
	if err != nil {
		return nil, err
	}
	key.engine = eng
	c.entries = append([]builtEngine{key}, c.entries[:min(len(c.entries), maxCachedEngines-1)]...)
	return eng, nil
}

// samePolicy reports whether two policies hold the same rules, in the
// same order, from the same sources, with the same default.
func samePolicy(a, b agentpolicy.Policy) bool {
	return a.Default == b.Default && slices.Equal(a.Deny, b.Deny) && slices.Equal(a.Ask, b.Ask) &&
		slices.Equal(a.Allow, b.Allow) && slices.Equal(a.Sources, b.Sources) && slices.Equal(a.Withheld, b.Withheld)
}
