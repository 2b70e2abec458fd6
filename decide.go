package agentpolicy

import (
	"cmp"
	"context"
	"encoding/json"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
)

// The decision path, in call order. This file holds the whole path but
// the steps marked with another file; each is a function that returns to
// the caller. The RFC's sections 3 to 10 are the contract.
//
//	stage                               function                  file
//	read the snapshot for ctx's scope   Engine.snapshotFor, scope decide.go
//	evaluate, then fold the hooks       Engine.judge, rejudge     decide.go
//	  confinement, subjects             Engine.evaluate, split    decide.go
//	  decide each subject, fold         snapshot.fold             decide.go
//	    the rules with the grants       snapshot.withGrants       decide.go
//	    read the subject's arguments    rules.read                field.go
//	    deny, ask, allow, default       snapshot.decideSubject    decide.go
//	    the rules that fire             rules.first, firstAsk     decide.go
//	    a grant set's shadow            rules.shadow              decide.go
//	    a rule's matcher                entry.fires               compile.go
//	hold the batch for a sibling's ask  Engine.hold               hold.go
//	journal, fail closed                Engine.journal            journal.go
//	remember a deferral                 Engine.remember           hold.go
//	tell the observers                  Engine.notify             decide.go
//
// Would runs the first two stages only.

// BeforeToolCall returns the hook value for agentturn.Config: [Engine.Decide].
func (e *Engine) BeforeToolCall() func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
	return e.Decide
}

// Decide is the verdict for one call, as the loop's BeforeToolCall hook.
// It reads one compiled snapshot of the policy from start to end, so the
// same policy, call and batch always give the same verdict.
//
// The steps, each with its RFC 0001 section:
//   - Split the call into subjects with the tool's [Subjects] (3, 4.2).
//   - Decide each subject: deny, then ask, then allow, then the default
//     (4.1). The strictest subject decides the call.
//   - A call its tool runs confined passes a bare ask rule (4.3,
//     [WithConfinement]).
//   - Fold in the [WithHooks] hooks; a hook's error is returned, with no
//     decision (10).
//   - Hold an allowed call, deferred with [Verdict.Held], while another
//     call of its batch asks; [Engine.Release] answers it later (9).
//   - Record the verdict in the [WithJournal] journal, blocking an allow it
//     could not record (17), and hand it to every observer.
//
// The decision carries the verdict's action, reason, decider and subject,
// and what the hooks added: rewritten arguments, a note, Terminate. A call
// that cannot be evaluated is blocked with a reason that says so: a failed
// splitter, an empty split, ambiguous arguments, a done context.
//
// Deferrals are remembered per run, so one engine serves every agent. The
// rules read are the policy's, the unscoped grant sets' and those of ctx's
// grant scope ([ContextWithGrantScope], 14.3). A nested call, one with a
// Parent, is reported but not remembered (9.1, 9.2).
//
// A hook chained after Decide with agentturn.ChainBeforeToolCall is
// outside the hold: a call it defers does not hold its siblings. Fold such
// hooks in with [WithHooks] instead.
func (e *Engine) Decide(ctx context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
	s := e.snapshotFor(ctx)
	var j judgement
	if err := e.judge(ctx, s, info, &j); err != nil {
		return nil, err
	}
	e.hold(ctx, s, info, &j)
	// From here the verdict carries a copy of its rule, made in Decide's one
	// allocation; remember keeps the engine's own.
	own, out := j.v.Rule, &handout{}
	j.v.Rule = out.copyRule(own)
	_ = e.journal(ctx, &j.v) // the journal's error is its own; j.v says what became of the call
	e.remember(info, &j, own)
	j.fill(&out.decision)
	e.notify(ctx, j.v)
	return &out.decision, nil
}

// handout is what one decision hands out: the loop's decision and the
// copy of the verdict's rule the journal and the observers read, made in
// one allocation.
type handout struct {
	decision agentturn.ToolDecision
	rule     Rule
}

