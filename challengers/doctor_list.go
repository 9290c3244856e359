package challengers

import (
	"fmt"
	"sort"
	"time"
)

// Doctor checks every agent (Diagnose), and its verdict is the list of
// usable challengers arena uses by default, each with why it is in, and
// those left out with why; the settings save it.

// DoctorOrder is the order doctor checks agents in: the defender first,
// then the configured challengers, then every other agent, alphabetically.
func DoctorOrder(defender string, configured []string, agents map[string]Agent) []Agent {
	seen := map[string]bool{}
	var out []Agent
	add := func(name string) {
		if a, ok := agents[name]; ok && !seen[name] {
			seen[name] = true
			out = append(out, a)
		}
	}
	add(defender)
	for _, n := range configured {
		add(n)
	}
	var rest []string
	for n := range agents {
		rest = append(rest, n)
	}
	sort.Strings(rest)
	for _, n := range rest {
		add(n)
	}
	return out
}

// DoctorRoles names the role of the defender and of each configured
// challenger.
func DoctorRoles(defender string, configured []string) map[string]string {
	r := map[string]string{defender: "defender"}
	for _, n := range configured {
		r[n] = "challenger"
	}
	return r
}

// Listed is one agent of doctor's list of usable challengers: whether it
// is in, and why, in doctor's words ("answered --version in 8.1s (slow)",
// "not found on PATH").
type Listed struct {
	Name string
	In   bool
	Why  string
}

// Listing is doctor's verdict over the agents it checked.
type Listing struct {
	// Ready: the defender and at least one challenger are usable.
	Ready bool
	// Usable are the challengers in the list, in the order checked.
	Usable []string
	// Kept are challengers whose --version gave no answer this time but
	// that were in the list before: kept in it, with why.
	Kept map[string]string
	// Entries are every challenger checked, in or out, in order.
	Entries []Listed
}

// ListUsable is doctor's verdict over checks, the defender's among them;
// wasIn says which agents the list had in before.
func ListUsable(defender string, checks []Check, wasIn map[string]bool) Listing {
	l := Listing{Kept: map[string]string{}}
	for _, c := range checks {
		if c.Agent == defender {
			l.Ready = c.Usable
			continue
		}
		in, why := c.Usable, listedWhy(c)
		if !c.Usable && c.VersionTimedOut && wasIn[c.Agent] {
			// A CLI that answered once is not dropped by a timeout.
			in = true
			why = fmt.Sprintf("kept: it was in the list before; this time its --version gave no answer in %s", c.VersionTimeout)
			l.Kept[c.Agent] = why
		}
		if in {
			l.Usable = append(l.Usable, c.Agent)
		}
		l.Entries = append(l.Entries, Listed{Name: c.Agent, In: in, Why: why})
	}
	l.Ready = l.Ready && len(l.Usable) > 0
	return l
}

// listedWhy is why a check puts an agent in the list or leaves it out, in
// a few words.
func listedWhy(c Check) string {
	took := c.VersionTook.Round(100 * time.Millisecond)
	if c.VersionTook < time.Second {
		took = c.VersionTook.Round(10 * time.Millisecond) // not "0s"
	}
	switch {
	case c.Usable && c.Endpoint != "" && c.Probe != nil:
		return fmt.Sprintf("its endpoint %s and answered the probe in %s", c.Models, c.Probe.Latency.Round(100*time.Millisecond))
	case c.Usable && c.Endpoint != "":
		return "an endpoint, " + c.Endpoint + " (not asked: --probe asks it)"
	case c.Usable && c.Probe != nil:
		return fmt.Sprintf("answered --version in %s and the probe in %s", took, c.Probe.Latency.Round(100*time.Millisecond))
	case c.Usable && c.VersionSlow:
		return fmt.Sprintf("answered --version in %s (slow)", took)
	case c.Usable:
		return fmt.Sprintf("answered --version in %s", took)
	}
	return c.Problem
}
