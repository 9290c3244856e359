package verdict

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
)

// Configure seats the judges with their timeouts, keeps the author out,
// and says what the person should know, in order.
func TestConfigureSeatsTheJudgesWithTheirTimeouts(t *testing.T) {
	t.Parallel()
	var warned []string
	warn := func(s string) { warned = append(warned, s) }
	cfg, notes, err := Configure(roster(nil), Request{TaskID: " issue-18 ", Task: " fix it ", Author: "claude", Tiebreaker: "qwen",
		DeepTimeout: "2m"}, warn)
	if err != nil || cfg.TaskID != "issue-18" || cfg.Task != "fix it" || len(notes) != 0 {
		t.Fatalf("%+v %q %v", cfg, notes, err)
	}
	if cfg.Judges[Quick].Name != "gemini" || cfg.Judges[Deep].Name != "codex" || len(cfg.Judges) != 2 {
		t.Fatalf("judges %+v", cfg.Judges)
	}
	if cfg.Judges[Quick].Timeout != Timeouts[Quick] || cfg.Judges[Deep].Timeout != 2*time.Minute {
		t.Fatalf("timeouts %v %v", cfg.Judges[Quick].Timeout, cfg.Judges[Deep].Timeout)
	}
	if !slices.Equal(warned, []string{"--tiebreaker is used with --thorough only; without it no tiebreaker is asked"}) {
		t.Fatalf("warned %q", warned)
	}
	// Thorough: a tiebreaker too, and a note when it is of a judge's family.
	r := roster(nil)
	r.Agents["claude"] = challengers.Agent{Name: "claude", Family: "anthropic"}
	r.Agents["codex"] = challengers.Agent{Name: "codex", Family: "anthropic"}
	cfg, _, err = Configure(r, Request{TaskID: "x", Thorough: true, QuickJudge: "claude", DeepJudge: "gemini", Tiebreaker: "codex"}, warn)
	if err != nil || len(cfg.Judges) != 3 || len(cfg.Notes) != 1 || !strings.HasPrefix(cfg.Notes[0], "the tiebreaker codex is from the same family (anthropic) as the quick judge claude") {
		t.Fatalf("%+v %v", cfg, err)
	}
}

func TestConfigureRefusesWhatIsWrong(t *testing.T) {
	t.Parallel()
	warn := func(string) {}
	for name, c := range map[string]struct {
		req  Request
		kind error
		want string
	}{
		"an unknown author": {Request{Author: "grok"}, inputs.ErrInput, `--author: unknown agent "grok" (known: claude, codex, gemini, qwen)`},
		"a bad timeout":     {Request{QuickTimeout: "soon"}, inputs.ErrInput, `--quick-timeout: "soon" is not a duration (use 30s, 2m, or a number of seconds)`},
		"an unknown judge":  {Request{DeepJudge: "grok"}, seating.ErrSeat, `--deep-judge: unknown agent "grok" (known: claude, codex, gemini, qwen)`},
	} {
		if _, _, err := Configure(roster(nil), c.req, warn); !errors.Is(err, c.kind) || err.Error() != c.want {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestCheckModes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		modes, files []string
		force, hook  bool
		want         string
	}{
		{},
		{modes: []string{"--schema"}},
		{modes: []string{"--install-hook"}, force: true, hook: true},
		{modes: []string{"--schema", "--stats"}, want: "--schema and --stats cannot be used together"},
		{modes: []string{"--stats"}, files: []string{"a.md", "b.md"}, want: "--stats takes no files (got a.md b.md)"},
		{modes: []string{"--schema"}, force: true, want: "--force goes with --install-hook only"},
		{force: true, want: "--force goes with --install-hook only"},
	} {
		err := CheckModes(c.modes, c.files, c.force, c.hook)
		if c.want == "" && err != nil || c.want != "" && (!errors.Is(err, inputs.ErrInput) || err.Error() != c.want) {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

func TestStatsOf(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := StatsOf(filepath.Join(dir, "none.jsonl")); !errors.Is(err, inputs.ErrInput) || !strings.HasPrefix(err.Error(), "--stats: open ") {
		t.Fatalf("a missing log: %v", err)
	}
	path := filepath.Join(dir, "v.jsonl")
	if err := os.WriteFile(path, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st, err := StatsOf(path); err != nil || st.Records != 0 {
		t.Fatalf("%+v %v", st, err)
	}
	if _, err := StatsOf(dir); !errors.Is(err, inputs.ErrInput) || !strings.HasPrefix(err.Error(), "--stats "+dir+": ") {
		t.Fatalf("a directory: %v", err)
	}
}

// Each seat's flag says its default timeout.
func TestTimeoutHelpSaysTheDefault(t *testing.T) {
	t.Parallel()
	for _, f := range engine.FieldsOf(&Request{}) {
		for m, d := range Timeouts {
			if f.Flag == string(m)+"-timeout" && !strings.Contains(f.Help, "(default "+d.String()+")") {
				t.Errorf("--%s: %q, the default is %s", f.Flag, f.Help, d)
			}
		}
	}
}