// copyRule returns the handout's copy of rule, the engine's own, or nil
// when the verdict has none: the journal and the observers read the copy,
// so whoever changes the rule they were handed changes nothing in the
// engine.
func (out *handout) copyRule(rule *Rule) *Rule {
	if rule == nil {
		return nil
	}
	out.rule = *rule
	return &out.rule
}

// Would reports what [Engine.Decide] would decide for the call on its own,
// without deciding it. A front asks it to show which rule a call will
// match. A host asks it to tell a call the policy allows from one only a
// grant allows.
//
//   - It reads the policy, the grant sets of ctx's scope, the call's
//     confinement and the [WithHooks] fold, and returns a hook's error as
//     Decide does.
//   - It holds nothing, since it reads no siblings: Held is never set.
//   - It remembers nothing, records nothing and tells no observer.
//   - What hooks add besides the action (arguments, a note, Terminate) is
//     not returned, though a rewrite decides the verdict.
//
// Deciding the call later may differ if the rules change in between, or
// if a sibling asks.
func (e *Engine) Would(ctx context.Context, info agentturn.ToolCallInfo) (Verdict, error) {
	var j judgement
	if err := e.judge(ctx, e.snapshotFor(ctx), info, &j); err != nil {
		return Verdict{}, err
	}
	j.carry(info)
	return j.v.clone(), nil
}

// snapshotFor returns the snapshot a decision under ctx reads: the policy
// in force, the unscoped grant sets, and those of the grant scope ctx
// carries.
func (e *Engine) snapshotFor(ctx context.Context) *snapshot {
	s := e.snap.Load()
	if len(s.grants.scoped) == 0 {
		return s
	}
	return s.scope(GrantScopeFromContext(ctx))
}

// scope returns the snapshot a decision under the scope reads.
func (s *snapshot) scope(scope string) *snapshot {
	if scoped, ok := s.grants.scoped[scope]; ok {
		return scoped
	}
	return s
}

// judgement is a call's verdict before the batch hold, with what the
// hooks add to the decision besides the verdict.
type judgement struct {
	// v is the verdict, its rule the engine's own: it is copied
	// ([Verdict.clone]) wherever it leaves the engine.
	v Verdict
	// args are the arguments a hook rewrote the call to, nil when none
	// did.
	args      json.RawMessage
	note      string
	terminate bool
	// unevaluated marks a call the engine could not evaluate: a splitter
	// that failed or split nothing, or a context already done. As a
	// sibling it reads as asking.
	unevaluated bool
	// allow is the reason the policy allowed a call the hold deferred.
	allow string
}

// judge evaluates the call under s into j, which is zero, and folds the
// hooks' decisions into the policy's, see [WithHooks]. A hook's error is
// returned as it is, and j is then not to be read. j is filled in place
// because returning it costs 3 to 7% of BenchmarkDecide in copies.
func (e *Engine) judge(ctx context.Context, s *snapshot, info agentturn.ToolCallInfo, j *judgement) error {
	j.unevaluated = !e.evaluate(ctx, s, info, &j.v)
	owned := true
	for _, fn := range e.hooks {
		if j.v.Action == agentturn.Block {
			break
		}
		d, err := fn(ctx, info)
		if err != nil {
			return err
		}
		if d == nil {
			continue
		}
		if d.Args != nil {
			info.Args, j.args = d.Args, d.Args
		}
		if strictness(d.Action) > strictness(j.v.Action) {
			j.v.Action, j.v.Reason, j.v.By = d.Action, d.Reason, d.By
			if j.v.By == "" {
				j.v.By = ByPolicy
			}
			j.v.Rule, j.v.Subject = nil, ""
			owned = false
		}
		if j.note == "" {
			j.note = d.Note
		}
		j.terminate = j.terminate || d.Terminate
	}
	if j.args != nil {
		e.rejudge(ctx, s, info, j, owned)
	}
	return nil
}

