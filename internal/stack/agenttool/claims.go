package agenttool

import (
	"context"
	"encoding/json"
	"strconv"
)

// Confined is implemented by a tool that can say, per call, whether the call
// runs inside a sandbox and what confines it ("landlock+seccomp",
// "container:…"). A tool that does not implement it reads as unconfined.
type Confined interface {
	Confined(ctx context.Context, args json.RawMessage) (bool, string)
}

// ConfinedBy asks t whether the call with args is confined; (false, "") when
// t makes no claim.
func ConfinedBy(ctx context.Context, t Tool, args json.RawMessage) (bool, string) {
	c, ok := t.(Confined)
	if !ok {
		return false, ""
	}
	return c.Confined(ctx, args)
}

// Replay says whether a call that may already have run may be run again.
// The zero value is [ReplayUnknown].
type Replay int

// The replay claims, from least to most permissive.
const (
	// ReplayUnknown: the tool cannot say whether a second run is safe.
	ReplayUnknown Replay = iota
	// ReplaySafe: a second run has no further effect.
	ReplaySafe
	// ReplayKeyed: a second run is safe under the first run's
	// [Call.IdempotencyKey].
	ReplayKeyed
)

// String is "unknown", "safe" or "keyed" ("Replay(n)" for other values).
func (r Replay) String() string {
	switch r {
	case ReplayUnknown:
		return "unknown"
	case ReplaySafe:
		return "safe"
	case ReplayKeyed:
		return "keyed"
	}
	return "Replay(" + strconv.Itoa(int(r)) + ")"
}

// Replayable is implemented by a tool that can say whether the call with args
// may be run a second time.
type Replayable interface {
	Replay(ctx context.Context, args json.RawMessage) Replay
}

// ReplayOf asks t whether the call with args may run again; [ReplayUnknown]
// when t makes no claim.
func ReplayOf(ctx context.Context, t Tool, args json.RawMessage) Replay {
	r, ok := t.(Replayable)
	if !ok {
		return ReplayUnknown
	}
	return r.Replay(ctx, args)
}
