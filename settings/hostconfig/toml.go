package hostconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// The TOML of Codex's config.toml: [mcp_servers.arena] and what follows
// it up to the next table that is not one of its own. A line keeps its
// newline (strings.SplitAfter): the header's pattern ends in \s*$ so that
// a comment after the header, which stops at the newline, still matches.
var (
	tomlArenaHeader = regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\.\s*("arena"|'arena'|arena)\s*\]\s*(#.*)?\s*$`)
	tomlArenaSub    = regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\.\s*("arena"|'arena'|arena)\s*\.`)
	tomlHeader      = regexp.MustCompile(`^\s*\[`)
)

// EditTOML registers e as mcp_servers.arena in a TOML document (nil: a
// new one), as EditJSON does in JSON.
func EditTOML(doc []byte, e Entry) ([]byte, State, error) {
	before, cur, exists, err := parseTOML(doc)
	if err != nil {
		return nil, 0, err
	}
	servers, _ := before["mcp_servers"].(map[string]any)
	var out string
	state := Added
	switch {
	case exists && sameEntry(cur, e):
		return doc, Unchanged, nil
	case exists:
		o, err := replaceTOML(string(doc), e)
		if err != nil {
			return nil, 0, err
		}
		out, state = o, Updated
	default:
		out = appendTOML(string(doc), e)
	}
	if err := strictTOML(out); err != nil {
		return nil, 0, fmt.Errorf("adding arena's [mcp_servers.arena] table would make it invalid TOML (%w)", err)
	}
	if err := checkTOML(before, servers, out, e); err != nil {
		return nil, 0, err
	}
	return []byte(out), state, nil
}

// parseTOML reads a configuration to edit, as TOML 1.0 allows it, and
// finds arena's entry in it (exists is false when there is none); an
// entry named arena that arena did not write is ErrNotOurs.
func parseTOML(doc []byte) (before map[string]any, cur any, exists bool, err error) {
	if before, err = decodeTOML(string(doc)); err != nil {
		return nil, nil, false, fmt.Errorf("it is not valid TOML (%w)", err)
	}
	servers, _ := before["mcp_servers"].(map[string]any)
	if cur, exists = servers["arena"]; exists && !ours(normal(cur)) {
		b, _ := json.Marshal(cur)
		return nil, nil, false, fmt.Errorf("%w: %s", ErrNotOurs, oneLine(string(b), 160))
	}
	return before, cur, exists, nil
}

// replaceTOML puts the entry in place of the [mcp_servers.arena] table
// and its sub-tables.
func replaceTOML(doc string, e Entry) (string, error) {
	lines := strings.SplitAfter(doc, "\n")
	start, end, err := tomlArenaSpan(lines)
	if err != nil {
		return "", err
	}
	return strings.Join(lines[:start], "") + tomlBlock(e) + strings.Join(lines[end:], ""), nil
}

// tomlArenaSpan is where the [mcp_servers.arena] table and its sub-tables
// are: lines[start:end], without the blank lines and comments before the
// next table, which are about it.
func tomlArenaSpan(lines []string) (start, end int, err error) {
	start = -1
	for i, l := range lines {
		if tomlArenaHeader.MatchString(l) {
			start = i
			break
		}
	}
	if start < 0 {
		return 0, 0, errors.New("arena's entry is not written as a [mcp_servers.arena] table; edit it by hand")
	}
	end = start + 1
	for end < len(lines) && (!tomlHeader.MatchString(lines[end]) || tomlArenaSub.MatchString(lines[end])) {
		end++
	}
	for end-1 > start {
		if l := strings.TrimSpace(lines[end-1]); l != "" && !strings.HasPrefix(l, "#") {
			break
		}
		end--
	}
	return start, end, nil
}

// decodeTOML reads a TOML document as TOML 1.0 has it, which is how
// Codex's reader has it: go-toml v2 holds to what the format forbids,
// where another reader (BurntSushi/toml v1.6.0, which arena read with
// once) does not: that one reads a [mcp_servers.arena] header after
// mcp_servers = { … } as adding to the inline table, which TOML (1.0 and
// 1.1) forbids, an inline table being complete in itself. Codex refused to
// start on such a file (0.118.0: "duplicate key", on env = { … } followed
// by a table [mcp_servers.fs.env]; multica-ai/multica pull request 1288).
// One reader, the strict one, is the one arena links.
func decodeTOML(doc string) (map[string]any, error) {
	var v map[string]any
	if err := toml.Unmarshal([]byte(doc), &v); err != nil {
		// Where: go-toml says it apart from its message.
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return nil, fmt.Errorf("toml: line %d, column %d: %s", row, col, strings.TrimPrefix(de.Error(), "toml: "))
		}
		return nil, err
	}
	if v == nil {
		v = map[string]any{}
	}
	return v, nil
}

// strictTOML says whether doc is TOML as decodeTOML reads it.
func strictTOML(doc string) error {
	_, err := decodeTOML(doc)
	return err
}

// appendTOML adds the entry's table at the end, after a blank line.
func appendTOML(doc string, e Entry) string {
	if doc != "" && !strings.HasSuffix(doc, "\n") {
		doc += "\n"
	}
	if doc != "" {
		doc += "\n"
	}
	return doc + tomlBlock(e)
}

// checkTOML is the check of an edit, as checkJSON's; servers is the
// mcp_servers table before it.
func checkTOML(before, servers map[string]any, out string, e Entry) error {
	after, err := decodeTOML(out)
	if err != nil {
		return fmt.Errorf("internal error: the edit is not TOML (%w); nothing written", err)
	}
	as, _ := after["mcp_servers"].(map[string]any)
	if !sameEntry(as["arena"], e) {
		return errors.New("internal error: the edit does not hold the entry; nothing written")
	}
	delete(as, "arena")
	if servers != nil {
		delete(servers, "arena")
	} else if len(as) == 0 {
		delete(after, "mcp_servers")
	}
	if !reflect.DeepEqual(normal(before), normal(after)) {
		return errors.New("internal error: the edit changes more than arena's entry; nothing written")
	}
	return nil
}

// tomlBlock is the entry's table. Its environment
// variables are in order, so the same entry is always the same text.
func tomlBlock(e Entry) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	var args, env []string
	for _, a := range e.Args {
		args = append(args, q(a))
	}
	for _, k := range slices.Sorted(maps.Keys(e.Env)) {
		env = append(env, k+" = "+q(e.Env[k]))
	}
	block := fmt.Sprintf("[mcp_servers.arena]\ncommand = %s\nargs = [%s]\nenv = { %s }\n", q(e.Command), strings.Join(args, ", "), strings.Join(env, ", "))
	if len(e.EnvVars) > 0 {
		names := make([]string, len(e.EnvVars))
		for i, n := range e.EnvVars {
			names[i] = q(n)
		}
		block += fmt.Sprintf("env_vars = [%s]\n", strings.Join(names, ", "))
	}
	return block
}