// rejudge decides the rewritten arguments info carries, confinement read
// from them, and keeps the stricter of the two actions. The rewrite's
// verdict replaces the fold's when its action is stricter, or when the
// policy still owns the fold's verdict and the two actions are the same,
// since the rewrite is what runs; either way the call's confinement is the
// rewrite's.
func (e *Engine) rejudge(ctx context.Context, s *snapshot, info agentturn.ToolCallInfo, j *judgement, owned bool) {
	var r Verdict
	ok := e.evaluate(ctx, s, info, &r)
	j.unevaluated = j.unevaluated || !ok
	switch {
	case strictness(r.Action) > strictness(j.v.Action), owned && r.Action == j.v.Action:
		j.v = r
	default:
		j.v.Confined = r.Confined
	}
}

// evaluate is the policy's half of the decision path Decide and Would
// share: read the call's confinement, split the call into subjects, decide
// each subject under s, and fold the subjects' outcomes into one verdict,
// set in v, which is zero (filled in place, as judge fills j, to spare
// the copies). ok is false for a call that could not be evaluated,
// blocked: its context was done, its splitter failed, or its rules would
// read arguments that are ambiguous.
func (e *Engine) evaluate(ctx context.Context, s *snapshot, info agentturn.ToolCallInfo, v *Verdict) (ok bool) {
	v.RunID, v.Turn, v.By = info.RunID, info.Turn, ByPolicy
	if info.Call != nil {
		v.CallID, v.Tool = info.Call.CallID, info.Call.Name
	} else if info.Tool != nil {
		v.Tool = info.Tool.Name()
	}
	conf := e.confinement(ctx, info.Tool, info.Args)
	v.Confined = conf.by
	if err := ctx.Err(); err != nil {
		*v = v.unevaluable(err)
		return false
	}
	tr := s.rulesFor(v.Tool)
	subjects := []Subject{{Args: info.Args}}
	if tr.split != nil {
		// The splitter reads the call as the tool will, or not at all.
		_, _, err := checkArgs(info.Args, "")
		if err == nil {
			subjects, err = split(tr.split, info.Args)
		}
		if err != nil {
			*v = v.unevaluable(err)
			return false
		}
	}
	if err := s.fold(v, tr, subjects, conf); err != nil {
		*v = v.unevaluable(err)
		return false
	}
	return true
}

// confinement is what the called tool says about the call's sandbox.
type confinement struct {
	on bool
	by string
}

// confinement reads whether the call runs confined. A call whose tool the
// loop could not resolve reads as unconfined, and so does every call when
// the reading is off.
func (e *Engine) confinement(ctx context.Context, tool agenttool.Tool, args json.RawMessage) confinement {
	if e.confine == nil || tool == nil {
		return confinement{}
	}
	if on, by := e.confine(ctx, tool, args); on {
		return confinement{on: true, by: by}
	}
	return confinement{}
}

// split asks the tool's splitter for the call's subjects. When the
// splitter returns only constraints, the call's own arguments come first as
// an ordinary subject, since a constraint never allows anything.
func split(fn Subjects, args json.RawMessage) ([]Subject, error) {
	subjects, err := fn(args)
	if err != nil {
		return nil, err
	}
	if len(subjects) == 0 {
		return nil, errNoSubjects
	}
	for _, sub := range subjects {
		if !sub.Constrain {
			return subjects, nil
		}
	}
	return append([]Subject{{Args: args}}, subjects...), nil
}

