package agentpolicy

// The policy must read a call's arguments as the tool will: a model that
// controls its own output (a prompt injection in a README is enough) tries
// every shape under which the policy and a Go tool decoding with
// encoding/json could read different commands.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy/internal/scripted"
	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// attack is arguments a model sends to a tool, and the verdict the
// policy of attackPolicy gives them under a default that allows.
type attack struct {
	name, tool, args string
	action           agentturn.ToolAction
	reason           string
}

// The tools of the attacks: bash reads "command"; task reads "task",
// which has an "s" and a "k" for the long s and the Kelvin sign to fold
// to.
func attackMatchers(m func(string) Matcher) map[string]ToolMatcher {
	return map[string]ToolMatcher{"bash": {Match: m("command")}, "task": {Match: m("task")}}
}

func attackPolicy(t testing.TB, d Default) Policy {
	return Policy{
		Deny:    parseOrFail(t, "bash(rm:*) task(rm:*)"),
		Allow:   parseOrFail(t, "bash(git status:*) task(git status:*)"),
		Default: d,
	}
}

func unreadable(tool, problem string) string {
	return tool + " call could not be evaluated: ambiguous arguments: " + problem
}

var attacks = []attack{
	// The table.
	{"other case only", "bash", `{"Command":"rm -rf /"}`, agentturn.Block, "denied by bash(rm:*)"},
	{"upper case after", "bash", `{"command":"git status","COMMAND":"rm -rf /"}`, agentturn.Block, unreadable("bash", `"command" also as "COMMAND"`)},
	{"title case after", "bash", `{"command":"git status","Command":"rm -rf /"}`, agentturn.Block, unreadable("bash", `"command" also as "Command"`)},

	// Key case and folding, in either order.
	{"other case before", "bash", `{"Command":"rm -rf /","command":"git status"}`, agentturn.Block, unreadable("bash", `"Command" also as "command"`)},
	{"two other cases", "bash", `{"Command":"git status","cOMMAND":"rm -rf /"}`, agentturn.Block, unreadable("bash", `"Command" also as "cOMMAND"`)},
	{"other case only, allowed command", "bash", `{"Command":"git status"}`, agentturn.Allow, "allowed by bash(git status:*)"},
	{"long s after", "task", `{"task":"git status","taſk":"rm -rf /"}`, agentturn.Block, unreadable("task", `"task" also as "taſk"`)},
	{"long s escaped", "task", `{"task":"git status","ta\u017fk":"rm -rf /"}`, agentturn.Block, unreadable("task", `"task" also as "taſk"`)},
	{"long s before", "task", `{"taſk":"rm -rf /","task":"git status"}`, agentturn.Block, unreadable("task", `"taſk" also as "task"`)},
	{"long s only", "task", `{"taſk":"rm -rf /"}`, agentturn.Block, "denied by task(rm:*)"},
	{"Kelvin sign after", "task", `{"task":"git status","tas\u212a":"rm -rf /"}`, agentturn.Block, unreadable("task", "\"task\" also as \"tas\u212a\"")},
	{"Kelvin sign before", "task", "{\"tas\u212a\":\"rm -rf /\",\"task\":\"git status\"}", agentturn.Block, unreadable("task", "\"tas\u212a\" also as \"task\"")},
	{"Kelvin sign only", "task", `{"tas\u212a":"rm -rf /"}`, agentturn.Block, "denied by task(rm:*)"},

	// Duplicates, in either order, escaped keys among them.
	{"duplicate after", "bash", `{"command":"git status","command":"rm -rf /"}`, agentturn.Block, unreadable("bash", `"command" appears twice`)},
	{"duplicate before", "bash", `{"command":"rm -rf /","command":"git status"}`, agentturn.Block, unreadable("bash", `"command" appears twice`)},
	{"escaped duplicate after", "bash", `{"command":"git status","comman\u0064":"rm -rf /"}`, agentturn.Block, unreadable("bash", `"command" appears twice`)},
	{"escaped duplicate before", "bash", `{"\u0063ommand":"rm -rf /","command":"git status"}`, agentturn.Block, unreadable("bash", `"command" appears twice`)},
	{"escaped key only", "bash", `{"comman\u0064":"rm -rf /"}`, agentturn.Block, "denied by bash(rm:*)"},
	{"escaped key only, allowed command", "bash", `{"\u0063ommand":"git status"}`, agentturn.Allow, "allowed by bash(git status:*)"},
	{"escaped other case", "bash", `{"command":"git status","\u0043ommand":"rm -rf /"}`, agentturn.Block, unreadable("bash", `"command" also as "Command"`)},
	{"escaped value", "bash", `{"command":"\u0072m -rf /"}`, agentturn.Block, "denied by bash(rm:*)"},
	{"duplicate of another key", "bash", `{"command":"git status","cwd":"/","cwd":"/tmp"}`, agentturn.Block, unreadable("bash", `"cwd" appears twice`)},

	// Nested objects with the same key are not the top level.
	{"nested same key", "bash", `{"command":"git status","opts":{"command":"rm -rf /"}}`, agentturn.Allow, "allowed by bash(git status:*)"},
	{"nested duplicates", "bash", `{"opts":{"command":"rm -rf /","Command":"x","command":"y"},"command":"git status"}`, agentturn.Allow, "allowed by bash(git status:*)"},
	{"nested in an array", "bash", `{"command":"git status","x":[{"command":"rm -rf /"}]}`, agentturn.Allow, "allowed by bash(git status:*)"},
	{"only nested", "bash", `{"opts":{"command":"rm -rf /"}}`, agentturn.Allow, "allowed by default"},

	// Values that are not strings: the tool's string field cannot hold
	// them, so it runs nothing.
	{"array value", "bash", `{"command":["rm","-rf","/"]}`, agentturn.Allow, "allowed by default"},
	{"object value", "bash", `{"command":{"rm":"-rf /"}}`, agentturn.Allow, "allowed by default"},
	{"number value", "bash", `{"command":1}`, agentturn.Allow, "allowed by default"},
	{"null value", "bash", `{"command":null}`, agentturn.Allow, "allowed by default"},
	{"non-string duplicate", "bash", `{"command":"git status","command":["rm -rf /"]}`, agentturn.Block, unreadable("bash", `"command" appears twice`)},

	// Arguments that are not one object.
	{"array", "bash", `[{"command":"rm -rf /"}]`, agentturn.Block, unreadable("bash", "not a JSON object")},
	{"string", "bash", `"rm -rf /"`, agentturn.Block, unreadable("bash", "not a JSON object")},
	{"two objects", "bash", `{"command":"git status"}{"command":"rm -rf /"}`, agentturn.Block, unreadable("bash", "not one JSON object")},
	{"not JSON", "bash", `rm -rf /`, agentturn.Block, unreadable("bash", "invalid JSON at byte 0")},
	{"truncated", "bash", `{"command":"git status"`, agentturn.Block, unreadable("bash", "invalid JSON: unexpected end")},

	// Text decoders repair differently.
	{"invalid UTF-8 in a key", "bash", "{\"command\":\"git status\",\"comm\xe1nd\":\"rm -rf /\"}", agentturn.Block, unreadable("bash", "invalid UTF-8 at byte 29")},
	{"invalid UTF-8 in the value", "bash", "{\"command\":\"rm\xff -rf /\"}", agentturn.Block, unreadable("bash", "invalid UTF-8 at byte 14")},
	{"unpaired surrogate in a key", "bash", `{"command":"git status","command\ud800":"rm -rf /"}`, agentturn.Block, unreadable("bash", "unpaired surrogate escape at byte 32")},
	{"unpaired surrogate in the value", "bash", `{"command":"rm -rf /\udfff"}`, agentturn.Block, unreadable("bash", "unpaired surrogate escape at byte 20")},
	{"surrogate pair", "bash", `{"command":"git status \ud83d\ude00"}`, agentturn.Allow, "allowed by bash(git status:*)"},
}

