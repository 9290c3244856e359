package plain

import (
	"io"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
)

// The settings are a table; each agent is its name and source, its
// command, and the rest of what defines it on a line under.
func TestConfig(t *testing.T) {
	colourless(t)
	rows := []ConfigRow{
		{Key: "max_rounds", Value: "3", Source: "debate.local.md:2"},
		{Key: "agents.llama", Value: "ollama run llama3.2; prompt stdin; pty false", Source: "config.yaml:3"},
		{Key: "debate_log_path", Value: "/tmp/x", Source: "flag --log-dir"},
	}
	want := strings.Join([]string{
		"KEY              VALUE   SOURCE             \n",
		"max_rounds       3       debate.local.md:2  \n",
		"debate_log_path  /tmp/x  flag --log-dir     \n",
		"\n",
		"AGENTS\n",
		"llama  config.yaml:3\n",
		"    ollama run llama3.2\n",
		"    prompt stdin · pty false\n",
		"\n",
		"FILES\n",
		"read       /h/.claude/debate.local.md  (the debate plugin's settings)\n",
		"not found  /h/.config/arena/config.yaml  (arena's config)\n",
	}, "")
	files := []ConfigFile{{Path: "/h/.claude/debate.local.md", What: "the debate plugin's settings", Found: true}, {Path: "/h/.config/arena/config.yaml", What: "arena's config"}}
	if got := Config(rows, files, io.Discard); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Every path looked at is named, found or not (issue 32, point 10).
	files[0].Found = false
	if got := Config(nil, files, io.Discard); !strings.Contains(got, "not found  /h/.claude/debate.local.md") ||
		!strings.HasSuffix(got, "No settings file was found: these are the defaults (arena config init writes a commented one).\n") {
		t.Errorf("with no file: %q", got)
	}
}

// A dry run names what each seat receives and its size, and what is not
// sent; a name from outside reaches the terminal with no escape sequence.
func TestDryRun(t *testing.T) {
	colourless(t)
	m := engine.Manifest{Protocol: "adversarial",
		Seats: []engine.ManifestSeat{
			{Seat: "defender", Agent: "claude", Family: "anthropic", Inputs: []engine.ManifestInput{{Name: "the topic", Bytes: 12}, {Name: "a\x1b[2J.go", Bytes: 2048}}},
			{Seat: "critic", Agent: "gemini", Inputs: []engine.ManifestInput{{Name: "repo", Bytes: 3 << 20, Files: 12}}},
			{Seat: "judge", Agent: "qwen"},
		},
		LeftOut: []string{"secret.env: looks like a secret\x1b]0;x\x07"}, Notes: []string{"Later prompts also carry what other seats replied."}}
	want := strings.Join([]string{
		"Dry run of an adversarial run: no model is called, nothing is saved. Each seat would receive:\n",
		"\n",
		"SEAT      AGENT   FAMILY     RECEIVES                             BYTES    \n",
		"defender  claude  anthropic  the topic (12 bytes) · a.go (2 KiB)  2.0 KiB  \n",
		"critic    gemini  —          repo (12 files, 3 MiB)               3 MiB    \n",
		"judge     qwen    —          only what the run makes              0 bytes  \n",
		"\n",
		"In all 3.0 MiB to 3 seats, each seat's to its agent's model vendor.\n",
		"\n",
		"Not sent:\n",
		"  - secret.env: looks like a secret\n",
		"\n",
		"Later prompts also carry what other seats replied.\n",
	}, "")
	if got := DryRun(m, io.Discard); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
