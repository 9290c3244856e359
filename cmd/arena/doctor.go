package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/tui/plain"
)

func (a *app) doctorCmd(cf *commonFlags) *cobra.Command {
	var probe, asJSON bool
	var probeTimeout, versionTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check which agents are installed, configured and working",
		Long: `doctor checks the defender and every built-in and configured agent: whether
its CLI is on PATH, its version, and whether credentials look configured
(which environment variables or files exist; values are never shown). With
--probe it sends each a real one-line prompt and reports the latency or the
exact failure. It says how each is billed (metered or subscription: what a
budget counts of its calls), and whether that is a guess from how its CLI
is logged in.

A CLI whose --version takes a while is "slow", not broken (the timeout is
--version-timeout, 30s by default); one that gives no answer at all in that
time is kept in the saved list if it answered on an earlier check.

It records the usable challengers for arena to use by default, each with why
it is in (and, as comments, those left out and why), and exits 0 when the
defender and at least one challenger are usable.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := a.loadSettings(cmd, cf)
			if err != nil {
				return err
			}
			if versionTimeout <= 0 {
				return usagef("--version-timeout must be positive, not %s", versionTimeout)
			}
			return a.doctor(cmd.Context(), s, doctorFlags{probe, probeTimeout, versionTimeout, asJSON})
		},
	}
	cmd.Flags().BoolVar(&probe, "probe", false, "send each agent a real one-line prompt")
	cmd.Flags().DurationVar(&probeTimeout, "probe-timeout", 60*time.Second, "timeout of each probe")
	cmd.Flags().DurationVar(&versionTimeout, "version-timeout", challengers.DefaultVersionTimeout, "how long each CLI's --version may take")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the results as JSON")
	return cmd
}

// doctorFlags are doctor's own flags.
type doctorFlags struct {
	probe                        bool
	probeTimeout, versionTimeout time.Duration
	json                         bool
}

// doctorReport is doctor's verdict over all agents.
type doctorReport struct {
	Defender string   `json:"defender"`
	Ready    bool     `json:"ready"`
	Usable   []string `json:"usable_challengers"`
	// Kept are challengers whose --version gave no answer this time but
	// that answered on an earlier check: kept in the list, with why.
	Kept       map[string]string     `json:"kept,omitempty"`
	Saved      []settings.CacheEntry `json:"saved,omitempty"`
	CachePath  string                `json:"cache_path,omitempty"`
	CacheError string                `json:"cache_error,omitempty"`
	Checks     []challengers.Check   `json:"checks"`
	// Billing is how each installed agent is billed, and why (budget.go).
	Billing map[string]string `json:"billing,omitempty"`
	roles   map[string]string
}

func (a *app) doctor(ctx context.Context, s *settings.Settings, f doctorFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	agents := doctorAgents(s)
	if f.probe {
		a.startReaper()
	}
	before, _, _ := settings.ReadChallengerCache(a.env) // an unreadable list is no list
	checks := challengers.Diagnose(ctx, agents, challengers.DoctorOptions{
		Probe: f.probe, ProbeTimeout: f.probeTimeout, VersionTimeout: f.versionTimeout, Env: a.agentEnv, Home: a.env.Home,
	})
	r := doctorReport{Defender: s.Defender, Checks: checks, roles: roles(s), Kept: map[string]string{}}
	wasIn := map[string]bool{}
	for _, e := range before {
		wasIn[e.Name] = e.In
	}
	for _, c := range checks {
		if c.Agent == s.Defender {
			r.Ready = c.Usable
			continue
		}
		in, why := c.Usable, savedWhy(c)
		if !c.Usable && c.VersionTimedOut && wasIn[c.Agent] {
			// A CLI that answered once is not dropped by a timeout.
			in = true
			why = fmt.Sprintf("kept: it was in the list before; this time its --version gave no answer in %s", c.VersionTimeout)
			r.Kept[c.Agent] = why
		}
		if in {
			r.Usable = append(r.Usable, c.Agent)
		}
		r.Saved = append(r.Saved, settings.CacheEntry{Name: c.Agent, In: in, Why: why})
	}
	r.Ready = r.Ready && len(r.Usable) > 0
	r.Billing = doctorBilling(s, checks)
	if err := settings.SaveChallengerCache(a.env, r.Saved); err != nil {
		r.CacheError = err.Error()
	} else {
		r.CachePath, _ = settings.ChallengerCachePath(a.env)
	}
	if f.json {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else {
		a.printDoctor(r, f.probe)
	}
	if !r.Ready {
		return exitCode(exitError)
	}
	return nil
}

// savedWhy is why a check puts an agent in the saved list or leaves it
// out, in a few words.
func savedWhy(c challengers.Check) string {
	took := c.VersionTook.Round(100 * time.Millisecond)
	switch {
	case c.Usable && c.Probe != nil:
		return fmt.Sprintf("answered --version in %s and the probe in %s", took, c.Probe.Latency.Round(100*time.Millisecond))
	case c.Usable && c.VersionSlow:
		return fmt.Sprintf("answered --version in %s (slow)", took)
	case c.Usable:
		return fmt.Sprintf("answered --version in %s", took)
	}
	return c.Problem
}

// doctorAgents is the defender first, then the configured challengers, then
// every other agent, alphabetically.
func doctorAgents(s *settings.Settings) []challengers.Agent {
	seen := map[string]bool{}
	var out []challengers.Agent
	add := func(name string) {
		if a, ok := s.Agents[name]; ok && !seen[name] {
			seen[name] = true
			out = append(out, a)
		}
	}
	add(s.Defender)
	for _, n := range s.Challengers {
		add(n)
	}
	var rest []string
	for n := range s.Agents {
		rest = append(rest, n)
	}
	sort.Strings(rest)
	for _, n := range rest {
		add(n)
	}
	return out
}

func roles(s *settings.Settings) map[string]string {
	r := map[string]string{s.Defender: "defender"}
	for _, n := range s.Challengers {
		r[n] = "challenger"
	}
	return r
}

// printDoctor prints the report as doctor's table; a failure to save the
// usable challengers is a warning, on stderr, between the table and the
// verdict.
func (a *app) printDoctor(r doctorReport, probe bool) {
	d := doctorView(r, probe)
	fmt.Fprint(a.stdout, plain.DoctorTable(d, a.stdout))
	if r.CacheError != "" {
		a.warn("could not record the usable challengers: %s", r.CacheError)
	}
	fmt.Fprint(a.stdout, plain.DoctorVerdict(d, a.stdout))
}

// doctorView is what the table shows of the report.
func doctorView(r doctorReport, probe bool) plain.Doctor {
	d := plain.Doctor{Defender: r.Defender, Ready: r.Ready, Usable: r.Usable, Probe: probe, CachePath: r.CachePath, CacheError: r.CacheError}
	for _, c := range r.Checks {
		ag := plain.DoctorAgent{Name: c.Agent, Role: r.roles[c.Agent], Version: c.Version, Found: c.Found, Usable: c.Usable,
			VersionTook: c.VersionTook, VersionTimeout: c.VersionTimeout, VersionSlow: c.VersionSlow, VersionTimedOut: c.VersionTimedOut,
			Kept: r.Kept[c.Agent] != "", Problem: c.Problem, Alternative: c.Alternative, Install: c.Install, Billing: r.Billing[c.Agent]}
		for _, cr := range c.Credentials {
			ag.Credentials = append(ag.Credentials, plain.DoctorCredential{Name: cr.Name, Present: cr.Present})
		}
		if c.Probe != nil {
			ag.Probe = &plain.DoctorProbe{OK: c.Probe.OK, Latency: c.Probe.Latency}
		}
		d.Agents = append(d.Agents, ag)
	}
	return d
}
