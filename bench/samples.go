package bench

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"

	"github.com/zricethezav/gitleaks/v8/cmd/generate/config/utils"
)

// gitleaksModule is the module whose rule sources hold the samples, at the
// version go.mod pins.
const gitleaksModule = "github.com/zricethezav/gitleaks/v8"

// Rule is one of gitleaks' rules as its source in cmd/generate/config/rules
// declares it: its ID, the expression of the secret it looks for (the
// argument of utils.GenerateUniqueTokenRegex or regexp.MustCompile), the
// literals one of which begins every match of it, and the true positives
// the rule is tested with, evaluated from the source.
type Rule struct {
	ID       string
	Secret   string
	Prefixes []string
	Samples  []string
	// Skipped counts the lists of samples the evaluator cannot read (a
	// loop, a helper it does not know), Invalid the samples the rule's own
	// expression does not match, which are dropped.
	Skipped, Invalid int
}

// RuleSources is the directory of gitleaks' rule sources in the module
// cache, downloading the module if the cache lacks it.
func RuleSources() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", gitleaksModule).Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		out, err = exec.Command("go", "mod", "download", "-json", gitleaksModule).Output()
		if err != nil {
			return "", fmt.Errorf("bench: cannot find %s in the module cache: %w", gitleaksModule, err)
		}
		if i := strings.Index(string(out), `"Dir": "`); i >= 0 {
			rest := string(out)[i+len(`"Dir": "`):]
			dir = rest[:strings.IndexByte(rest, '"')]
		}
	}
	return filepath.Join(dir, "cmd", "generate", "config", "rules"), nil
}

// PrefixedRules reads the rule sources in dir and returns the rules whose
// secret begins with a fixed prefix of three bytes or more, in the order of
// their files and declarations, without those excluded, each with its
// samples. The samples gitleaks draws at random (secrets.NewSecret) are
// drawn here from the same expression with a fixed seed, so every run reads
// the same.
func PrefixedRules(dir string) ([]Rule, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	fset := token.NewFileSet()
	var rules []Rule
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return nil, err
		}
		consts := fileConstants(f)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			e := &evaluator{env: map[string]any{}, unread: map[string]bool{}, consts: consts, r: rand.New(rand.NewPCG(uint64(len(rules)), 1))}
			rule, ok := e.rule(fn.Body)
			if !ok || excluded[rule.ID] != "" {
				continue
			}
			if rule.Prefixes = literalPrefixes(rule.Secret, 3); rule.Prefixes != nil {
				rules = append(rules, validSamples(rule))
			}
		}
	}
	if len(rules) == 0 {
		return nil, errors.New("bench: no rule with a fixed prefix in " + dir)
	}
	return rules, nil
}

// validSamples drops the samples of rule that its own expression does not
// match (a draw of gitleaks' generator that its rule would not find),
// counting them in Invalid.
func validSamples(rule Rule) Rule {
	re, err := regexp.Compile(rule.Secret)
	if err != nil {
		return rule
	}
	valid := rule.Samples[:0:0]
	for _, s := range rule.Samples {
		if re.MatchString(s) {
			valid = append(valid, s)
		} else {
			rule.Invalid++
		}
	}
	rule.Samples = valid
	return rule
}

// excluded are the rules that begin with a fixed literal that names no
// provider's token, each with why.
var excluded = map[string]string{
	"curl-auth-user":           "a curl command's -u option, not a token",
	"curl-auth-header":         "a curl command's header, not a token",
	"kubernetes-secret-yaml":   "a Kubernetes manifest's layout, not a token",
	"nuget-config-password":    "an XML element of a config file, not a token",
	"generic-api-key":          "a keyword and a high-entropy value, no prefix",
	"sourcegraph-access-token": "the rule also takes a bare 40-digit hex string",
}

// literalPrefixes returns the literals one of which begins every match of
// src, after any leading \b or group, each of minLen bytes or more; nil
// when a match may begin otherwise.
func literalPrefixes(src string, minLen int) []string {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil
	}
	set, _ := prefixesOf(re.Simplify())
	if len(set) == 0 || len(set) > 64 {
		return nil
	}
	for _, p := range set {
		if len(p) < minLen {
			return nil
		}
	}
	return set
}

