package settings

import (
	"slices"
	"testing"
)

// TestCommandOverrideWinsForStdinPrompts (issue 19 item 7): a built-in
// whose command is overridden no longer carries the built-in's stdin
// command nor its stand-ins; a stdin_command given with it is kept.
func TestCommandOverrideWinsForStdinPrompts(t *testing.T) {
	e := newTestEnv(t)
	e.write(e.configPath(), lines(
		"agents:",
		"  claude: {command: [python3, adapter.py], prompt: stdin}",
		"  gemini: {command: [my-gemini, -p, \"{prompt}\"]}",
		"  codex:",
		"    stdin_command: [my-codex, -]",
		"    command: [my-codex, \"{prompt}\"]",
	))
	s := e.load(Flags{})
	if c := s.Agents["claude"]; len(c.StdinCommand) != 0 {
		t.Fatalf("claude keeps the built-in's stdin command %q", c.StdinCommand)
	}
	g := s.Agents["gemini"]
	if len(g.StdinCommand) != 0 || len(g.Alternatives) != 0 {
		t.Fatalf("gemini keeps %q and %d stand-ins", g.StdinCommand, len(g.Alternatives))
	}
	if c := s.Agents["codex"]; !slices.Equal(c.StdinCommand, []string{"my-codex", "-"}) {
		t.Fatalf("codex's own stdin_command was dropped: %q", c.StdinCommand)
	}
	// A built-in whose command is not overridden keeps its own.
	if q, b := s.Agents["qwen"], mustBuiltin(t, "qwen"); !slices.Equal(q.StdinCommand, b.StdinCommand) {
		t.Fatalf("qwen lost its stdin command: %q", q.StdinCommand)
	}
}
