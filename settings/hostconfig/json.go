package hostconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// The JSON of Claude Code's ~/.claude.json and .mcp.json, and Gemini
// CLI's settings.json. The edit is a splice of the file's text, so every
// other byte (the person's formatting, key order, other servers) stays as
// it was, and the result is checked by decoding both versions: everything
// but arena's entry must be equal, and arena's must be what was meant.

// EditJSON registers e under key (mcpServers) → name (arena) in a JSON
// document (nil or blank: a new one). An error means nothing should be
// written; errors.Is(err, ErrNotOurs) when an entry of that name is
// someone else's.
func EditJSON(doc []byte, key, name string, e Entry) ([]byte, State, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = []byte("{}\n")
	}
	before, err := parseJSON(doc)
	if err != nil {
		return nil, 0, err
	}
	out, state, err := spliceJSON(doc, key, name, e)
	if err != nil || state == Unchanged {
		return out, state, err
	}
	if err := checkJSON(before, out, key, name, e); err != nil {
		return nil, 0, err
	}
	return out, state, nil
}

// parseJSON reads a configuration to edit: JSON that arena can read back
// whole, with each key once an object.
func parseJSON(doc []byte) (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		return nil, fmt.Errorf("it is not plain JSON (%w); arena edits only files it can read back whole", err)
	}
	if k, twice := duplicateKey(doc); twice {
		return nil, fmt.Errorf("it has the key %q twice in one object, and programs differ on which one counts; remove one, then try again", k)
	}
	return m, nil
}

// spliceJSON writes the entry into the document's text.
func spliceJSON(doc []byte, key, name string, e Entry) ([]byte, State, error) {
	unit := jsonIndent(doc)
	oStart, oEnd, err := jsonObjectSpan(doc)
	if err != nil {
		return nil, 0, err
	}
	sStart, sEnd, found, err := jsonMember(doc, oStart, oEnd, key)
	switch {
	case err != nil:
		return nil, 0, err
	case !found:
		member := fmt.Sprintf("%q: {\n%s%q: %s\n%s}", key, strings.Repeat(unit, 2), name, indentJSON(e, unit, 2), unit)
		return jsonInsert(doc, oStart, oEnd, member, unit, 1), Added, nil
	case doc[sStart] != '{':
		return nil, 0, fmt.Errorf("its %q is not an object", key)
	}
	aStart, aEnd, found, err := jsonMember(doc, sStart, sEnd, name)
	switch {
	case err != nil:
		return nil, 0, err
	case !found:
		return jsonInsert(doc, sStart, sEnd, fmt.Sprintf("%q: %s", name, indentJSON(e, unit, 2)), unit, 2), Added, nil
	}
	var cur any
	_ = json.Unmarshal(doc[aStart:aEnd], &cur)
	switch {
	case !ours(cur):
		return nil, 0, fmt.Errorf("%w: %s", ErrNotOurs, oneLine(string(doc[aStart:aEnd]), 160))
	case sameEntry(cur, e):
		return doc, Unchanged, nil
	}
	return concat(doc[:aStart], []byte(indentJSON(e, unit, 2)), doc[aEnd:]), Updated, nil
}

// checkJSON is the check of an edit: everything else as it was, arena's
// entry as meant.
func checkJSON(before map[string]any, out []byte, key, name string, e Entry) error {
	var after map[string]any
	if err := json.Unmarshal(out, &after); err != nil {
		return fmt.Errorf("internal error: the edit is not JSON (%w); nothing written", err)
	}
	servers, _ := after[key].(map[string]any)
	if !sameEntry(servers[name], e) {
		return errors.New("internal error: the edit does not hold the entry; nothing written")
	}
	delete(servers, name)
	if bs, _ := before[key].(map[string]any); bs != nil {
		delete(bs, name)
	} else if len(servers) == 0 {
		delete(after, key)
	}
	if !reflect.DeepEqual(before, after) {
		return errors.New("internal error: the edit changes more than arena's entry; nothing written")
	}
	return nil
}

