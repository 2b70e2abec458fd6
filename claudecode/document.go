package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// FileError is a settings file [Load] rejected as a whole: it is not JSON
// or its shape is not that of a settings file. Line and Column locate the
// error in the file, 1-based, when it has a place.
type FileError struct {
	Path   string
	Line   int
	Column int
	Err    error
}

// Error renders "agentpolicy/claudecode: path:line:column: reason".
func (e *FileError) Error() string {
	if e.Line == 0 {
		return "agentpolicy/claudecode: " + e.Path + ": " + e.Err.Error()
	}
	return fmt.Sprintf("agentpolicy/claudecode: %s:%d:%d: %v", e.Path, e.Line, e.Column, e.Err)
}

// reason is the error without the file, for a [Problem] that names it.
func (e *FileError) reason() string {
	if e.Line == 0 {
		return e.Err.Error()
	}
	return fmt.Sprintf("line %d, column %d: %v", e.Line, e.Column, e.Err)
}

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }

// document is the part of a settings file the importer reads.
type document struct {
	lists         map[string][]json.RawMessage
	dirs          []string
	defaultMode   string
	disableBypass bool
	disableAuto   bool
	managedOnly   bool
}

// decode reads a settings file: strict JSON whose top level is an object,
// with a permissions object whose lists are arrays. A wrong shape rejects
// the file; a wrong entry in a list is the entry's problem.
func decode(path string, data []byte) (document, error) {
	if doc, ok := decodeCommon(data); ok {
		return doc, nil
	}
	return decodeStrict(path, data)
}

// decodeCommon reads a file of the common kind as decodeStrict reads it,
// with one validation and one walk: valid JSON whose top level and
// permissions are objects in which no key is given twice or written with
// an escape, and whose members decode reads hold values of the types it
// reads. It reports false for any other file, which decodeStrict then
// reads, or rejects with the error it gives.
func decodeCommon(data []byte) (document, bool) {
	var doc document
	if !json.Valid(data) {
		return doc, false
	}
	var perms []byte
	seen := make(map[string]bool)
	top := (&validJSON{data: data}).object(func(key, value []byte) bool {
		name, ok := plainKey(key, seen)
		switch {
		case !ok:
			return false
		case name == "allowManagedPermissionRulesOnly":
			return readJSON(value, &doc.managedOnly)
		case name == "disableAutoMode":
			doc.disableAuto = string(value) == `"disable"`
		case name == "permissions":
			perms = value
		}
		return true
	})
	if !top {
		return doc, false
	}
	if perms == nil || string(perms) == "null" {
		return doc, true
	}
	doc.lists = make(map[string][]json.RawMessage)
	disableAuto := false
	clear(seen)
	ok := (&validJSON{data: perms}).object(func(key, value []byte) bool {
		name, ok := plainKey(key, seen)
		switch {
		case !ok:
			return false
		case name == Allow || name == Ask || name == Deny:
			if string(value) == "null" {
				return true
			}
			items, ok := (&validJSON{data: value}).array()
			doc.lists[name] = items
			return ok
		case name == "additionalDirectories":
			return readJSON(value, &doc.dirs)
		case name == "defaultMode":
			return readJSON(value, &doc.defaultMode)
		case name == "disableBypassPermissionsMode":
			doc.disableBypass = string(value) == `"disable"`
		case name == "disableAutoMode":
			disableAuto = string(value) == `"disable"`
		}
		return true
	})
	doc.disableAuto = doc.disableAuto || disableAuto
	return doc, ok
}

// plainKey returns the name of a member's key, quoted as written, and
// false for a key with an escape, whose name takes decoding, and for a key
// seen before in the object, whose value decodeStrict takes from the last.
func plainKey(key []byte, seen map[string]bool) (string, bool) {
	name := string(key[1 : len(key)-1])
	if bytes.IndexByte(key, '\\') >= 0 || seen[name] {
		return "", false
	}
	seen[name] = true
	return name, true
}