// fold decides every subject of a call of the tool whose rules are tr
// and keeps, in v, the first subject with the strictest action. A subject
// naming another tool is decided under that tool's rules and matcher, and
// the called tool's confinement says nothing about it. The error is that
// of a subject whose arguments cannot be decided, which leaves v unset:
// one such subject and the call cannot be evaluated.
func (s *snapshot) fold(v *Verdict, tr *toolRules, subjects []Subject, conf confinement) error {
	var best outcome
	winner := -1
	for i := range subjects {
		sub := &subjects[i]
		tool, str, c := v.Tool, tr, conf
		if sub.Tool != "" && sub.Tool != v.Tool {
			tool, c = sub.Tool, confinement{}
			str = s.rulesFor(tool)
		}
		rs := s.withGrants(str, tool)
		var rd reading
		if err := rs.read(&rd, tool, sub.Args); err != nil {
			return err
		}
		out := s.decideSubject(&rs, &rd, sub, c)
		if !out.none && (winner < 0 || strictness(out.action) > strictness(best.action)) {
			best, winner = out, i
		}
	}
	text := subjects[winner].Text
	v.take(best, text)
	if v.Action == agentturn.Block && len(subjects) > 1 && text != "" {
		v.Reason = compoundReason(v.Reason, text, otherTexts(subjects, text))
	}
	return nil
}

// otherTexts lists the texts of the subjects other than the winner's, each
// once, in order, for a compound block's reason.
func otherTexts(subjects []Subject, winner string) []string {
	var texts []string
	seen := map[string]bool{winner: true}
	for _, sub := range subjects {
		if sub.Text != "" && !seen[sub.Text] {
			seen[sub.Text] = true
			texts = append(texts, sub.Text)
		}
	}
	return texts
}

// rules is what one subject of a tool is decided against, in the order
// its lists are read: the policy's rules for the tool, then those of the
// unscoped grant sets and of the grant sets of one scope, nil where there
// are none.
type rules [3]*toolRules

// withGrants returns the rules a subject of the tool is decided against:
// the policy's, tr, and the grant sets' the snapshot consults.
func (s *snapshot) withGrants(tr *toolRules, tool string) rules {
	rs := rules{tr}
	for i, layer := range s.sets {
		if layer != nil {
			rs[i+1] = layer.rulesFor(tool)
		}
	}
	return rs
}

// outcome is what one subject contributes to the fold.
type outcome struct {
	action agentturn.ToolAction
	// rule fired, or was skipped for a confined call; nil when the
	// default applied.
	rule   *compiled
	reason string
	// none marks a constraint no deny or ask rule matched: it adds
	// nothing to the fold.
	none bool
}

// decideSubject decides one subject of the tool under the precedence deny,
// then ask, then allow, then the default, over rs: the policy's rules for
// the tool and those of the grant sets the snapshot consults. A confined
// subject of the called tool passes every bare ask rule naming the tool:
// the first one it passes allows it in the ask rule's place, so the allow
// rules and the default are not read, while a deny rule and an ask rule
// with a specifier still apply. An ask rule a grant set shadows is passed
// the same way, and the set's rule allows the subject. A constraint reads
// only the deny and ask lists. A subject that hides code from the rules
// ([Subject.Unseen]) asks once no deny or ask rule has matched, grants
// included, unless the call runs confined, when it is decided as any other
// subject.
func (s *snapshot) decideSubject(rs *rules, rd *reading, sub *Subject, conf confinement) outcome {
	tool, tr := rd.tool, rs[0]
	if c := rs.first(denyList, rd); c != nil {
		return outcome{action: agentturn.Block, rule: c, reason: c.reason}
	}
	ask, skipped, shadowed := rs.firstAsk(rd, conf.on)
	switch {
	case ask != nil:
		return outcome{action: agentturn.Defer, rule: ask, reason: ask.reason}
	case sub.Unseen != "" && !conf.on:
		return outcome{action: agentturn.Defer, reason: unseenReason(sub.Unseen)}
	case sub.Constrain:
		return outcome{none: true}
	case skipped != nil:
		return outcome{action: agentturn.Allow, rule: skipped, reason: confinedReason(conf.by, skipped.token)}
	case shadowed != nil:
		return outcome{action: agentturn.Allow, rule: shadowed, reason: shadowed.reason}
	}
	if c := rs.first(allowList, rd); c != nil {
		return outcome{action: agentturn.Allow, rule: c, reason: c.reason}
	}
	reason := tr.noRule
	if tr == &s.other {
		reason = defaultReason(s.policy.Default, tool)
	}
	return outcome{action: s.policy.Default.action, reason: reason}
}

