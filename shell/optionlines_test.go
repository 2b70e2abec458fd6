package shell

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOptionListsOneOptionALine holds every option list of the package
// to one option a line: the lists of every byEffect, and the strings
// they are made of (gitHistory, digits, compressorOptions, the arguments
// of inertGit). A line names one option and its aliases,
// so it holds at most one short letter, and every name on it takes a
// value the same way (none, ":" or "::"). The lists are found in the
// source, not in the tables built from it, since the tables no longer
// know where a line ended.
func TestOptionListsOneOptionALine(t *testing.T) {
	lists := optionListsInSource(t)
	if len(lists) < 100 {
		t.Fatalf("found %d option lists in the source, want the package's hundred and more: the finder lost them", len(lists))
	}
	for _, l := range lists {
		for i, line := range strings.Split(l.text, "\n") {
			if why := oneOptionLine(line); why != "" {
				t.Errorf("%s: line %d of the list, %q: %s", l.at, i+1, strings.TrimSpace(line), why)
			}
		}
	}
}

// TestOneOptionLine holds the line check to what it must find.
func TestOneOptionLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{"o: output:", true},
		{"n quiet silent", true},
		{"i:: in-place::", true},
		{"", true},
		{"version", true},
		{"n v", false},                 // two short letters: two options
		{"o: output", false},           // the alias does not take the value
		{"i:: in-place:", false},       // one joined only, one not
		{"A catenate c create", false}, // a list on one line
	} {
		if got := oneOptionLine(tc.line) == ""; got != tc.ok {
			t.Errorf("oneOptionLine(%q) passes = %v, want %v", tc.line, got, tc.ok)
		}
	}
}

// oneOptionLine is why a line of an option list names more than one
// option, "" when it names one or none.
func oneOptionLine(line string) string {
	shorts, marker := 0, -1
	for _, spec := range strings.Fields(line) {
		name := strings.TrimRight(spec, ":#")
		if len(name) == 1 {
			shorts++
		}
		if colons := len(spec) - len(name); marker >= 0 && colons != marker {
			return "its names take a value in different ways"
		} else {
			marker = colons
		}
	}
	if shorts > 1 {
		return "it holds more than one short letter"
	}
	return ""
}

// optionList is one option list found in the source.
type optionList struct {
	at   string // file:line
	text string
}

// optionListsInSource are the package's option lists: every byEffect
// literal's values, the arguments of inertGit, and the
// package's string constants and string maps they are made of, each
// evaluated from the source.
func optionListsInSource(t *testing.T) []optionList {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	consts := map[string]ast.Expr{}
	maps := map[string]*ast.CompositeLit{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range g.Specs {
				v, ok := spec.(*ast.ValueSpec)
				if !ok || len(v.Values) != len(v.Names) {
					continue
				}
				for i, n := range v.Names {
					if g.Tok == token.CONST {
						consts[n.Name] = v.Values[i]
					} else if lit, ok := v.Values[i].(*ast.CompositeLit); ok {
						maps[n.Name] = lit
					}
				}
			}
		}
	}
	var lists []optionList
	var add func(e ast.Expr)
	add = func(e ast.Expr) {
		at := fset.Position(e.Pos()).String()
		switch e := e.(type) {
		case *ast.BasicLit:
			s, err := strconv.Unquote(e.Value)
			if err != nil {
				t.Fatalf("%s: %v", at, err)
			}
			lists = append(lists, optionList{at, s})
		case *ast.Ident:
			if c, ok := consts[e.Name]; ok {
				add(c)
				return
			}
			t.Errorf("%s: the option list %s is not a constant the test can read", at, e.Name)
		case *ast.BinaryExpr:
			if e.Op != token.ADD {
				t.Errorf("%s: an option list made with %s", at, e.Op)
			}
			add(e.X)
			add(e.Y)
		case *ast.IndexExpr:
			// A list picked from a map of lists: every list in it.
			id, ok := e.X.(*ast.Ident)
			if !ok || maps[id.Name] == nil {
				t.Errorf("%s: an option list picked from something the test cannot read", at)
				return
			}
			for _, elt := range maps[id.Name].Elts {
				add(elt.(*ast.KeyValueExpr).Value)
			}
		default:
			t.Errorf("%s: an option list the test cannot read", at)
		}
	}
	findLists := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			if id, ok := n.Type.(*ast.Ident); ok && id.Name == "byEffect" {
				for _, elt := range n.Elts {
					add(elt.(*ast.KeyValueExpr).Value)
				}
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "inertGit" {
				for _, arg := range n.Args {
					add(arg)
				}
			}
		}
		return true
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			if d, ok := decl.(*ast.FuncDecl); ok && d.Name.Name == "inertGit" {
				// Their lists are their arguments, read at each call.
				continue
			}
			ast.Inspect(decl, findLists)
		}
	}
	return lists
}
