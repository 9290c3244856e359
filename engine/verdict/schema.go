package verdict

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// The verdict log's JSON Schema, printed by arena verdict --schema.
//
//go:embed schema.json
var schemaJSON []byte

// Schema returns the verdict record's JSON Schema.
func Schema() []byte { return bytes.Clone(schemaJSON) }

var schemaDoc = mustDecode(schemaJSON)

func mustDecode(b []byte) map[string]any {
	v, err := decode(b)
	if err != nil {
		panic("verdict schema: " + err.Error())
	}
	return v.(map[string]any)
}

func decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

// ValidateRecord checks one line of a verdict log against the schema.
func ValidateRecord(line []byte) error {
	v, err := decode(line)
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return Validate(schemaDoc, v)
}

// Validate checks a decoded JSON value (numbers as json.Number) against a
// JSON Schema. It knows the keywords the verdict schema uses (type, enum,
// const, required, properties, additionalProperties, items, minimum,
// maximum, minLength, oneOf, format date-time) and refuses a schema with
// any other assertion rather than pass what it cannot check.
func Validate(schema map[string]any, v any) error {
	return check(schema, v, "$")
}

var annotations = []string{"$schema", "$id", "title", "description"}

func check(s map[string]any, v any, at string) error {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if slices.Contains(annotations, k) {
			continue
		}
		if err := keyword(k, s[k], s, v, at); err != nil {
			return err
		}
	}
	return nil
}

func keyword(k string, arg any, s map[string]any, v any, at string) error {
	switch k {
	case "type":
		if !hasType(v, arg.(string)) {
			return fmt.Errorf("%s: want %s, got %s", at, arg, typeName(v))
		}
	case "enum":
		for _, e := range arg.([]any) {
			if equal(e, v) {
				return nil
			}
		}
		return fmt.Errorf("%s: %v is not one of %v", at, v, arg)
	case "const":
		if !equal(arg, v) {
			return fmt.Errorf("%s: want %v, got %v", at, arg, v)
		}
	case "required":
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		for _, r := range arg.([]any) {
			if _, ok := m[r.(string)]; !ok {
				return fmt.Errorf("%s: %q is missing", at, r)
			}
		}
	case "properties":
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		for name, sub := range arg.(map[string]any) {
			if x, ok := m[name]; ok {
				if err := check(sub.(map[string]any), x, at+"."+name); err != nil {
					return err
				}
			}
		}
	case "additionalProperties":
		if b, isBool := arg.(bool); !isBool {
			return fmt.Errorf("schema: additionalProperties other than true or false is not supported")
		} else if b {
			return nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		props, _ := s["properties"].(map[string]any)
		for name := range m {
			if _, ok := props[name]; !ok {
				return fmt.Errorf("%s: unexpected key %q", at, name)
			}
		}
	case "items":
		arr, ok := v.([]any)
		if !ok {
			return nil
		}
		for i, x := range arr {
			if err := check(arg.(map[string]any), x, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case "minimum", "maximum":
		n, ok := v.(json.Number)
		if !ok {
			return nil
		}
		x, lim := rat(n), rat(arg.(json.Number))
		if k == "minimum" && x.Cmp(lim) < 0 || k == "maximum" && x.Cmp(lim) > 0 {
			return fmt.Errorf("%s: %s is out of range (%s %s)", at, n, k, arg)
		}
	case "minLength":
		str, ok := v.(string)
		lim, _ := arg.(json.Number).Int64()
		if ok && int64(utf8.RuneCountInString(str)) < lim {
			return fmt.Errorf("%s: shorter than %d characters", at, lim)
		}
	case "format":
		str, ok := v.(string)
		if arg != "date-time" {
			return fmt.Errorf("schema: format %v is not supported", arg)
		}
		if ok {
			if _, err := time.Parse(time.RFC3339, str); err != nil {
				return fmt.Errorf("%s: %q is not an RFC 3339 date-time", at, str)
			}
		}
	case "oneOf":
		var errs []string
		n := 0
		for _, sub := range arg.([]any) {
			if err := check(sub.(map[string]any), v, at); err != nil {
				errs = append(errs, err.Error())
			} else {
				n++
			}
		}
		if n != 1 {
			if n == 0 {
				return fmt.Errorf("%s: matches none of the record kinds: %s", at, strings.Join(errs, "; "))
			}
			return fmt.Errorf("%s: matches %d record kinds, want exactly one", at, n)
		}
	default:
		return fmt.Errorf("schema: keyword %q is not supported", k)
	}
	return nil
}

func rat(n json.Number) *big.Rat {
	r, ok := new(big.Rat).SetString(n.String())
	if !ok {
		return new(big.Rat)
	}
	return r
}

func hasType(v any, t string) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		return ok && rat(n).IsInt()
	}
	return false
}

func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

func equal(a, b any) bool {
	if x, ok := a.(json.Number); ok {
		y, ok := b.(json.Number)
		return ok && rat(x).Cmp(rat(y)) == 0
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}
