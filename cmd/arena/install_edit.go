package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// Editing a CLI's configuration to register arena mcp. Only the entry
// named arena changes: the edit is a splice of the file's text, so every
// other byte (the person's formatting, key order, other servers) stays as
// it was, and the result is checked by decoding both versions: everything
// but arena's entry must be equal, and arena's must be what was meant.

// mcpEntry is how a CLI's configuration declares arena's server. Env
// carries the marker of an entry arena wrote (envMCPHost), which is also
// how the server learns which agent calls it.
type mcpEntry struct {
	Type    string            `json:"type,omitempty" toml:"type,omitempty"`
	Command string            `json:"command" toml:"command"`
	Args    []string          `json:"args" toml:"args"`
	Env     map[string]string `json:"env" toml:"env"`
}

// errNotOurs is an entry named arena that arena install did not write.
var errNotOurs = errors.New("not written by arena install")

// entryState says what a configuration holds under arena's name.
type entryState int

const (
	entryAbsent entryState = iota
	entryOurs              // written by arena install, with other values
	entrySame              // written by arena install, as it would write it
)

// ours tells an entry arena install wrote by its marker.
func ours(v any) bool {
	m, _ := v.(map[string]any)
	env, _ := m["env"].(map[string]any)
	_, ok := env[envMCPHost]
	return ok
}

func sameEntry(v any, want mcpEntry) bool {
	b, _ := json.Marshal(want)
	var w any
	_ = json.Unmarshal(b, &w)
	return reflect.DeepEqual(normal(v), w)
}

// normal turns TOML's decoded values into JSON's ([]interface{} of
// strings, float64 numbers) so the two compare.
func normal(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// editJSON registers entry under key (mcpServers) → name (arena) in a JSON
// document (nil or blank: a new one).
func editJSON(doc []byte, key, name string, entry mcpEntry) ([]byte, entryState, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = []byte("{}\n")
	}
	var before map[string]any
	if err := json.Unmarshal(doc, &before); err != nil {
		return nil, 0, fmt.Errorf("it is not plain JSON (%v); arena edits only files it can read back whole", err)
	}
	unit := jsonIndent(doc)
	state := entryAbsent
	var out []byte
	oStart, oEnd, err := jsonObjectSpan(doc)
	if err != nil {
		return nil, 0, err
	}
	sStart, sEnd, found, err := jsonMember(doc, oStart, oEnd, key)
	switch {
	case err != nil:
		return nil, 0, err
	case !found:
		member := fmt.Sprintf("%q: {\n%s%q: %s\n%s}", key, strings.Repeat(unit, 2), name, indentJSON(entry, unit, 2), unit)
		out = jsonInsert(doc, oStart, oEnd, member, unit, 1)
	default:
		if doc[sStart] != '{' {
			return nil, 0, fmt.Errorf("its %q is not an object", key)
		}
		aStart, aEnd, found, err := jsonMember(doc, sStart, sEnd, name)
		switch {
		case err != nil:
			return nil, 0, err
		case !found:
			out = jsonInsert(doc, sStart, sEnd, fmt.Sprintf("%q: %s", name, indentJSON(entry, unit, 2)), unit, 2)
		default:
			var cur any
			_ = json.Unmarshal(doc[aStart:aEnd], &cur)
			if !ours(cur) {
				return nil, 0, fmt.Errorf("%w: %s", errNotOurs, oneLine(string(doc[aStart:aEnd]), 160))
			}
			if sameEntry(cur, entry) {
				return doc, entrySame, nil
			}
			state = entryOurs
			out = slicesConcat(doc[:aStart], []byte(indentJSON(entry, unit, 2)), doc[aEnd:])
		}
	}
	// The check: everything else as it was, arena's entry as meant.
	var after map[string]any
	if err := json.Unmarshal(out, &after); err != nil {
		return nil, 0, fmt.Errorf("internal error: the edit is not JSON (%v); nothing written", err)
	}
	servers, _ := after[key].(map[string]any)
	if !sameEntry(servers[name], entry) {
		return nil, 0, errors.New("internal error: the edit does not hold the entry; nothing written")
	}
	delete(servers, name)
	if bs, _ := before[key].(map[string]any); bs != nil {
		delete(bs, name)
	} else if len(servers) == 0 {
		delete(after, key)
	}
	if !reflect.DeepEqual(before, after) {
		return nil, 0, errors.New("internal error: the edit changes more than arena's entry; nothing written")
	}
	return out, state, nil
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

// jsonMember finds the value of key in the object doc[start:end].
func jsonMember(doc []byte, start, end int, key string) (vs, ve int, found bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(doc[start:end]))
	if _, err := dec.Token(); err != nil { // {
		return 0, 0, false, err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return 0, 0, false, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return 0, 0, false, err
		}
		if k, _ := t.(string); k == key {
			e := start + int(dec.InputOffset())
			found, vs, ve = true, e-len(raw), e // the last one counts, as in a decoder
		}
	}
	return vs, ve, found, nil
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
		return slicesConcat(doc[:start+1], []byte(pad+member+"\n"+strings.Repeat(unit, depth-1)), doc[closing:])
	}
	return slicesConcat(doc[:last+1], []byte(","+pad+member), doc[last+1:])
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