// toolReads is the command a Go tool decoding the arguments into its
// struct with encoding/json runs, "" when it runs none.
func toolReads(tool string, args []byte) string {
	if tool == "task" {
		var a taskArgs
		if json.Unmarshal(args, &a) != nil {
			return ""
		}
		return a.Task
	}
	var a bashArgs
	if json.Unmarshal(args, &a) != nil {
		return ""
	}
	return a.Command
}

func TestAmbiguousArgumentsThroughDecide(t *testing.T) {
	for _, m := range []struct {
		name string
		new  func(string) Matcher
	}{{"glob", GlobMatcher}, {"prefix", PrefixMatcher}} {
		for _, d := range []struct {
			name string
			d    Default
		}{{"allow", Allow()}, {"ask", Ask()}} {
			e := mustBuild(t, attackPolicy(t, d.d), attackMatchers(m.new))
			for _, tc := range attacks {
				t.Run(m.name+"/"+d.name+"/"+tc.name, func(t *testing.T) {
					info := callInfo(tc.tool, json.RawMessage(tc.args))
					dec, err := e.Decide(context.Background(), info)
					if err != nil {
						t.Fatal(err)
					}
					action, reason := tc.action, tc.reason
					if reason == "allowed by default" && d.name == "ask" {
						action, reason = agentturn.Defer, "no rule allows "+tc.tool+": approval required by default"
					}
					if dec.Action != action || dec.Reason != reason {
						t.Errorf("decision = %s %q, want %s %q", actionWord(dec.Action), dec.Reason, actionWord(action), reason)
					}
					runs := toolReads(tc.tool, []byte(tc.args))
					if dec.Action == agentturn.Allow && strings.HasPrefix(runs, "rm") {
						t.Errorf("allowed, and the tool runs %q", runs)
					}
					if dec.Action != agentturn.Allow || runs == "" {
						return
					}
					field := map[string]string{"bash": "command", "task": "task"}[tc.tool]
					read, ok, err := readField([]byte(tc.args), field, true)
					if err != nil || !ok || read != runs {
						t.Errorf("allowed on %q (%v, %v), and the tool runs %q", read, ok, err, runs)
					}
				})
			}
		}
	}
}