// jsonObjectSpan is the span of the document's top-level object.
func jsonObjectSpan(doc []byte) (int, int, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return 0, 0, err
	}
	end := int(dec.InputOffset())
	if len(raw) == 0 || raw[0] != '{' {
		return 0, 0, errors.New("it is not a JSON object")
	}
	return end - len(raw), end, nil
}

// jsonMember finds the value of key in the object doc[start:end] (the
// last, as a decoder takes it, were it there twice).
func jsonMember(doc []byte, start, end int, key string) (vs, ve int, found bool, err error) {
	members, err := jsonMembers(doc, start, end)
	for _, m := range members {
		if m.key == key {
			found, vs, ve = true, m.valStart, m.valEnd
		}
	}
	return vs, ve, found, err
}

// jsonSpan is where a member of an object is in the document: its key
// starts at keyStart, its value is doc[valStart:valEnd].
type jsonSpan struct {
	key                        string
	keyStart, valStart, valEnd int
}

// jsonMembers are the members of the object doc[start:end], in order.
func jsonMembers(doc []byte, start, end int) ([]jsonSpan, error) {
	dec := json.NewDecoder(bytes.NewReader(doc[start:end]))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var members []jsonSpan
	prev := start + int(dec.InputOffset())
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		e := start + int(dec.InputOffset())
		ks := prev
		for ks < e && (isSpace(doc[ks]) || doc[ks] == ',') {
			ks++
		}
		k, _ := t.(string)
		members = append(members, jsonSpan{key: k, keyStart: ks, valStart: e - len(raw), valEnd: e})
		prev = e
	}
	return members, nil
}

// jsonInsert adds member (text) at the end of the object doc[start:end],
// at the given depth.
func jsonInsert(doc []byte, start, end int, member, unit string, depth int) []byte {
	closing := end - 1 // the object's '}'
	last := closing - 1
	for last > start && isSpace(doc[last]) {
		last--
	}
	pad := "\n" + strings.Repeat(unit, depth)
	if last == start { // an empty object
		return concat(doc[:start+1], []byte(pad+member+"\n"+strings.Repeat(unit, depth-1)), doc[closing:])
	}
	return concat(doc[:last+1], []byte(","+pad+member), doc[last+1:])
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// jsonIndent is the document's indentation unit: that of its first
// indented line, else two spaces.
func jsonIndent(doc []byte) string {
	for _, line := range strings.Split(string(doc), "\n")[1:] {
		trimmed := strings.TrimLeft(line, " \t")
		if ind := line[:len(line)-len(trimmed)]; ind != "" && trimmed != "" {
			return ind
		}
	}
	return "  "
}

func indentJSON(v any, unit string, depth int) string {
	b, _ := json.MarshalIndent(v, strings.Repeat(unit, depth), unit)
	return string(b)
}

func concat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// strictJSON reads doc as a strict JSON reader does: one value, each key
// once an object.
func strictJSON(doc []byte) error {
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return err
	}
	if k, twice := duplicateKey(doc); twice {
		return fmt.Errorf("the key %q is twice in one object", k)
	}
	return nil
}

// duplicateKey is the first key that doc, valid JSON, holds twice in one
// object. (encoding/json takes the last of two and says nothing.)
func duplicateKey(doc []byte) (string, bool) {
	type frame struct {
		keys    map[string]bool // nil: an array
		wantKey bool
	}
	var stack []*frame
	value := func() { // a value ends where an object's key was read
		if n := len(stack); n > 0 && stack[n-1].keys != nil {
			stack[n-1].wantKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	for {
		t, err := dec.Token()
		if err != nil {
			return "", false // the end (doc is valid: Unmarshal read it)
		}
		switch x := t.(type) {
		case json.Delim:
			switch x {
			case '{', '[':
				value()
				f := &frame{wantKey: true}
				if x == '{' {
					f.keys = map[string]bool{}
				}
				stack = append(stack, f)
			default:
				stack = stack[:len(stack)-1]
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].keys != nil && stack[n-1].wantKey {
				if stack[n-1].keys[x] {
					return x, true
				}
				stack[n-1].keys[x], stack[n-1].wantKey = true, false
				continue
			}
			value()
		default:
			value()
		}
	}
}
