package settings

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
)

// Doctor lists the usable challengers, keeps one that only timed out and
// was in the list before, saves the list, and says how each is billed.
func TestDoctorSavesTheUsableChallengers(t *testing.T) {
	e := newTestEnv(t, "claude", "gemini", "codex")
	s := e.load(Flags{})
	checks := []challengers.Check{
		{Agent: "claude", Found: true, Usable: true},
		{Agent: "gemini", Found: true, Usable: true},
		{Agent: "codex", Found: true, VersionTimedOut: true, VersionTimeout: 30 * time.Second},
		{Agent: "qwen", Problem: "not found on PATH"},
	}
	r := s.Doctor(e.Env, checks, []CacheEntry{{Name: "codex", In: true}})
	if !r.Ready || !slices.Equal(r.Usable, []string{"gemini", "codex"}) || r.Kept["codex"] == "" || r.Roles["claude"] != "defender" {
		t.Fatalf("%+v", r)
	}
	if r.CachePath != e.cachePath() || r.CacheError != "" || len(r.Saved) != 3 {
		t.Fatalf("saved %+v at %q: %s", r.Saved, r.CachePath, r.CacheError)
	}
	saved, found, err := ReadChallengerCache(e.Env)
	if err != nil || !found || !slices.Equal(saved, r.Saved) {
		t.Fatalf("the cache holds %+v (%v, %v)", saved, found, err)
	}
	if _, ok := r.Billing["qwen"]; ok || !strings.HasSuffix(r.Billing["claude"], ")") || len(r.Billing) != 3 {
		t.Fatalf("billing %q", r.Billing)
	}
	e.CacheDir = ""
	if r := s.Doctor(e.Env, checks, nil); r.CacheError == "" || r.CachePath != "" || r.Usable[0] != "gemini" || len(r.Usable) != 1 {
		t.Fatalf("without a cache directory: %+v", r)
	}
}