// first returns the first rule of the list that fires for the subject.
func (rs *rules) first(l list, sub *reading) *compiled {
	for _, tr := range rs {
		if tr == nil {
			continue
		}
		var buf [8]int32
		c := tr.cursor(l, sub, buf[:0])
		for en := c.next(); en != nil; en = c.next() {
			if en.fires(sub) {
				return en.compiled
			}
		}
	}
	return nil
}

// firstAsk returns the first ask rule that fires for the subject and is
// neither passed over nor shadowed. A confined subject passes over the
// bare ones, the first it passed returned as skipped; a subject a grant
// set allows passes the ask rules the set shadows, the first set rule that
// did returned as shadowed.
func (rs *rules) firstAsk(sub *reading, confined bool) (ask, skipped, shadowed *compiled) {
	for _, tr := range rs {
		if tr == nil {
			continue
		}
		var buf [8]int32
		c := tr.cursor(askList, sub, buf[:0])
		for en := c.next(); en != nil; en = c.next() {
			if !en.fires(sub) {
				continue
			}
			if confined && en.match == nil {
				skipped = cmp.Or(skipped, en.compiled)
				continue
			}
			by := rs.shadow(en, sub)
			if by == nil {
				return en.compiled, skipped, shadowed
			}
			shadowed = cmp.Or(shadowed, by)
		}
	}
	return nil, skipped, shadowed
}

// shadow returns the grant set's allow rule that shadows the ask rule en
// for the subject, or nil: the first rule of a set from another source,
// ranking at or above the ask rule's, that allows the subject.
func (rs *rules) shadow(en *entry, sub *reading) *compiled {
	for _, tr := range rs[1:] {
		if tr == nil {
			continue
		}
		var buf [8]int32
		c := tr.cursor(allowList, sub, buf[:0])
		for a := c.next(); a != nil; a = c.next() {
			if a.rule.Source.Name != en.rule.Source.Name && a.rule.Source.Rank >= en.rule.Source.Rank && a.fires(sub) {
				return a.compiled
			}
		}
	}
	return nil
}

// strictness orders the actions for the fold: Block over Defer over Allow.
func strictness(a agentturn.ToolAction) int {
	switch a {
	case agentturn.Block:
		return 2
	case agentturn.Defer:
		return 1
	default:
		return 0
	}
}

// take sets v to carry the outcome, made on the subject with the given
// text. Its rule is the engine's own, the compiled rule: a verdict leaves
// the engine as a copy ([Verdict.clone]), so whoever changes the rule it
// was handed changes nothing in the engine.
func (v *Verdict) take(o outcome, subject string) {
	v.Action, v.Reason, v.Subject = o.action, o.reason, subject
	if o.rule != nil {
		v.Rule = &o.rule.rule
	}
}

// unevaluable returns v blocked because the call could not be decided.
func (v Verdict) unevaluable(err error) Verdict {
	v.Action, v.Reason = agentturn.Block, unevaluable(v.Tool, err)
	return v
}

// asks reports whether the call, as a sibling, holds the calls of its
// batch the policy allows: it is deferred, or it could not be evaluated.
// A call a rule blocks holds nothing.
func (j *judgement) asks() bool {
	return j.v.Action == agentturn.Defer || j.unevaluated
}

// fill sets d, the handout's, to what the loop reads for the judgement.
func (j *judgement) fill(d *agentturn.ToolDecision) {
	*d = agentturn.ToolDecision{
		Action:    j.v.Action,
		Reason:    j.v.Reason,
		By:        j.v.By,
		Held:      j.v.Held,
		Subject:   j.v.Subject,
		Args:      j.args,
		Note:      j.note,
		Terminate: j.terminate,
	}
}

// notify hands the verdict to every observer, in the order they were
// given. It is called with no lock held.
func (e *Engine) notify(ctx context.Context, v Verdict) {
	for _, fn := range e.observers {
		fn(ctx, v)
	}
}