// TestAmbiguousSubjects holds what a splitter returns to the one reading:
// each subject of a tool whose rules read arguments, under the rules of
// the tool it is decided as, and an ambiguity the splitter reports reads
// as the engine's own.
func TestAmbiguousSubjects(t *testing.T) {
	split := func(subjects ...Subject) Subjects {
		return func(json.RawMessage) ([]Subject, error) { return subjects, nil }
	}
	fieldSplit := func(args json.RawMessage) ([]Subject, error) {
		cmd, _, err := Field(args, "command")
		if err != nil {
			return nil, fmt.Errorf("agentpolicy/shell: %w", err)
		}
		return []Subject{{Args: shellArgs(cmd), Text: cmd}}, nil
	}
	for _, tc := range []struct {
		name  string
		split Subjects
		// editReads gives the edit tool a rule with a specifier.
		editReads bool
		args      string
		action    agentturn.ToolAction
		reason    string
	}{
		{"the call's own arguments first", split(Subject{Args: shellArgs("git status")}), false,
			`{"command":"git status","command":"rm -rf /"}`, agentturn.Block, unreadable("bash", `"command" appears twice`)},
		{"a subject of the called tool", split(Subject{Args: json.RawMessage(`{"command":"git status","Command":"rm"}`)}), false,
			`{"command":"x"}`, agentturn.Block, unreadable("bash", `"command" also as "Command"`)},
		{"a subject of a tool whose rules read", split(Subject{Args: shellArgs("git status")}, Subject{Tool: "edit", Args: json.RawMessage(`{"path":"a","path":"b"}`)}), true,
			`{"command":"x"}`, agentturn.Block, unreadable("bash", `"path" appears twice`)},
		{"a subject of a tool whose rules read nothing", split(Subject{Args: shellArgs("git status")}, Subject{Tool: "edit", Args: json.RawMessage(`{"path":"a","path":"b"}`)}), false,
			`{"command":"x"}`, agentturn.Allow, "allowed by bash(git status:*)"},
		{"a constraint", split(Subject{Tool: "edit", Args: json.RawMessage(`[]`), Constrain: true}), true,
			`{"command":"git status"}`, agentturn.Block, unreadable("bash", "not a JSON object")},
		{"the splitter's own reading", fieldSplit, false,
			`{"command":["rm -rf /"]}`, agentturn.Block, unreadable("bash", `"command" is not a string`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Policy{Allow: parseOrFail(t, "bash(git status:*) edit"), Deny: parseOrFail(t, "bash(rm:*)"), Default: Allow()}
			if tc.editReads {
				p.Deny = append(p.Deny, parseOrFail(t, "edit(/etc:*)")...)
			}
			matchers := map[string]ToolMatcher{
				"bash": {Match: PrefixMatcher("command"), Subjects: tc.split},
				"edit": {Match: PrefixMatcher("path")},
			}
			checkDecision(t, mustBuild(t, p, matchers), callInfo("bash", json.RawMessage(tc.args)), tc.action, tc.reason)
		})
	}
}

