package settings

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to both settings files. Load must never
// panic, every error must be a *Error naming the file, and whatever loads
// must be usable: agents that validate, and a round count in range.
func FuzzLoad(f *testing.F) {
	f.Add("max_rounds: 3\ntimeout_per_cli: 90\n", "---\nmax_rounds: 4\n---\n")
	f.Add("agents:\n  llama:\n    command: [ollama, run, x]\n    prompt: stdin\n    timeout: 90s\n", "")
	f.Add("challengers: [gemini, codex]\ndefender: claude\noutput_cap: 4MiB\n", "---\r\nskeptical_of_early_agreement: false\r\n---\r\n")
	f.Add("max_rounds: [1, 2]\n", "---\n: :\n")
	f.Add("&a [*a]\n", "---\nmax_rounds: &x 5\nbad: *x\n---")
	f.Fuzz(func(t *testing.T, config, compat string) {
		home := t.TempDir()
		env := Env{Home: home, CacheDir: filepath.Join(home, ".cache"), LookPath: func(string) (string, error) { return "/bin/x", nil }}
		for path, text := range map[string]string{ConfigPath(env): config, CompatPath(env): compat} {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		s, err := Load(Flags{}, env, testPlans...)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || se.File == "" {
				t.Fatalf("error without a file: %v", err)
			}
			return
		}
		if s.MaxRounds < 1 || s.MaxRounds > MaxRoundsLimit || s.TimeoutPerCLI <= 0 {
			t.Fatalf("loaded out-of-range settings: %+v", s)
		}
		for name, a := range s.Agents {
			if err := a.Validate(); err != nil {
				t.Fatalf("agent %s loaded but invalid: %v", name, err)
			}
		}
	})
}
