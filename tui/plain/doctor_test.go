package plain

import (
	"io"
	"strings"
	"testing"
	"time"
)

// sampleDoctor is a check of four agents: the defender ready, a slow
// challenger with no credential found, one not installed, and one whose
// --version gave no answer but that is kept from an earlier check.
func sampleDoctor() Doctor {
	return Doctor{Defender: "claude", Ready: true, Usable: []string{"gemini", "qwen"}, Probe: true, CachePath: "/cache/challengers",
		Agents: []DoctorAgent{
			{Name: "claude", Role: "defender", Family: "anthropic", Version: "2.1.0", Found: true, Usable: true, VersionTook: 420 * time.Millisecond,
				Credentials: []DoctorCredential{{Name: "ANTHROPIC_API_KEY", Present: true}, {Name: "~/.claude.json"}},
				Probe:       &DoctorProbe{OK: true, Latency: 1234 * time.Millisecond}, Billing: "subscription (guessed from its login)", Path: "/usr/local/bin/claude"},
			{Name: "gemini", Role: "challenger", Family: "google", Version: "0.9", Found: true, Usable: true, VersionSlow: true, VersionTook: 12340 * time.Millisecond,
				Credentials: []DoctorCredential{{Name: "GEMINI_API_KEY"}}, Alternative: "agy stands in for gemini",
				Probe: &DoctorProbe{}, Billing: "metered (config)"},
			{Name: "codex", Family: "openai", Credentials: []DoctorCredential{{Name: "OPENAI_API_KEY"}}, Problem: "not found on PATH", Install: "npm install -g @openai/codex"},
			{Name: "qwen", Family: "alibaba", Found: true, VersionTimedOut: true, VersionTimeout: 30 * time.Second, Kept: true, Problem: "no answer to --version in 30s"},
			{Name: "sonnet", Role: "challenger", Family: "anthropic", Version: "api openai", Found: true, Usable: true,
				Credentials: []DoctorCredential{{Name: "OPENROUTER_API_KEY", Present: true}}, Probe: &DoctorProbe{OK: true, Latency: 2 * time.Second},
				Endpoint: "https://openrouter.ai/api/v1 (anthropic/claude-sonnet-4.5)", Models: "lists anthropic/claude-sonnet-4.5 (of 312 models)", Billing: "metered (guessed: an API endpoint)"},
			{Name: "kimi", Family: "moonshot", Version: "0.24.4", Found: true, Usable: true, Path: "/home/me/.npm/bin/kimi",
				Credentials: []DoctorCredential{{Name: "DASHSCOPE_API_KEY"}}, Probe: &DoctorProbe{OK: true, Latency: 900 * time.Millisecond}},
			{Name: "llama", Family: "meta", Version: "api openai", Found: true, Credentials: []DoctorCredential{{Name: "LLAMA_KEY"}},
				Endpoint: "http://127.0.0.1:8080/v1 (llama3.2)", Problem: "LLAMA_KEY is not set: it should hold the key for http://127.0.0.1:8080/v1"},
		}}
}

// The table has a row per agent and a PROBE column when probed; under it,
// the note on every agent that is not plainly ready, then how each
// installed agent is billed.
func TestDoctorTable(t *testing.T) {
	colourless(t)
	want := strings.Join([]string{
		"AGENT   ROLE        FAMILY     STATUS                           VERSION     CREDENTIALS         PROBE     \n",
		"claude  defender    anthropic  ✓ ready                          2.1.0       ANTHROPIC_API_KEY   ✓ 1.23s   \n",
		"gemini  challenger  google     ✓ slow (12.3s)                   0.9         none found          ✗ failed  \n",
		"codex   available   openai     ✗ not installed                  —           none found          —         \n",
		"qwen    available   alibaba    ? slow (no answer in 30s; kept)  —           —                   —         \n",
		"sonnet  challenger  anthropic  ✓ ready                          api openai  OPENROUTER_API_KEY  ✓ 2s      \n",
		"kimi    available   moonshot   ✓ ready                          0.24.4      its own login       ✓ 900ms   \n",
		"llama   available   meta       ✗ not ready                      api openai  none found          —         \n",
		"  · gemini: agy stands in for gemini\n",
		"  ! gemini: no credentials found (GEMINI_API_KEY); fine if it is logged in another way, --probe checks for real\n",
		"  ✗ codex: not found on PATH\n",
		"      install: npm install -g @openai/codex\n",
		"  ? qwen: no answer to --version in 30s\n",
		"      kept in the saved list: it answered on an earlier check\n",
		"  · sonnet: endpoint https://openrouter.ai/api/v1 (anthropic/claude-sonnet-4.5)\n",
		"      it lists anthropic/claude-sonnet-4.5 (of 312 models)\n",
		"  · llama: endpoint http://127.0.0.1:8080/v1 (llama3.2)\n",
		"  ✗ llama: LLAMA_KEY is not set: it should hold the key for http://127.0.0.1:8080/v1\n",
		"\n",
		"Programs (where each was found on PATH)\n",
		"  claude  /usr/local/bin/claude\n",
		"  kimi    /home/me/.npm/bin/kimi\n",
		"\n",
		"Billing (what a budget counts: a subscription seat's calls; a metered one's tokens and dollars too)\n",
		"  claude   subscription  guessed from its login\n",
		"  gemini   metered       config\n",
		"  sonnet   metered       guessed: an API endpoint\n",
		"  a guess can be wrong: set agents.NAME.billing: metered | subscription in the config\n",
	}, "")
	if got := DoctorTable(sampleDoctor(), io.Discard); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Unprobed, with nothing billed: no PROBE column, no billing.
	d := sampleDoctor()
	d.Probe, d.Agents = false, d.Agents[:1]
	d.Agents[0].Billing = ""
	want = "AGENT   ROLE      FAMILY     STATUS   VERSION  CREDENTIALS        \n" +
		"claude  defender  anthropic  ✓ ready  2.1.0    ANTHROPIC_API_KEY  \n" +
		"\nPrograms (where each was found on PATH)\n" +
		"  claude  /usr/local/bin/claude\n"
	if got := DoctorTable(d, io.Discard); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Ready, the verdict names the challengers saved; not ready, it says what
// a debate needs and how to install the challengers.
func TestDoctorVerdict(t *testing.T) {
	colourless(t)
	d := sampleDoctor()
	if got, want := DoctorVerdict(d, io.Discard), "\nUsable challengers: gemini, qwen (saved to /cache/challengers)\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	d.CacheError = "disk full" // the command warns of it
	if got := DoctorVerdict(d, io.Discard); got != "" {
		t.Errorf("unsaved, the verdict still says where: %q", got)
	}
	d.Ready, d.Usable = false, nil
	d.Agents[0].Usable, d.Agents[0].Problem = false, "--version failed: exit 1"
	want := strings.Join([]string{
		"\n",
		"NOT READY TO DEBATE\n",
		"╭─────────────────────────────────────────────────────────────────────╮\n",
		"│  A debate needs the defender and at least ONE external challenger.  │\n",
		"│  Claude debating itself provides no genuine diversity.              │\n",
		"│                                                                     │\n",
		"│  The defender claude is not usable: --version failed: exit 1        │\n",
		"│                                                                     │\n",
		"│  Install at least one challenger CLI:                               │\n",
		"│    codex   npm install -g @openai/codex                             │\n",
		"│                                                                     │\n",
		"│  then run arena doctor again.                                       │\n",
		"╰─────────────────────────────────────────────────────────────────────╯\n",
	}, "")
	if got := DoctorVerdict(d, io.Discard); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
