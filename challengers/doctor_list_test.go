package challengers_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
)

func TestDoctorOrderAndRoles(t *testing.T) {
	agents := map[string]challengers.Agent{}
	for _, n := range []string{"qwen", "claude", "codex", "gemini", "aider"} {
		agents[n] = challengers.Agent{Name: n}
	}
	var got []string
	for _, a := range challengers.DoctorOrder("claude", []string{"gemini", "claude", "nobody"}, agents) {
		got = append(got, a.Name)
	}
	// The defender, the challengers configured (once each, known ones),
	// then the rest alphabetically.
	if want := []string{"claude", "gemini", "aider", "codex", "qwen"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if r := challengers.DoctorRoles("claude", []string{"gemini"}); !reflect.DeepEqual(r, map[string]string{"claude": "defender", "gemini": "challenger"}) {
		t.Errorf("roles %v", r)
	}
}

func TestListUsable(t *testing.T) {
	checks := []challengers.Check{
		{Agent: "claude", Usable: true},
		{Agent: "gemini", Usable: true, VersionTook: 8140 * time.Millisecond, VersionSlow: true},
		{Agent: "codex", Usable: true, VersionTook: time.Second, Probe: &challengers.Probe{OK: true, Latency: 2260 * time.Millisecond}},
		{Agent: "qwen", VersionTimedOut: true, VersionTimeout: 30 * time.Second, Problem: "--version gave no answer"},
		{Agent: "aider", Problem: "not found on PATH"},
	}
	l := challengers.ListUsable("claude", checks, map[string]bool{"qwen": true, "aider": true})
	want := []challengers.Listed{
		{Name: "gemini", In: true, Why: "answered --version in 8.1s (slow)"},
		{Name: "codex", In: true, Why: "answered --version in 1s and the probe in 2.3s"},
		// In before, and only slow this time: kept.
		{Name: "qwen", In: true, Why: "kept: it was in the list before; this time its --version gave no answer in 30s"},
		// In before, but not found: out.
		{Name: "aider", Why: "not found on PATH"},
	}
	if !reflect.DeepEqual(l.Entries, want) {
		t.Errorf("entries\n%+v\nwant\n%+v", l.Entries, want)
	}
	if !l.Ready || !reflect.DeepEqual(l.Usable, []string{"gemini", "codex", "qwen"}) || len(l.Kept) != 1 || l.Kept["qwen"] != want[2].Why {
		t.Errorf("ready %v, usable %v, kept %v", l.Ready, l.Usable, l.Kept)
	}
	// A timeout never heard from before stays out; without a usable
	// challenger, or a usable defender, doctor is not ready.
	if l := challengers.ListUsable("claude", checks[3:4], nil); l.Ready || len(l.Usable) != 0 || l.Entries[0].In {
		t.Errorf("a new timeout: %+v", l)
	}
	if l := challengers.ListUsable("claude", append([]challengers.Check{{Agent: "claude", Problem: "broken"}}, checks[1:]...), nil); l.Ready {
		t.Errorf("ready without a defender: %+v", l)
	}
}