func checkDecision(t *testing.T, e *Engine, info agentturn.ToolCallInfo, action agentturn.ToolAction, reason string) {
	t.Helper()
	d, err := e.Decide(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	if d.Action != action || d.Reason != reason {
		t.Errorf("decision = %s %q, want %s %q", actionWord(d.Action), d.Reason, actionWord(action), reason)
	}
}

// TestAmbiguousSiblingHoldsTheBatch: the batch hold reads a sibling as
// the policy does, so a sibling with ambiguous arguments cannot be
// evaluated and holds the call the policy allows.
func TestAmbiguousSiblingHoldsTheBatch(t *testing.T) {
	e := mustBuild(t, attackPolicy(t, Allow()), attackMatchers(GlobMatcher))
	calls := []*openresponses.FunctionCall{
		{CallID: "call_1", Name: "bash", Arguments: `{"command":"git status"}`},
		{CallID: "call_2", Name: "bash", Arguments: `{"command":"git status","Command":"rm -rf /"}`},
	}
	d, err := e.Decide(context.Background(), batchInfo("run_1", calls, 0, nil))
	if err != nil {
		t.Fatal(err)
	}
	if d.Action != agentturn.Defer || !d.Held {
		t.Errorf("call_1 = %s held=%v %q, want held", actionWord(d.Action), d.Held, d.Reason)
	}
	d, err = e.Decide(context.Background(), batchInfo("run_1", calls, 1, nil))
	if err != nil {
		t.Fatal(err)
	}
	if want := unreadable("bash", `"command" also as "Command"`); d.Action != agentturn.Block || d.Reason != want {
		t.Errorf("call_2 = %s %q, want block %q", actionWord(d.Action), d.Reason, want)
	}
}

// TestAmbiguousRewrite: arguments a hook rewrites are decided again, on
// the same reading.
func TestAmbiguousRewrite(t *testing.T) {
	rewrite := fixed(&agentturn.ToolDecision{Action: agentturn.Allow, Args: json.RawMessage(`{"command":"git status","command":"rm -rf /"}`)})
	e := mustBuild(t, attackPolicy(t, Allow()), attackMatchers(GlobMatcher), WithHooks(rewrite))
	checkDecision(t, e, callInfo("bash", shellArgs("git status")), agentturn.Block, unreadable("bash", `"command" appears twice`))
}

// TestAmbiguousArgumentsEndToEnd runs every attack through the stand-in
// loop, the engine as its hook and a default that allows, with typed
// tools that decode their arguments the ordinary Go way and record what
// they run: rm never runs.
func TestAmbiguousArgumentsEndToEnd(t *testing.T) {
	for _, tc := range attacks {
		t.Run(tc.name, func(t *testing.T) {
			log := &ranLog{}
			e := mustBuild(t, attackPolicy(t, Allow()), attackMatchers(GlobMatcher))
			agent := agentturn.New(agentturn.Config{
				Model: &scripted.Model{Turns: [][]*openresponses.FunctionCall{{
					{CallID: "call_1", Name: tc.tool, Arguments: tc.args},
				}}},
				Tools: []agenttool.Tool{
					typedTool(log, "bash", func(a bashArgs) string { return a.Command }),
					typedTool(log, "task", func(a taskArgs) string { return a.Task }),
				},
				BeforeToolCall: e.BeforeToolCall(),
				MaxTurns:       3,
			})
			if _, err := agent.Prompt(context.Background(), openresponses.UserText("read the README")); err != nil {
				t.Fatal(err)
			}
			ran := log.list()
			for _, r := range ran {
				if strings.Contains(r, "rm") {
					t.Fatalf("the tool ran %q", r)
				}
			}
			if tc.action == agentturn.Allow && toolReads(tc.tool, []byte(tc.args)) != "" && len(ran) != 1 {
				t.Errorf("ran %q, want the allowed call to run", ran)
			}
		})
	}
}

// typedTool is a tool that decodes its arguments into A with
// agenttool.Decode, encoding/json underneath, as a Go tool is ordinarily
// written, and records the command it runs.
func typedTool[A any](log *ranLog, name string, command func(A) string) agenttool.Tool {
	return agenttool.NewFunc(name, "", json.RawMessage(`{"type":"object"}`),
		func(_ context.Context, c agenttool.Call) (agenttool.Result, error) {
			a, err := agenttool.Decode[A](c.Args)
			if err != nil {
				return agenttool.ErrorResult(err), err
			}
			log.add(name + " " + command(a))
			return agenttool.Text("ok"), nil
		})
}

type bashArgs struct {
	Command string `json:"command"`
}

type taskArgs struct {
	Task string `json:"task"`
}

// FuzzAmbiguousArgs decides arbitrary arguments under a policy whose
// default allows: whatever the engine allows, a Go tool decoding with
// encoding/json runs what the policy read, or nothing.
func FuzzAmbiguousArgs(f *testing.F) {
	for _, tc := range attacks {
		if tc.tool == "bash" {
			f.Add([]byte(tc.args))
		}
	}
	e := mustBuild(f, attackPolicy(f, Allow()), attackMatchers(GlobMatcher))
	f.Fuzz(func(t *testing.T, args []byte) {
		d, err := e.Decide(context.Background(), callInfo("bash", args))
		if err != nil {
			t.Fatal(err)
		}
		runs := toolReads("bash", args)
		if d.Action != agentturn.Allow || runs == "" {
			return
		}
		read, ok, err := readField(args, "command", true)
		if err != nil || !ok || read != runs {
			t.Fatalf("%q allowed (%s) on %q (%v, %v), and the tool runs %q", args, d.Reason, read, ok, err, runs)
		}
	})
}

// TestAmbiguousUnderGrantSetRules holds a call to one reading when only a
// grant set's rules read its arguments: a skill's deny rule on a tool the
// policy names no specifier for is not passed over by arguments the tool
// reads as another command.
func TestAmbiguousUnderGrantSetRules(t *testing.T) {
	e := mustBuild(t, Policy{Default: Allow()}, shellMatchers())
	set := RuleSet{Source: Source{Name: "skill:x", Trusted: true}, Deny: parseOrFail(t, "bash(rm:*)")}
	if granted, refused := e.GrantSet(context.Background(), set); len(granted) != 0 || len(refused) != 0 {
		t.Fatalf("GrantSet = %v, %v", granted, refused)
	}
	for args, reason := range map[string]string{
		`{"command":"ls","Command":"rm -rf /"}`: unreadable("bash", `"command" also as "Command"`),
		`{"command":"rm -rf /","command":"ls"}`: unreadable("bash", `"command" appears twice`),
		`{"command":"rm -rf /"}`:                "denied by bash(rm:*)",
	} {
		checkDecision(t, e, callInfo("bash", json.RawMessage(args)), agentturn.Block, reason)
	}
	// A tool none of whose rules read arguments still lets them through.
	checkDecision(t, e, callInfo("read", json.RawMessage(`{"path":"a","path":"b"}`)), agentturn.Allow, "allowed by default")
}
