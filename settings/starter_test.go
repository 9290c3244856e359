package settings

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// yamlLine is a commented-out line of YAML in the starter (a key, or a
// comment aligned under one), as against its prose.
var yamlLine = regexp.MustCompile(`^# ( *[a-z_]+:.*| +#.*)$`)

// TestStarterLoads: the starter file changes nothing as written, and
// every key in it is one arena reads: uncommented, it loads without a
// warning.
func TestStarterLoads(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	write := func(text string) *Settings {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Load(Flags{Config: &path}, Env{Home: dir}, testPlans...)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		return s
	}
	starter := Starter(testSections...)
	s := write(starter)
	if len(s.Warnings) != 0 || s.Source("max_rounds") != "default" {
		t.Fatalf("the starter as written changes something: %v", s.Warnings)
	}
	var on []string
	for _, l := range strings.Split(starter, "\n") {
		if m := yamlLine.FindStringSubmatch(l); m != nil {
			on = append(on, m[1])
		}
	}
	s = write(strings.Join(on, "\n") + "\n")
	if len(s.Warnings) != 0 || s.MaxRounds != 5 || s.Agents["llama"].Name == "" {
		t.Fatalf("the starter uncommented: warnings %v\n%s", s.Warnings, strings.Join(on, "\n"))
	}
}

// testSections are sections shaped like the protocols' (testPlans').
var testSections = []string{
	"compare:\n  advocates: [gemini, codex]   # one per option, in option order\n  judge: claude",
	"judge:\n  judges: [gemini, codex, qwen]",
	"verdict: {quick: gemini, deep: claude, tiebreaker: codex}",
	"rank:\n  verdict: gemini              # who writes the closing sentence\n  test_command: make test",
}
