package agentpolicy

import (
	"errors"
	"slices"
	"testing"
)

func TestParseRules(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []Rule
	}{
		{"empty", "", nil},
		{"only whitespace", " \t\n\v\f\r ", nil},
		{"bare names", "read write", []Rule{{Tool: "read"}, {Tool: "write"}}},
		{"specifier with spaces", "read bash(git status:*) bash(npm test:*)",
			[]Rule{{Tool: "read"}, {Tool: "bash", Spec: "git status:*"}, {Tool: "bash", Spec: "npm test:*"}}},
		{"literal parentheses", "Edit(./Finance (2024)/**)", []Rule{{Tool: "Edit", Spec: "./Finance (2024)/**"}}},
		{"nested parentheses", "Bash(a(b(c))d)", []Rule{{Tool: "Bash", Spec: "a(b(c))d"}}},
		{"specifier of parentheses", "Bash(())", []Rule{{Tool: "Bash", Spec: "()"}}},
		{"newline inside specifier", "Bash(a\nb)", []Rule{{Tool: "Bash", Spec: "a\nb"}}},
		{"carve-out", "read(!.env.example)", []Rule{{Tool: "read", Spec: "!.env.example"}}},
		{"double bang", "read(!!)", []Rule{{Tool: "read", Spec: "!!"}}},
		{"glob name", "mcp__* mcp__github__*", []Rule{{Tool: "mcp__*"}, {Tool: "mcp__github__*"}}},
		{"leading and trailing separators", "\r\n read \t", []Rule{{Tool: "read"}}},
		{"all six separators", "a b\tc\nd\ve\ff\rg",
			[]Rule{{Tool: "a"}, {Tool: "b"}, {Tool: "c"}, {Tool: "d"}, {Tool: "e"}, {Tool: "f"}, {Tool: "g"}}},
		{"no-break space joins", "a\u00a0b", []Rule{{Tool: "a\u00a0b"}}},
		{"next line joins", "a\u0085b", []Rule{{Tool: "a\u0085b"}}},
		{"ideographic space joins", "a\u3000b", []Rule{{Tool: "a\u3000b"}}},
		{"unicode space in specifier", "Bash(a\u2003b)", []Rule{{Tool: "Bash", Spec: "a\u2003b"}}},
		{"whitespace only specifier", "Bash( )", []Rule{{Tool: "Bash", Spec: " "}}},
		{"repeated rule kept", "read read", []Rule{{Tool: "read"}, {Tool: "read"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRules(tt.input)
			if err != nil {
				t.Fatalf("ParseRules(%q): %v", tt.input, err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ParseRules(%q) = %#v, want %#v", tt.input, got, tt.want)
			}
		})
	}
}

func TestParseRulesErrors(t *testing.T) {
	tests := []struct {
		input, kind, token string
	}{
		{"Bash(git status", kindUnbalanced, "Bash(git status"},
		{"Bash git)", kindUnbalanced, "git)"},
		{"read Bash(a))", kindUnbalanced, "Bash(a))"},
		{")", kindUnbalanced, ")"},
		{"a b(c d(e) f", kindUnbalanced, "b(c d(e) f"},
		{"(x) Bash(", kindUnbalanced, "Bash("},
		{"Bash() x)", kindUnbalanced, "x)"},
		{"(x)", kindMissingName, "(x)"},
		{"read (git status)", kindMissingName, "(git status)"},
		{"()", kindMissingName, "()"},
		{"Bash()", kindEmptySpec, "Bash()"},
		{"Bash()x", kindEmptySpec, "Bash()x"},
		{"Read(!)", kindEmptyCarveOut, "Read(!)"},
		{"Read(!)x", kindEmptyCarveOut, "Read(!)x"},
		{"Bash(a)x", kindTextAfterSpec, "Bash(a)x"},
		{"Bash(a)(b)", kindTextAfterSpec, "Bash(a)(b)"},
		{"read Bash(a)(b) (c)", kindTextAfterSpec, "Bash(a)(b)"},
	}
	for _, tt := range tests {
		rules, err := ParseRules(tt.input)
		var ge *grammarError
		if !errors.As(err, &ge) {
			t.Errorf("ParseRules(%q) = %v, %v, want a %s error", tt.input, rules, err, tt.kind)
			continue
		}
		if rules != nil {
			t.Errorf("ParseRules(%q) returned rules %v beside its error", tt.input, rules)
		}
		if ge.kind != tt.kind || ge.token != tt.token {
			t.Errorf("ParseRules(%q) error is %s on %q, want %s on %q", tt.input, ge.kind, ge.token, tt.kind, tt.token)
		}
	}
}

func TestGrammarErrorText(t *testing.T) {
	tests := []struct {
		err  grammarError
		want string
	}{
		{grammarError{kindUnbalanced, "Bash(git status"}, `agentpolicy: rule "Bash(git status": unbalanced parentheses`},
		{grammarError{kindMissingName, "(x)"}, `agentpolicy: rule "(x)": missing tool name`},
		{grammarError{kindEmptySpec, "Bash()"}, `agentpolicy: rule "Bash()": empty specifier`},
		{grammarError{kindEmptyCarveOut, "Read(!)"}, `agentpolicy: rule "Read(!)": empty carve-out`},
		{grammarError{kindTextAfterSpec, "Bash(a)x"}, `agentpolicy: rule "Bash(a)x": text after the specifier`},
		{grammarError{kindInvalidName, "a b"}, `agentpolicy: rule "a b": whitespace or a parenthesis in the tool name`},
		{grammarError{kindUnbalanced, "Bash(\"x\n"}, `agentpolicy: rule "Bash(\"x\n": unbalanced parentheses`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("error text = %s, want %s", got, tt.want)
		}
	}
}

func TestParseRulesReportsParenthesesFirst(t *testing.T) {
	// A missing name comes first in the text, the stray parenthesis last;
	// the parentheses are checked over the whole text before any token.
	_, err := ParseRules("(x) Bash()  read git)")
	want := `agentpolicy: rule "git)": unbalanced parentheses`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestParseRulesHasNoSourceOrNote(t *testing.T) {
	rules, err := ParseRules("read bash(ls)")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		if r.Source != (Source{}) || r.Note != "" {
			t.Errorf("%v has source %+v and note %q, want neither", r, r.Source, r.Note)
		}
	}
}

func TestParseRulesRoundTrip(t *testing.T) {
	for _, input := range []string{
		"read", "bash(git status:*)", "Edit(./Finance (2024)/**)", "read(!.env.example)",
		"Bash(a\tb\nc)", "mcp__*", "x\u00a0y(z\u0085)", "Bash(((a)))",
	} {
		rules, err := ParseRules(input)
		if err != nil {
			t.Fatalf("ParseRules(%q): %v", input, err)
		}
		if len(rules) != 1 || rules[0].String() != input {
			t.Errorf("ParseRules(%q) renders as %v, want the token itself", input, rules)
		}
	}
}

func TestValidateRule(t *testing.T) {
	tests := []struct {
		rule Rule
		want string // the error text, "" for none
	}{
		{Rule{Tool: "read"}, ""},
		{Rule{Tool: "x", Spec: ""}, ""},
		{Rule{Tool: "bash", Spec: "git status:*"}, ""},
		{Rule{Tool: "read", Spec: "!.env.example"}, ""},
		{Rule{Tool: "edit", Spec: "./Finance (2024)/**"}, ""},
		{Rule{Tool: "mcp__*"}, ""},
		{Rule{Tool: "a\u00a0b"}, ""},
		{Rule{Spec: "x"}, `agentpolicy: rule "(x)": missing tool name`},
		{Rule{}, `agentpolicy: rule "": missing tool name`},
		{Rule{Tool: "read", Spec: "!"}, `agentpolicy: rule "read(!)": empty carve-out`},
		{Rule{Tool: "a(b"}, `agentpolicy: rule "a(b": unbalanced parentheses`},
		{Rule{Tool: "a)"}, `agentpolicy: rule "a)": unbalanced parentheses`},
		{Rule{Tool: "bash", Spec: "a)b"}, `agentpolicy: rule "bash(a)b)": unbalanced parentheses`},
		{Rule{Tool: "bash", Spec: "a)(b"}, `agentpolicy: rule "bash(a)(b)": text after the specifier`},
		{Rule{Tool: "a()"}, `agentpolicy: rule "a()": empty specifier`},
		{Rule{Tool: "a(b)", Spec: "c"}, `agentpolicy: rule "a(b)(c)": text after the specifier`},
		{Rule{Tool: "a(b)"}, `agentpolicy: rule "a(b)": whitespace or a parenthesis in the tool name`},
		{Rule{Tool: "a b"}, `agentpolicy: rule "a b": whitespace or a parenthesis in the tool name`},
		{Rule{Tool: "bash\t", Spec: "ls"}, `agentpolicy: rule "bash\t(ls)": whitespace or a parenthesis in the tool name`},
		{Rule{Tool: "bash", Spec: "a) b"}, `agentpolicy: rule "bash(a) b)": unbalanced parentheses`},
		{Rule{Tool: "bash", Spec: "a b"}, ""},
		{Rule{Tool: " read"}, `agentpolicy: rule " read": whitespace or a parenthesis in the tool name`},
	}
	for _, tt := range tests {
		err := validateRule(tt.rule)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("validateRule(%#v) = %q, want %q", tt.rule, got, tt.want)
		}
	}
}
