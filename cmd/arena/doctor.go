package main

import (
	"context"
	"encoding/json"
	"fmt"
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
exact failure. An API agent (api: openai in the config) is listed with its
endpoint and model (never its key) and whether the variable its key_env
names is set; --probe asks its endpoint for GET /models, checks that the
model is listed, and sends it the prompt. Each agent's vendor family is
shown (two seats of one family are not independent). It says how each is billed (metered or subscription: what a
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

func (a *app) doctor(ctx context.Context, s *settings.Settings, f doctorFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if f.probe {
		a.startReaper()
	}
	before, _, _ := settings.ReadChallengerCache(a.env) // an unreadable list is no list
	checks := challengers.Diagnose(ctx, challengers.DoctorOrder(s.Defender, s.Challengers, s.Agents), challengers.DoctorOptions{
		Probe: f.probe, ProbeTimeout: f.probeTimeout, VersionTimeout: f.versionTimeout, Env: a.agentEnv, Home: a.env.Home,
	})
	r := s.Doctor(a.env, checks, before)
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

// printDoctor prints the report as doctor's table; a failure to save the
// usable challengers is a warning, on stderr, between the table and the
// verdict.
func (a *app) printDoctor(r settings.DoctorReport, probe bool) {
	d := doctorView(r, probe)
	fmt.Fprint(a.stdout, plain.DoctorTable(d, a.stdout))
	if r.CacheError != "" {
		a.warn("could not record the usable challengers: %s", r.CacheError)
	}
	fmt.Fprint(a.stdout, plain.DoctorVerdict(d, a.stdout))
}

// doctorView is what the table shows of the report.
func doctorView(r settings.DoctorReport, probe bool) plain.Doctor {
	d := plain.Doctor{Defender: r.Defender, Ready: r.Ready, Usable: r.Usable, Probe: probe, CachePath: r.CachePath, CacheError: r.CacheError}
	for _, c := range r.Checks {
		ag := plain.DoctorAgent{Name: c.Agent, Role: r.Roles[c.Agent], Version: c.Version, Found: c.Found, Usable: c.Usable,
			VersionTook: c.VersionTook, VersionTimeout: c.VersionTimeout, VersionSlow: c.VersionSlow, VersionTimedOut: c.VersionTimedOut,
			Kept: r.Kept[c.Agent] != "", Problem: c.Problem, Alternative: c.Alternative, Install: c.Install, Billing: r.Billing[c.Agent], Path: c.Path,
			Family: c.Family, Endpoint: c.Endpoint, Models: c.Models}
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
