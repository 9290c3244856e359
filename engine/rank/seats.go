package rank

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arenadebate/arena/challengers"
)

// unsafeFlags give an agent the run of the machine; a fact seat runs
// inside the person's repository, so it must not have them.
var unsafeFlags = []string{
	"--dangerously-skip-permissions", "--yolo", "--full-auto", "--dangerously-bypass-approvals-and-sandbox",
	"danger-full-access", "--approval-mode=yolo", "bypassPermissions",
}

// UnsafeFlag is the first of ag's command's words that gives it the run
// of the machine, "" when none does.
func UnsafeFlag(ag challengers.Agent) string {
	for _, arg := range slices.Concat(ag.Command, ag.StdinCommand, ag.Args) {
		for _, u := range unsafeFlags {
			if arg == u || strings.Contains(arg, u) {
				return u
			}
		}
	}
	return ""
}

// AvoidAuthors moves a judge seat (and the verdict) held by the agent
// that wrote one of the repositories to an agent of the pool (the
// defender, then the challengers) that wrote none, in turn, and returns
// notes saying where it moved one and where it could not.
func AvoidAuthors(cfg *Config, pool []string, agents map[string]challengers.Agent, authors []string) []string {
	if len(authors) == 0 {
		return nil
	}
	var free []string
	for _, n := range pool {
		if !slices.Contains(authors, n) && !slices.Contains(free, n) {
			free = append(free, n)
		}
	}
	var notes []string
	next := 0
	swap := func(seat string, ag challengers.Agent) challengers.Agent {
		if !slices.Contains(authors, ag.Name) {
			return ag
		}
		if len(free) == 0 {
			notes = append(notes, fmt.Sprintf("the %s is held by %s, which wrote one of the repositories: no other usable agent to take it", seat, ag.Name))
			return ag
		}
		to := agents[free[next%len(free)]]
		next++
		notes = append(notes, fmt.Sprintf("the %s went to %s instead of %s, which wrote one of the repositories", seat, to.Name, ag.Name))
		return to
	}
	for _, d := range cfg.Weights.Active() {
		cfg.Judges[d] = swap(strings.ToLower(d.Title())+" judge", cfg.Judges[d])
	}
	cfg.Verdict = swap("verdict writer", cfg.Verdict)
	return notes
}
