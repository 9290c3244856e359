package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
)

// Tests of issue 19 item 6: doctor's verdicts are honest about a CLI that
// is slow. gemini here is bench/slow-version in front of the fake: its
// --version sleeps 8 s, as gemini's does on a loaded 2-core machine.

// slowGeminiEnv is the sandbox's environment with the slow gemini first
// on PATH.
func slowGeminiEnv(t *testing.T, s *sandbox) []string {
	t.Helper()
	root, err := clitest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(filepath.Join(root, "bench", "slow-version"), filepath.Join(bin, "gemini")); err != nil {
		t.Fatal(err)
	}
	var path string
	for _, kv := range s.env() {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	return []string{"PATH=" + bin + ":" + path, "ARENA_BENCH_FAKES=" + s.fakes.Dir, "ARENA_BENCH_VERSION_DELAY_gemini=8"}
}

type doctorJSON struct {
	Ready  bool              `json:"ready"`
	Usable []string          `json:"usable_challengers"`
	Kept   map[string]string `json:"kept"`
	Checks []struct {
		Agent           string `json:"agent"`
		Usable          bool   `json:"usable"`
		VersionSlow     bool   `json:"version_slow"`
		VersionTimedOut bool   `json:"version_timed_out"`
		Problem         string `json:"problem"`
	} `json:"checks"`
}

func (s *sandbox) cacheText() string {
	b, _ := os.ReadFile(filepath.Join(s.home, ".cache", "arena", "challengers"))
	return string(b)
}

// slowTook and savedTook match what doctor shows and saves of gemini's
// --version, which took 8 s or a little more.
var (
	slowTook  = regexp.MustCompile(`✓ slow \((8|9|[1-9]\d)(\.\d)?s\)`)
	savedTook = regexp.MustCompile(`\ngemini\t# answered --version in (8|9|[1-9]\d)(\.\d)?s \(slow\)`)
)

// TestDoctorCallsASlowVersionSlowNotBroken: an 8 s --version is "slow",
// with its time, and gemini is saved as usable, saying why; a later check
// whose --version gets no answer in time keeps it in the saved list.
func TestDoctorCallsASlowVersionSlowNotBroken(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	env := slowGeminiEnv(t, s)
	r := s.runWithEnv(env, "doctor")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// The time is rounded to a tenth, and a busy machine adds to the 8 s:
	// "8s", "8.1s", "9.3s" all say it.
	if !slowTook.MatchString(r.stdout) || strings.Contains(r.stdout, "✗ broken") {
		t.Fatalf("gemini is not shown as slow:\n%s", r.stdout)
	}
	if c := s.cacheText(); !savedTook.MatchString(c) {
		t.Fatalf("saved list:\n%s", c)
	}

	// The machine gets busier: --version gives no answer in 2 s. gemini
	// answered before, so it stays in the list, and the list says why.
	r = s.runWithEnv(env, "doctor", "--version-timeout", "2s", "--json")
	var rep doctorJSON
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s\n%s", err, r.stdout, r.stderr)
	}
	if !strings.Contains(strings.Join(rep.Usable, ","), "gemini") || rep.Kept["gemini"] == "" {
		t.Fatalf("gemini was dropped by a timeout: %+v", rep)
	}
	for _, c := range rep.Checks {
		if c.Agent == "gemini" && (!c.VersionTimedOut || strings.Contains(c.Problem, "failed")) {
			t.Fatalf("gemini's check %+v", c)
		}
	}
	if c := s.cacheText(); !strings.Contains(c, "\ngemini\t# kept: it was in the list before; this time its --version gave no answer in 2") {
		t.Fatalf("saved list:\n%s", c)
	}
	if r := s.run("config"); !strings.Contains(r.stdout, "gemini") {
		t.Fatalf("the saved list does not pick gemini:\n%s", r.stdout)
	}
}

// TestDoctorNeverSawASlowCLIAnswer: a CLI that gave no answer in time and
// never answered before is left out, as "slow", not "broken", and the
// saved list says why.
func TestDoctorNeverSawASlowCLIAnswer(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	r := s.runWithEnv(slowGeminiEnv(t, s), "doctor", "--version-timeout", "2s")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "? slow (no answer in 2") || strings.Contains(r.stdout, "✗ broken") {
		t.Fatalf("doctor:\n%s", r.stdout)
	}
	if c := s.cacheText(); strings.Contains(c, "\ngemini") || !strings.Contains(c, "# out: gemini: its --version gave no answer in 2") {
		t.Fatalf("saved list:\n%s", c)
	}
	if r := s.run("doctor", "--version-timeout", "0s"); r.code != exitUsage {
		t.Fatalf("--version-timeout 0s: exit %d", r.code)
	}
}
