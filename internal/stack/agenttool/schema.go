package agenttool

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// schema is the subset of JSON Schema [New] reflects from Go types; its
// field order is the order members are written in.
type schema struct {
	Type                 string      `json:"type,omitempty"`
	Description          string      `json:"description,omitempty"`
	Properties           *properties `json:"properties,omitempty"`
	Items                *schema     `json:"items,omitempty"`
	AdditionalProperties *schema     `json:"additionalProperties,omitempty"`
	Required             []string    `json:"required,omitempty"`
}

// property is one named member of an object schema.
type property struct {
	name   string
	schema *schema
}

// properties keeps an object's members in field order.
type properties []property

// MarshalJSON writes the members in field order, where a map would sort
// them.
func (ps properties) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		name, err := json.Marshal(p.name)
		if err != nil {
			return nil, err
		}
		body, err := json.Marshal(p.schema)
		if err != nil {
			return nil, err
		}
		b.Write(name)
		b.WriteByte(':')
		b.Write(body)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

var (
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
)

// reflectParameters is the schema of Args as an arguments object, and the
// names of its required properties.
func reflectParameters[Args any]() (json.RawMessage, []string) {
	t := reflect.TypeFor[Args]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct && (t.Kind() != reflect.Map || t.Key().Kind() != reflect.String) {
		panic(fmt.Sprintf("agenttool: New: the arguments type %s is not a struct or a map with string keys", t))
	}
	s := reflectSchema(t, map[reflect.Type]bool{})
	raw, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("agenttool: New: encoding the schema of %s: %v", t, err))
	}
	return raw, s.Required
}

// reflectSchema describes t. Text marshalers (time.Time, say) are strings;
// a type already being described (a recursive type) and other types that
// encode themselves are described as any value ({}).
func reflectSchema(t reflect.Type, seen map[reflect.Type]bool) *schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Implements(textMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType):
		return &schema{Type: "string"}
	case t.Implements(jsonMarshalerType) || reflect.PointerTo(t).Implements(jsonMarshalerType):
		return &schema{}
	}
	switch t.Kind() {
	case reflect.Bool:
		return &schema{Type: "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return &schema{Type: "integer"}
	case reflect.Float32, reflect.Float64:
		return &schema{Type: "number"}
	case reflect.String:
		return &schema{Type: "string"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return &schema{Type: "string"} // encoding/json writes bytes as base64
		}
		return &schema{Type: "array", Items: reflectSchema(t.Elem(), seen)}
	case reflect.Map:
		return &schema{Type: "object", AdditionalProperties: reflectSchema(t.Elem(), seen)}
	case reflect.Struct:
		if seen[t] {
			return &schema{}
		}
		seen[t] = true
		defer delete(seen, t)
		s := &schema{Type: "object", Properties: &properties{}}
		addFields(s, t, seen)
		return s
	}
	return &schema{}
}

// addFields adds the fields of struct t to s, as encoding/json would encode
// them: exported fields under their json names, embedded structs without a
// name flattened into s.
func addFields(s *schema, t reflect.Type, seen map[reflect.Type]bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, flags, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			addFields(s, ft, seen)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		p := reflectSchema(f.Type, seen)
		p.Description = f.Tag.Get("description")
		*s.Properties = append(*s.Properties, property{name: name, schema: p})
		if !hasFlag(flags, "omitempty") && !hasFlag(flags, "omitzero") {
			s.Required = append(s.Required, name)
		}
	}
}

func hasFlag(flags, flag string) bool {
	for f := range strings.SplitSeq(flags, ",") {
		if f == flag {
			return true
		}
	}
	return false
}
