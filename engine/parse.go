package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine/layout"
)

// Replies are parsed leniently and validated strictly: the JSON object may
// sit inside a code fence or prose, keys may come in any order or case,
// extra keys are ignored and enum values are case-insensitive; but every
// key of the shape must be there with the right type, and enums must hold
// one of their values.

// ErrNoJSON means a reply held no JSON object at all.
var ErrNoJSON = errors.New("no JSON object found in the reply")

// Fields is one candidate object with normalised keys (NormKey).
type Fields map[string]any

// ParseObject finds the JSON object in text that validates as T. When no
// candidate validates, the error is the one of the candidate that looked
// most like the wanted shape.
func ParseObject[T any](text string, keys []string, validate func(Fields) (T, error)) (T, error) {
	var zero T
	cands := candidates(text)
	if len(cands) == 0 {
		return zero, ErrNoJSON
	}
	var best error
	bestScore := -1
	for _, c := range cands {
		v, err := validate(c)
		if err == nil {
			return v, nil
		}
		if s := c.score(keys); s > bestScore {
			best, bestScore = err, s
		}
	}
	return zero, best
}

func (f Fields) score(keys []string) int {
	n := 0
	for _, k := range keys {
		if _, ok := f[k]; ok {
			n++
		}
	}
	return n
}

// candidates returns every JSON object in text: those inside ``` fences
// first, then every balanced {...} found by scanning, outermost first.
func candidates(text string) []Fields {
	var out []Fields
	seen := map[string]bool{}
	add := func(s string) {
		s = strings.TrimSpace(s)
		if seen[s] {
			return
		}
		seen[s] = true
		if f, ok := decodeFields(s); ok {
			out = append(out, f)
		}
	}
	for _, block := range fencedBlocks(text) {
		for _, obj := range balancedObjects(block) {
			add(obj)
		}
	}
	for _, obj := range balancedObjects(text) {
		add(obj)
	}
	return out
}

func decodeFields(s string) (Fields, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, false
	}
	f := make(Fields, len(m))
	for k, v := range m {
		f[NormKey(trust.Text(k))] = cleanValue(v)
	}
	return f, true
}

// cleanValue cleans every string in a decoded JSON value: a model writes
// "\u001b[31m" inside a string as readily as red text, and the escape
// must not reach a terminal, a document or a comparison with an allowed
// value.
func cleanValue(v any) any {
	switch x := v.(type) {
	case string:
		return trust.Text(x)
	case []any:
		for i := range x {
			x[i] = cleanValue(x[i])
		}
	case map[string]any:
		for k, e := range x {
			if ck := trust.Text(k); ck != k {
				delete(x, k)
				k = ck
			}
			x[k] = cleanValue(e)
		}
	}
	return v
}

// NormKey makes "Objection Strength", "objection-strength" and
// "objectionStrength" all "objection_strength" (and "VERDICT" "verdict"),
// as layouts match keys.
func NormKey(k string) string { return layout.NormKey(k) }

// fencedBlocks returns the contents of ``` fenced blocks.
func fencedBlocks(text string) []string {
	var out []string
	rest := text
	for {
		i := strings.Index(rest, "```")
		if i < 0 {
			return out
		}
		rest = rest[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 && !strings.ContainsAny(rest[:nl], "{}") {
			rest = rest[nl+1:] // skip the info string ("json")
		}
		j := strings.Index(rest, "```")
		if j < 0 {
			return append(out, rest)
		}
		out = append(out, rest[:j])
		rest = rest[j+3:]
	}
}

// maxCandidates bounds how many objects one reply may offer; a reply that
// is mostly braces must not cost quadratic time.
const maxCandidates = 64

// balancedObjects returns the {...} spans of text that look like JSON
// objects (the brace is followed by a key or closes at once), outermost
// first, in one linear pass. Quotes only open strings inside braces, so an
// apostrophe or a stray quote in the prose around an object is harmless.
func balancedObjects(text string) []string {
	type span struct{ start, end int }
	var spans, stack []span
	inStr, esc := false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = len(stack) > 0
		case '{':
			stack = append(stack, span{start: i})
		case '}':
			if n := len(stack); n > 0 {
				sp := stack[n-1]
				stack = stack[:n-1]
				sp.end = i
				if looksLikeObject(text, sp.start) {
					spans = append(spans, sp)
				}
			}
		}
	}
	sort.Slice(spans, func(a, b int) bool { return spans[a].start < spans[b].start })
	out := make([]string, 0, min(len(spans), maxCandidates))
	for _, sp := range spans {
		if len(out) == maxCandidates {
			break
		}
		out = append(out, text[sp.start:sp.end+1])
	}
	return out
}