// readJSON decodes a value decodeCommon reads into v unless it is null,
// and reports whether it could.
func readJSON(value []byte, v any) bool {
	return string(value) == "null" || json.Unmarshal(value, v) == nil
}

// decodeStrict is decode for a file of any kind, the error it gives for a
// file it rejects placed in the file.
func decodeStrict(path string, data []byte) (document, error) {
	var doc document
	var top map[string]json.RawMessage
	if trimmed := bytes.TrimSpace(data); json.Valid(trimmed) && (len(trimmed) == 0 || trimmed[0] != '{') {
		// Valid JSON of another shape: an array, a string, a number.
		return doc, &FileError{Path: path, Err: errors.New("not a settings object: the top level is not a JSON object")}
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return doc, syntaxError(path, data, err)
	}
	if top == nil {
		return doc, &FileError{Path: path, Err: errors.New("not a settings object: the top level is null")}
	}
	shape := func(key string, v any) error {
		if err := json.Unmarshal(top[key], v); err != nil {
			return syntaxError(path, data, fmt.Errorf("%s: %w", key, err))
		}
		return nil
	}
	if raw, ok := top["allowManagedPermissionRulesOnly"]; ok && string(raw) != "null" {
		if err := shape("allowManagedPermissionRulesOnly", &doc.managedOnly); err != nil {
			return doc, err
		}
	}
	if raw, ok := top["disableAutoMode"]; ok && string(raw) == `"disable"` {
		doc.disableAuto = true
	}
	raw, ok := top["permissions"]
	if !ok || string(raw) == "null" {
		return doc, nil
	}
	var perms map[string]json.RawMessage
	if err := shape("permissions", &perms); err != nil || perms == nil {
		return doc, &FileError{Path: path, Err: errors.New("permissions is not an object")}
	}
	doc.lists = make(map[string][]json.RawMessage)
	for _, list := range []string{Allow, Ask, Deny} {
		if raw, ok := perms[list]; ok && string(raw) != "null" {
			var items []json.RawMessage
			if err := json.Unmarshal(raw, &items); err != nil {
				return doc, &FileError{Path: path, Err: errors.New("permissions." + list + " is not an array")}
			}
			doc.lists[list] = items
		}
	}
	fields := []struct {
		key string
		v   any
	}{
		{"additionalDirectories", &doc.dirs},
		{"defaultMode", &doc.defaultMode},
	}
	for _, f := range fields {
		if raw, ok := perms[f.key]; ok && string(raw) != "null" {
			if err := json.Unmarshal(raw, f.v); err != nil {
				return doc, &FileError{Path: path, Err: errors.New("permissions." + f.key + " has the wrong type")}
			}
		}
	}
	doc.disableBypass = string(perms["disableBypassPermissionsMode"]) == `"disable"`
	doc.disableAuto = doc.disableAuto || string(perms["disableAutoMode"]) == `"disable"`
	return doc, nil
}

// syntaxError locates a JSON error in the file.
func syntaxError(path string, data []byte, err error) error {
	var offset int64
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		offset = se.Offset
	case errors.As(err, &te):
		offset = te.Offset
	default:
		return &FileError{Path: path, Err: err}
	}
	// Offset counts the bytes read, the offending one included.
	pos := max(int(offset)-1, 0)
	line := 1 + bytes.Count(data[:pos], []byte("\n"))
	column := pos - bytes.LastIndexByte(data[:pos], '\n')
	return &FileError{Path: path, Line: line, Column: column, Err: fmt.Errorf("invalid JSON: %w", err)}
}

func knownMode(m string) bool { return Mode(m).Known() }

// Known reports whether Claude Code knows the mode: one of the modes
// above, or "manual", its other name for [ModeDefault]. A file's unknown
// defaultMode is ignored.
func (m Mode) Known() bool {
	switch m {
	case ModeDefault, "manual", ModeAcceptEdits, ModePlan, ModeAuto, ModeDontAsk, ModeBypass:
		return true
	}
	return false
}