// prefixesOf returns the literals one of which begins every match of re,
// and whether they are whole matches. A class of a few characters extends
// them; anything else ends them.
func prefixesOf(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		if re.Flags&syntax.FoldCase != 0 {
			s = strings.ToLower(s)
		}
		return []string{s}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(out) == 4 {
					return nil, false
				}
				out = append(out, string(r))
			}
		}
		return out, true
	case syntax.OpCapture:
		return prefixesOf(re.Sub[0])
	case syntax.OpConcat:
		set := []string{""}
		for _, sub := range re.Sub {
			switch sub.Op {
			case syntax.OpWordBoundary, syntax.OpBeginText, syntax.OpBeginLine:
				continue
			}
			next, whole := prefixesOf(sub)
			if next == nil {
				return set, false
			}
			var joined []string
			for _, a := range set {
				for _, b := range next {
					joined = append(joined, a+b)
				}
			}
			set = joined
			if !whole {
				return set, false
			}
		}
		return set, true
	case syntax.OpAlternate:
		var set []string
		whole := true
		for _, sub := range re.Sub {
			next, nextWhole := prefixesOf(sub)
			if next == nil {
				return nil, false
			}
			set = append(set, next...)
			whole = whole && nextWhole
		}
		return set, whole
	}
	return nil, false
}

// fileConstants are the string constants and variables declared at a
// file's top level.
func fileConstants(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, spec := range gen.Specs {
			vs, ok := spec.(*ast.ValueSpec)
			if !ok {
				continue
			}
			for i, name := range vs.Names {
				if i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if s, err := strconv.Unquote(lit.Value); err == nil {
							out[name.Name] = s
						}
					}
				}
			}
		}
	}
	return out
}

// evaluator reads a rule constructor's body: the values its local
// variables are assigned, as strings or lists of strings, and the rule it
// builds.
type evaluator struct {
	env map[string]any
	// unread are the variables last assigned a value eval cannot read.
	unread map[string]bool
	consts map[string]string
	r      *rand.Rand
}

// rule evaluates body, a rule constructor's, and returns the rule it
// validates; false when it validates none or its secret cannot be read.
func (e *evaluator) rule(body *ast.BlockStmt) (Rule, bool) {
	var rule Rule
	found := false
	for _, stmt := range body.List {
		switch s := stmt.(type) {
		case *ast.AssignStmt:
			for i, lhs := range s.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok || i >= len(s.Rhs) {
					continue
				}
				if lit, ok := s.Rhs[i].(*ast.CompositeLit); ok && isRuleType(lit.Type) {
					rule, found = e.ruleLiteral(lit)
					continue
				}
				v, err := e.eval(s.Rhs[i])
				e.env[id.Name], e.unread[id.Name] = v, err != nil
			}
		case *ast.ReturnStmt:
			if len(s.Results) != 1 {
				continue
			}
			call, ok := s.Results[0].(*ast.CallExpr)
			if !ok || len(call.Args) < 2 || !isCall(call, "utils", "Validate") && !isCall(call, "utils", "ValidateWithPaths") {
				continue
			}
			name := identName(call.Args[1])
			samples, _ := e.env[name].([]string)
			rule.Samples = samples
			if e.unread[name] {
				rule.Skipped++
			}
			return rule, found && rule.Secret != ""
		}
	}
	return rule, false
}

// ruleLiteral reads a config.Rule literal's ID and the source of its
// secret's expression.
func (e *evaluator) ruleLiteral(lit *ast.CompositeLit) (Rule, bool) {
	var rule Rule
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		switch identName(kv.Key) {
		case "RuleID":
			v, err := e.eval(kv.Value)
			if s, ok := v.(string); err == nil && ok {
				rule.ID = s
			}
		case "Regex":
			if v, err := e.eval(kv.Value); err == nil {
				rule.Secret, _ = v.(string)
			}
		}
	}
	return rule, rule.ID != ""
}

// eval evaluates an expression of a rule constructor: string literals and
// sums, local variables, lists, and the calls of gitleaks' helpers that
// build samples.
func (e *evaluator) eval(x ast.Expr) (any, error) {
	switch x := x.(type) {
	case *ast.BasicLit:
		if x.Kind == token.STRING {
			return strconv.Unquote(x.Value)
		}
		if x.Kind == token.INT {
			return strconv.Atoi(x.Value)
		}
	case *ast.ParenExpr:
		return e.eval(x.X)
	case *ast.Ident:
		if x.Name == "true" || x.Name == "false" {
			return x.Name == "true", nil
		}
		if v, ok := e.env[x.Name]; ok {
			return v, nil
		}
		if v, ok := e.consts[x.Name]; ok {
			return v, nil
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			a, err := e.str(x.X)
			if err != nil {
				return nil, err
			}
			b, err := e.str(x.Y)
			return a + b, err
		}
	case *ast.CompositeLit:
		var out []string
		for _, elt := range x.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			s, err := e.str(elt)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		return out, nil
	case *ast.CallExpr:
		return e.call(x)
	}
	return nil, fmt.Errorf("bench: cannot evaluate %T", x)
}

