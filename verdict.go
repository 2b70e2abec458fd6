package agentpolicy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/ChristopherDavenport/agentturn"
)

// Who a decision names as its decider, in the session format's words.
const (
	// ByPolicy is a rule the harness evaluated on its own: every decision
	// the engine makes. It is also the decider of a stricter decision for
	// which a hook given to [WithHooks] names none.
	ByPolicy = "policy"
	// ByAgent is another model: a [Reviewer] backed by one, as the
	// classify package's is, or a hook that consulted one.
	ByAgent = "agent"
	// ByHuman is a person a front asked, which is what a [Reviewer] that
	// prompts one sets on its [Review], or a hook that prompted one.
	ByHuman = "human"
)

// VerdictNS is the namespace a [Verdict] is recorded under, so a reader of
// a session recognises one without knowing the product that wrote it. See
// [Verdict.Record].
const VerdictNS = "agentpolicy:verdict"

// Verdict is what was decided and why, for recording:
//   - the engine's decision on a call, a hold and its release;
//   - a grant and its revocation ([Engine.Grant], [Engine.GrantOver],
//     [Engine.GrantSet], [Engine.Revoke]);
//   - an answer to a deferred call ([Engine.Answers]);
//   - a guard's verdict on content (package guard).
//
// The loop's recorder writes the decision the hook returned. The verdict
// carries what that entry cannot, the rule above all; a product writes it
// beside the decision with [Verdict.Record]. [WithObserver] is how a
// verdict reaches the product. RFC 0001 §8 is the full contract.
type Verdict struct {
	RunID string
	Turn  int
	// CallID and Tool name the call decided. They are empty for a
	// content verdict. A grant names the granted rule's tool. GrantOver's
	// names the run, turn and call of the verdict it answered.
	CallID string
	Tool   string
	// Guard names the guard that decided content; empty otherwise.
	Guard string
	// Action is Allow, Block or Defer.
	Action agentturn.ToolAction
	// Rule is the rule that fired, or the rule granted or refused.
	//   - On a call allowed because it runs confined, it is the ask rule
	//     the confinement skipped.
	//   - On a call a grant set's rule allowed by shadowing an ask rule, it
	//     is the set's rule.
	//   - It is nil when the default applied, and when a hook made the
	//     decision stricter. It is nil for a reviewer's answer, a
	//     revocation and a guard's verdict.
	Rule *Rule
	// Reason is the stable text behind the action, the same text the
	// model reads when the action blocks a call.
	Reason string
	// By names who decided, in the session format's words:
	//   - [ByPolicy] for a rule the engine evaluated on its own;
	//   - the decider a hook given to [WithHooks] named when it made the
	//     decision stricter;
	//   - the reviewer's [Review.By] for its answer, [ByAgent] when it
	//     names none.
	//
	// A product writes it as the decision's decider when it records the
	// verdict. It is empty for a guard's verdict, whose decider is the
	// guard that Guard names.
	By string
	// Held is set on a Defer for a call the policy allowed but holds,
	// because another call of its batch asks (RFC 0001 §9.1). It is also
	// set on the verdict that releases or refuses it once the ask is
	// answered.
	Held bool
	// Subject is the Text of the subject whose verdict the fold kept: the
	// half of a compound command that raised the question. It is as the
	// tool's [Subjects] splitter wrote it. A prompt shows it to say which
	// part of a command line it asks about; the reason names the rule.
	// It is empty for a call no splitter split, since the splitter writes
	// the text, and for a splitter that writes none.
	Subject string
	// Confined names what confines the call, as the tool's
	// agenttool.Confined reported it: "landlock+seccomp",
	// "container:agent-sandbox". It is set, whatever the action, when the
	// tool says the call runs confined. A prompt shows it beside the
	// question; on an Allow it says why nobody was asked. It is empty for
	// a call that is not confined, and for a tool that says it is and
	// names nothing.
	Confined string
	// Args, RunArgs and RunNote are set on a verdict that defers a call.
	// A record of it is then enough to answer the call in another
	// process; see [Engine.Restore]. They are empty on every other
	// verdict.
	//   - Args are the call's arguments as the hook saw them, the model's,
	//     which a reviewer reads.
	//   - RunArgs are the arguments the [WithHooks] hooks rewrote them to,
	//     empty when none did.
	//   - RunNote is the note a hook gave the call.
	//
	// A held call's release runs RunArgs and carries RunNote. They are
	// the arguments' text, as the record writes it. They are strings so
	// that a Verdict stays comparable.
	Args    string
	RunArgs string
	RunNote string
	// ArgsBytes and ArgsSHA256 are set when Args holds only the first
	// bytes of the arguments, cut by a journal's bound ([Verdict.CutArgs]).
	// They are the length in bytes of the whole and its SHA-256 in
	// lower-case hex. So a reader knows the record is not the call's whole
	// input, and can tell which input it was. They are zero and empty when
	// Args is whole.
	ArgsBytes  int
	ArgsSHA256 string
}

