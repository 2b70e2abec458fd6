package agentpolicy

// Tools is a tool set split the way the presets need it: the tools that
// read, the tools that edit, and the tools that execute. The split is the
// product's; the presets only name the tools. See [Suggest], [AutoEdit] and
// [FullAuto].
type Tools struct {
	Read    []string
	Edit    []string
	Execute []string
}

// Suggest approximates Codex's most conservative mode:
//   - reads run;
//   - everything that changes the world asks, unless its tool says the call
//     runs confined;
//   - a tool the split does not name asks.
//
// The reference also confines the run to a read-only sandbox, which is the
// product's to arrange.
//
// Confinement is one bit: a tool says a call is confined and what confines
// it, not what that sandbox permits. Under a sandbox that permits writes,
// workspace-write, Suggest therefore allows every confined command
// [AutoEdit] allows, "rm -rf src" included. A product whose sandbox
// permits writes makes its commands ask by passing, with Suggest, one of:
//   - WithConfinement(nil);
//   - a reading that answers confined only for a read-only sandbox.
//
// A host whose tools are discovered at run time does one of two things. It
// replaces the default with [Policy.WithDefault]. Or it names the
// discovered tools in the split, and follows its tool list with
// [Engine.SetPolicy].
func Suggest(t Tools) Policy {
	return Policy{
		Allow:   bare(t.Read),
		Ask:     bare(t.Edit, t.Execute),
		Default: Ask(),
	}
}

// AutoEdit approximates Codex's middle mode:
//   - reads and edits run;
//   - commands ask, unless their tool says they run confined;
//   - a tool the split does not name asks.
//
// The reference confines the edits to the workspace, which is the
// product's to arrange. A confined command is allowed whatever its sandbox
// permits; see [Suggest]. A host whose tools are discovered at run time
// handles them as with [Suggest].
func AutoEdit(t Tools) Policy {
	return Policy{
		Allow:   bare(t.Read, t.Edit),
		Ask:     bare(t.Execute),
		Default: Ask(),
	}
}

// FullAuto approximates Codex's unattended mode: every tool the split names
// runs without asking. The confinement is the sandbox's, which is the
// product's to arrange. A tool the split does not name still asks, so a
// tool a plugin adds later does not run unseen. A host that wants such a
// tool to run handles it as with [Suggest]: [Policy.WithDefault], or the
// tool named in the split and [Engine.SetPolicy].
func FullAuto(t Tools) Policy {
	return Policy{
		Allow:   bare(t.Read, t.Edit, t.Execute),
		Default: Ask(),
	}
}

// bare returns a rule with no specifier for every tool named, in order.
func bare(groups ...[]string) []Rule {
	var rules []Rule
	for _, names := range groups {
		for _, name := range names {
			rules = append(rules, Rule{Tool: name})
		}
	}
	return rules
}