func looksLikeObject(text string, brace int) bool {
	rest := strings.TrimLeft(text[brace+1:min(len(text), brace+64)], " \t\r\n")
	return rest == "" || rest[0] == '"' || rest[0] == '}'
}

// --- strict field access -------------------------------------------------

type fieldErr struct{ key, msg string }

func (e *fieldErr) Error() string { return fmt.Sprintf("%q %s", e.key, e.msg) }

// FieldError says what is wrong with a reply's field: `"options" is empty`.
func FieldError(key, msg string) error { return &fieldErr{key, msg} }

func (f Fields) Str(key string, allowEmpty bool) (string, error) {
	v, ok := f[key]
	if !ok {
		return "", &fieldErr{key, "is missing"}
	}
	s, ok := v.(string)
	if !ok {
		return "", &fieldErr{key, "must be a string, got " + jsonType(v)}
	}
	s = strings.TrimSpace(s)
	if s == "" && !allowEmpty {
		return "", &fieldErr{key, "is empty"}
	}
	return s, nil
}

func (f Fields) Enum(key string, allowed ...string) (string, error) {
	s, err := f.Str(key, false)
	if err != nil {
		return "", err
	}
	l := strings.ToLower(s)
	for _, a := range allowed {
		if l == a {
			return a, nil
		}
	}
	return "", &fieldErr{key, fmt.Sprintf("must be one of %s, got %q", strings.Join(allowed, " | "), s)}
}

func (f Fields) List(key string) ([]string, error) {
	v, ok := f[key]
	if !ok {
		return nil, &fieldErr{key, "is missing"}
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, &fieldErr{key, "must be a list of strings, got " + jsonType(v)}
	}
	out := make([]string, 0, len(arr))
	for i, x := range arr {
		s, ok := x.(string)
		if !ok {
			return nil, &fieldErr{fmt.Sprintf("%s[%d]", key, i), "must be a string, got " + jsonType(x)}
		}
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

func (f Fields) Objects(key string) ([]Fields, error) {
	v, ok := f[key]
	if !ok {
		return nil, &fieldErr{key, "is missing"}
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, &fieldErr{key, "must be a list of objects, got " + jsonType(v)}
	}
	out := make([]Fields, 0, len(arr))
	for i, x := range arr {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, &fieldErr{fmt.Sprintf("%s[%d]", key, i), "must be an object, got " + jsonType(x)}
		}
		f := make(Fields, len(m))
		for k, v := range m {
			f[NormKey(k)] = v
		}
		out = append(out, f)
	}
	return out, nil
}

// Int reads a whole number within [lo, hi]; "4" and 4.0 count as 4.
func (f Fields) Int(key string, lo, hi int) (int, error) {
	v, ok := f[key]
	if !ok {
		return 0, &fieldErr{key, "is missing"}
	}
	var n float64
	switch x := v.(type) {
	case json.Number:
		n, _ = x.Float64()
	case float64:
		n = x
	case string:
		if _, err := fmt.Sscan(strings.TrimSpace(x), &n); err != nil {
			return 0, &fieldErr{key, "must be a number, got " + fmt.Sprintf("%q", x)}
		}
	default:
		return 0, &fieldErr{key, "must be a number, got " + jsonType(v)}
	}
	if n != float64(int(n)) || int(n) < lo || int(n) > hi {
		return 0, &fieldErr{key, fmt.Sprintf("must be a whole number from %d to %d, got %v", lo, hi, v)}
	}
	return int(n), nil
}

// Opt reads an optional string: "" when absent or not a string.
func (f Fields) Opt(key string) string {
	s, _ := f[key].(string)
	return strings.TrimSpace(s)
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// Collect runs getters in order and returns the first error.
func Collect(steps ...func() error) error {
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
}

// ShapeKeys lists a shape's keys, sorted, for scoring candidates.
func ShapeKeys(keys ...string) []string {
	sort.Strings(keys)
	return keys
}

// CompactJSON renders v as one line of JSON.
func CompactJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}
