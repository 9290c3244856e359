package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testEnv is a hermetic environment: a fresh home, no doctor cache, and a
// PATH holding exactly the given programs.
type testEnv struct {
	Env
	t *testing.T
}

func newTestEnv(t *testing.T, onPath ...string) testEnv {
	t.Helper()
	home := t.TempDir()
	return testEnv{t: t, Env: Env{
		Home:     home,
		CacheDir: filepath.Join(home, ".cache"),
		LookPath: func(file string) (string, error) {
			for _, p := range onPath {
				if p == file {
					return "/usr/bin/" + file, nil
				}
			}
			return "", errors.New("not found")
		},
	}}
}

func (e testEnv) compatPath() string { return CompatPath(e.Env) }
func (e testEnv) configPath() string { return ConfigPath(e.Env) }

func (e testEnv) cachePath() string {
	p, err := ChallengerCachePath(e.Env)
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

// write creates a file (and its directory) and returns its path.
func (e testEnv) write(path, text string) string {
	e.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return path
}

func (e testEnv) load(f Flags) *Settings {
	e.t.Helper()
	s, err := Load(f, e.Env)
	if err != nil {
		e.t.Fatalf("Load: %v", err)
	}
	return s
}

// loadErr loads expecting an *Error and returns it.
func (e testEnv) loadErr(f Flags) *Error {
	e.t.Helper()
	s, err := Load(f, e.Env)
	if err == nil {
		e.t.Fatalf("Load succeeded, want an error; settings: %+v", s)
	}
	var se *Error
	if !errors.As(err, &se) {
		e.t.Fatalf("Load error %v (%T) is not a *settings.Error", err, err)
	}
	return se
}

func ptr[T any](v T) *T { return &v }

// lines joins lines with newlines, so a test's line numbers are readable.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func hasWarning(s *Settings, substr string) bool {
	for _, w := range s.Warnings {
		if strings.Contains(w, substr) {
			return true
		}
	}
	return false
}