func (e *evaluator) str(x ast.Expr) (string, error) {
	v, err := e.eval(x)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("bench: %T is not a string", v)
	}
	return s, nil
}

// patternHelpers are gitleaks' helpers that write a class and a length.
var patternHelpers = map[string]func(string) string{
	"AlphaNumeric":              utils.AlphaNumeric,
	"AlphaNumericExtended":      utils.AlphaNumericExtended,
	"AlphaNumericExtendedLong":  utils.AlphaNumericExtendedLong,
	"AlphaNumericExtendedShort": utils.AlphaNumericExtendedShort,
	"Hex":                       utils.Hex,
	"Numeric":                   utils.Numeric,
}

func (e *evaluator) call(c *ast.CallExpr) (any, error) {
	args := make([]any, len(c.Args))
	for i, a := range c.Args {
		v, err := e.eval(a)
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	strArg := func(i int) string {
		if i < len(args) {
			s, _ := args[i].(string)
			return s
		}
		return ""
	}
	if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "append" && len(args) > 0 {
		list, _ := args[0].([]string)
		list = slices.Clone(list)
		for _, a := range args[1:] {
			switch a := a.(type) {
			case string:
				list = append(list, a)
			case []string:
				list = append(list, a...)
			}
		}
		return list, nil
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, errors.New("bench: cannot evaluate a call")
	}
	pkg, name := identName(sel.X), sel.Sel.Name
	switch {
	case pkg == "utils" && patternHelpers[name] != nil:
		return patternHelpers[name](strArg(0)), nil
	case pkg == "utils" && name == "Hex8_4_4_4_12":
		return utils.Hex8_4_4_4_12(), nil
	case pkg == "utils" && name == "GenerateSampleSecret":
		return utils.GenerateSampleSecret(strArg(0), strArg(1)), nil
	case pkg == "utils" && name == "GenerateSampleSecrets":
		samples := utils.GenerateSampleSecrets(strArg(0), strArg(1))
		slices.Sort(samples) // gitleaks builds them from a map
		return samples, nil
	case pkg == "utils" && name == "GenerateUniqueTokenRegex", pkg == "regexp" && name == "MustCompile":
		return strArg(0), nil // the secret's expression, which the rule wraps
	case pkg == "secrets" && name == "NewSecret":
		return e.generate(strArg(0))
	case pkg == "fmt" && name == "Sprintf":
		return fmt.Sprintf(strArg(0), args[1:]...), nil
	case pkg == "strings" && name == "Repeat":
		n, _ := args[1].(int)
		return strings.Repeat(strArg(0), n), nil
	}
	return nil, fmt.Errorf("bench: cannot evaluate %s.%s", pkg, name)
}

// generate is a string that src matches, drawn at random: what gitleaks'
// secrets.NewSecret makes, with the evaluator's seeded source.
func (e *evaluator) generate(src string) (string, error) {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	e.write(&b, re)
	return b.String(), nil
}

func (e *evaluator) write(b *strings.Builder, re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		total := 0
		for i := 0; i+1 < len(re.Rune); i += 2 {
			total += int(re.Rune[i+1]-re.Rune[i]) + 1
		}
		n := e.r.IntN(total)
		for i := 0; i+1 < len(re.Rune); i += 2 {
			size := int(re.Rune[i+1]-re.Rune[i]) + 1
			if n < size {
				b.WriteRune(re.Rune[i] + rune(n))
				return
			}
			n -= size
		}
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte("abcdefghijklmnopqrstuvwxyz0123456789"[e.r.IntN(36)])
	case syntax.OpCapture:
		e.write(b, re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			e.write(b, sub)
		}
	case syntax.OpAlternate:
		e.write(b, re.Sub[e.r.IntN(len(re.Sub))])
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 1
		switch re.Op {
		case syntax.OpPlus:
			lo, hi = 1, 2
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 {
				hi = lo + 1
			}
		}
		for range lo + e.r.IntN(hi-lo+1) {
			e.write(b, re.Sub[0])
		}
	}
}

func isRuleType(x ast.Expr) bool {
	sel, ok := x.(*ast.SelectorExpr)
	return ok && identName(sel.X) == "config" && sel.Sel.Name == "Rule"
}

func isCall(c *ast.CallExpr, pkg, name string) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	return ok && identName(sel.X) == pkg && sel.Sel.Name == name
}

func identName(x ast.Expr) string {
	if id, ok := x.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