func slicesConcat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// The TOML of Codex's config.toml: [mcp_servers.arena] and what follows
// it up to the next table that is not one of its own.
var (
	tomlArenaHeader = regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\.\s*("arena"|'arena'|arena)\s*\]\s*(#.*)?$`)
	tomlArenaSub    = regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\.\s*("arena"|'arena'|arena)\s*\.`)
	tomlHeader      = regexp.MustCompile(`^\s*\[`)
)

func tomlBlock(entry mcpEntry) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	var args, env []string
	for _, a := range entry.Args {
		args = append(args, q(a))
	}
	for k, v := range entry.Env {
		env = append(env, k+" = "+q(v))
	}
	return fmt.Sprintf("[mcp_servers.arena]\ncommand = %s\nargs = [%s]\nenv = { %s }\n", q(entry.Command), strings.Join(args, ", "), strings.Join(env, ", "))
}

// editTOML registers entry as mcp_servers.arena in a TOML document.
func editTOML(doc []byte, entry mcpEntry) ([]byte, entryState, error) {
	var before map[string]any
	if _, err := toml.Decode(string(doc), &before); err != nil {
		return nil, 0, fmt.Errorf("it is not valid TOML (%v)", err)
	}
	servers, _ := before["mcp_servers"].(map[string]any)
	cur, exists := servers["arena"]
	state := entryAbsent
	var out string
	switch {
	case exists && !ours(normal(cur)):
		b, _ := json.Marshal(cur)
		return nil, 0, fmt.Errorf("%w: %s", errNotOurs, oneLine(string(b), 160))
	case exists && sameEntry(cur, entry):
		return doc, entrySame, nil
	case exists:
		state = entryOurs
		lines := strings.SplitAfter(string(doc), "\n")
		start := -1
		for i, l := range lines {
			if tomlArenaHeader.MatchString(l) {
				start = i
				break
			}
		}
		if start < 0 {
			return nil, 0, errors.New("arena's entry is not written as a [mcp_servers.arena] table; edit it by hand")
		}
		end := start + 1
		for end < len(lines) && !(tomlHeader.MatchString(lines[end]) && !tomlArenaSub.MatchString(lines[end])) {
			end++
		}
		// Keep the blank lines and comments before the next table: they
		// are about it.
		for end-1 > start {
			if l := strings.TrimSpace(lines[end-1]); l != "" && !strings.HasPrefix(l, "#") {
				break
			}
			end--
		}
		out = strings.Join(lines[:start], "") + tomlBlock(entry) + strings.Join(lines[end:], "")
	default:
		out = string(doc)
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		if out != "" {
			out += "\n"
		}
		out += tomlBlock(entry)
	}
	var after map[string]any
	if _, err := toml.Decode(out, &after); err != nil {
		return nil, 0, fmt.Errorf("internal error: the edit is not TOML (%v); nothing written", err)
	}
	as, _ := after["mcp_servers"].(map[string]any)
	if !sameEntry(as["arena"], entry) {
		return nil, 0, errors.New("internal error: the edit does not hold the entry; nothing written")
	}
	delete(as, "arena")
	if servers != nil {
		delete(servers, "arena")
	} else if len(as) == 0 {
		delete(after, "mcp_servers")
	}
	if !reflect.DeepEqual(normal(before), normal(after)) {
		return nil, 0, errors.New("internal error: the edit changes more than arena's entry; nothing written")
	}
	return []byte(out), state, nil
}

// changeDiff shows what an edit changes: the lines that differ, with two
// lines of context, as a unified diff would.
func changeDiff(path string, before, after []byte) string {
	a := strings.Split(string(before), "\n")
	b := strings.Split(string(after), "\n")
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s (after arena install)\n", path, path)
	from := max(p-2, 0)
	fmt.Fprintf(&out, "@@ -%d +%d @@\n", from+1, from+1)
	for _, l := range a[from:p] {
		out.WriteString(" " + l + "\n")
	}
	for _, l := range a[p : len(a)-s] {
		out.WriteString("-" + l + "\n")
	}
	for _, l := range b[p : len(b)-s] {
		out.WriteString("+" + l + "\n")
	}
	for _, l := range a[len(a)-s : min(len(a)-s+2, len(a))] {
		out.WriteString(" " + l + "\n")
	}
	return out.String()
}
