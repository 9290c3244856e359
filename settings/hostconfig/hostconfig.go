// Package hostconfig edits the files of other programs that arena adds
// itself to: an agent CLI's configuration, where arena install registers
// arena mcp (JSON for Claude Code and Gemini CLI, TOML for Codex), Claude
// Code's slash command files, and git's pre-push hook. Each edit changes
// only what arena wrote, which it recognises by a marker it leaves; what
// another hand wrote is never replaced. The functions take and return
// bytes, so what an edit does can be checked byte for byte; the command
// line reads, writes and prints.
package hostconfig

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"unicode/utf8"
)

// HostEnv is the variable of the entry arena install writes: it names the
// agent whose CLI runs arena mcp, which keeps that agent out of judging
// seats, and it marks the entry as arena's.
const HostEnv = "ARENA_MCP_HOST"

// Entry is how a CLI's configuration declares arena's server.
type Entry struct {
	Type    string            `json:"type,omitempty" toml:"type,omitempty"`
	Command string            `json:"command" toml:"command"`
	Args    []string          `json:"args" toml:"args"`
	Env     map[string]string `json:"env" toml:"env"`
	// EnvVars name variables the CLI passes from its own environment
	// (Codex's env_vars).
	EnvVars []string `json:"env_vars,omitempty" toml:"env_vars,omitempty"`
}

// ErrNotOurs is an entry named arena that arena install did not write.
var ErrNotOurs = errors.New("not written by arena install")

// State says what an edit does, by what the configuration held under
// arena's name.
type State int

const (
	Added     State = iota // nothing: the entry is added
	Updated                // an entry arena wrote, with other values
	Unchanged              // the entry as arena would write it
)

// ours tells an entry arena install wrote by its marker.
func ours(v any) bool {
	m, _ := v.(map[string]any)
	env, _ := m["env"].(map[string]any)
	_, ok := env[HostEnv]
	return ok
}

func sameEntry(v any, want Entry) bool {
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

// oneLine is s on one line, cut to n characters: an entry quoted in an
// error. (engine.OneLine does the same, above this package's layer.)
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