// verdictRecord is the shape of the custom entry, member for member in the
// order the contract fixes; every member but action is left out when empty.
type verdictRecord struct {
	RunID      string `json:"run_id,omitempty"`
	Turn       int    `json:"turn,omitempty"`
	CallID     string `json:"call_id,omitempty"`
	Tool       string `json:"tool,omitempty"`
	Guard      string `json:"guard,omitempty"`
	Action     string `json:"action"`
	Rule       string `json:"rule,omitempty"`
	Source     string `json:"source,omitempty"`
	SourceHash string `json:"source_hash,omitempty"`
	Note       string `json:"note,omitempty"`
	Reason     string `json:"reason,omitempty"`
	By         string `json:"by,omitempty"`
	Held       bool   `json:"held,omitempty"`
	Subject    string `json:"subject,omitempty"`
	Confined   string `json:"confined,omitempty"`
	// The members a deferral is restored from, written as JSON strings
	// holding the arguments' exact text, which need not be valid JSON.
	Args       string `json:"args,omitempty"`
	ArgsBytes  int    `json:"args_bytes,omitempty"`
	ArgsSHA256 string `json:"args_sha256,omitempty"`
	RunArgs    string `json:"run_args,omitempty"`
	RunNote    string `json:"run_note,omitempty"`
}

// Record returns the namespace and the bytes of the custom entry a product
// writes for the verdict. It goes beside the decision the loop's recorder
// writes for the call. So every product on this stack records a verdict
// under one name, in one shape:
//
//	ns, data := v.Record()
//	_, err := recorder.Annotate(ctx, ns, json.RawMessage(data))
//
// The bytes are JSON already, so they are handed over as a
// json.RawMessage. A recorder that encodes what it is given would write a
// []byte as a base64 string.
//
// The entry is a JSON object with these members, in order (RFC 0001 §8):
//   - run_id, turn, call_id, tool and guard, as the verdict names them;
//   - action: "allow", "block" or "defer";
//   - rule as its token, "bash(git push:*)", with source, source_hash (the
//     [Source.Hash] of its file) and note;
//   - reason, by, held, subject and confined;
//   - on a verdict that defers a call, args and run_args (each a JSON
//     string holding the arguments' text exactly) and run_note;
//   - args_bytes and args_sha256 after args when a journal cut it
//     ([Verdict.CutArgs]).
//
// A member the verdict leaves empty is left out, except action, so the
// zero Verdict records {"action":"allow"}. Encoding cannot fail, and text
// is written as it reads: "&&" in a rule stays "&&", not an HTML escape.
func (v Verdict) Record() (ns string, data []byte) {
	rec := verdictRecord{
		RunID:      v.RunID,
		Turn:       v.Turn,
		CallID:     v.CallID,
		Tool:       v.Tool,
		Guard:      v.Guard,
		Action:     actionWord(v.Action),
		Reason:     v.Reason,
		By:         v.By,
		Held:       v.Held,
		Subject:    v.Subject,
		Confined:   v.Confined,
		Args:       v.Args,
		ArgsBytes:  v.ArgsBytes,
		ArgsSHA256: v.ArgsSHA256,
		RunArgs:    v.RunArgs,
		RunNote:    v.RunNote,
	}
	if v.Rule != nil {
		rec.Rule = v.Rule.String()
		rec.Source = v.Rule.Source.Name
		rec.SourceHash = v.Rule.Source.Hash
		rec.Note = v.Rule.Note
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// The record holds strings, an int and a bool: Encode cannot fail.
	_ = enc.Encode(rec)
	return VerdictNS, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// oneEach checks that data is one JSON object that names each of its
// members once, exactly as the record writes it: encoding/json reads
// "Action" as "action" and keeps the last of two, so a record that said
// two things would be read as one of them.
func oneEach(data []byte) error {
	r := objectReader{scan: jsonScanner{data: data}}
	if err := r.open(); err != nil {
		return err
	}
	var seen uint64
	for {
		more, err := r.next()
		if err != nil || !more {
			return err
		}
		key := r.keyString()
		bit, ok := recordMembers[key]
		switch {
		case !ok:
			return fmt.Errorf("unknown member %q", key)
		case seen&bit != 0:
			return fmt.Errorf("member %q twice", key)
		}
		seen |= bit
	}
}

// recordMembers are the names of the record's members, each with a bit of
// its own.
var recordMembers = func() map[string]uint64 {
	t := reflect.TypeFor[verdictRecord]()
	names := make(map[string]uint64, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		names[name] = 1 << i
	}
	return names
}()

// ErrRecord is wrapped by the error [ParseRecord] returns for data that is
// not a verdict's record.
var ErrRecord = errors.New("agentpolicy: not a verdict record")

// ParseRecord reads back the verdict a record of [Verdict.Record] holds,
// from a journal or from a session's entries under [VerdictNS]. With it a
// product can:
//   - restore the calls a run left deferred ([Engine.Restore]);
//   - answer one a queue holds with [Engine.GrantOver].
//
// The rule read back carries its token, its source's name and hash and its
// note alone. A source's rank, path and trust are the policy's: GrantOver
// reads them from the policy's rule with the same token, source name and
// hash.
//
// A record read wrongly could answer a call nobody asked about, so these
// are errors wrapping [ErrRecord]:
//   - data that is not one JSON object with the record's members;
//   - a member the record does not have;
//   - an action other than "allow", "block" and "defer";
//   - a rule that is not one rule of the grammar, as [Rule.String] writes
//     it.
func ParseRecord(data []byte) (Verdict, error) {
	if err := oneEach(data); err != nil {
		return Verdict{}, fmt.Errorf("%w: %w", ErrRecord, err)
	}
	// oneEach has checked that every member is the record's, by its exact
	// name, so encoding/json's folding of case finds nothing to fold.
	var rec verdictRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return Verdict{}, fmt.Errorf("%w: %w", ErrRecord, err)
	}
	v := Verdict{
		RunID: rec.RunID, Turn: rec.Turn, CallID: rec.CallID, Tool: rec.Tool, Guard: rec.Guard,
		Reason: rec.Reason, By: rec.By, Held: rec.Held, Subject: rec.Subject, Confined: rec.Confined,
		Args: rec.Args, ArgsBytes: rec.ArgsBytes, ArgsSHA256: rec.ArgsSHA256, RunArgs: rec.RunArgs, RunNote: rec.RunNote,
	}
	var ok bool
	if v.Action, ok = actionOf(rec.Action); !ok {
		return Verdict{}, fmt.Errorf("%w: action %q", ErrRecord, rec.Action)
	}
	if rec.Rule == "" {
		if rec.Source != "" || rec.SourceHash != "" || rec.Note != "" {
			return Verdict{}, fmt.Errorf("%w: a source or a note without a rule", ErrRecord)
		}
		return v, nil
	}
	rules, err := ParseRules(rec.Rule)
	if err != nil || len(rules) != 1 || rules[0].String() != rec.Rule {
		return Verdict{}, fmt.Errorf("%w: rule %q is not one rule", ErrRecord, rec.Rule)
	}
	r := rules[0]
	r.Source, r.Note = Source{Name: rec.Source, Hash: rec.SourceHash}, rec.Note
	v.Rule = &r
	return v, nil
}
