package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/settings"
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

type doctorStyles struct {
	ok, bad, warn, dim, head lipgloss.Style
}

func newDoctorStyles(r *lipgloss.Renderer) doctorStyles {
	return doctorStyles{
		ok:   r.NewStyle().Foreground(lipgloss.Color("2")),
		bad:  r.NewStyle().Foreground(lipgloss.Color("1")),
		warn: r.NewStyle().Foreground(lipgloss.Color("3")),
		dim:  r.NewStyle().Faint(true),
		head: r.NewStyle().Bold(true),
	}
}

func (a *app) printDoctor(r doctorReport, probe bool) {
	st := newDoctorStyles(lipgloss.NewRenderer(a.stdout))
	headers := []string{"AGENT", "ROLE", "STATUS", "VERSION", "CREDENTIALS"}
	if probe {
		headers = append(headers, "PROBE")
	}
	t := newTable(lipgloss.NewRenderer(a.stdout), headers...)
	for _, c := range r.Checks {
		role := r.roles[c.Agent]
		if role == "" {
			role = "available"
		}
		row := []string{c.Agent, role, status(c, r.Kept[c.Agent] != "", st), engine.OrDash(c.Version), creds(c, st)}
		if probe {
			row = append(row, probeCell(c, st))
		}
		t.Row(row...)
	}
	fmt.Fprintln(a.stdout, t.Render())
	for _, c := range r.Checks {
		a.printProblem(c, st)
		if r.Kept[c.Agent] != "" {
			fmt.Fprintf(a.stdout, "      kept in the saved list: it answered on an earlier check\n")
		}
	}
	a.printBilling(r, st)
	if r.CacheError != "" {
		a.warn("could not record the usable challengers: %s", r.CacheError)
	} else if len(r.Usable) > 0 {
		fmt.Fprintf(a.stdout, "\nUsable challengers: %s %s\n", strings.Join(r.Usable, ", "), st.dim.Render("(saved to "+r.CachePath+")"))
	}
	if !r.Ready {
		fmt.Fprintln(a.stdout, notReadyBox(r, st))
	}
}

func status(c challengers.Check, kept bool, st doctorStyles) string {
	took := c.VersionTook.Round(100 * time.Millisecond)
	switch {
	case c.Usable && c.VersionSlow:
		return st.warn.Render(fmt.Sprintf("✓ slow (%s)", took))
	case c.Usable:
		return st.ok.Render("✓ ready")
	case !c.Found:
		return st.bad.Render("✗ not installed")
	case kept:
		return st.warn.Render(fmt.Sprintf("? slow (no answer in %s; kept)", c.VersionTimeout))
	case c.VersionTimedOut:
		return st.warn.Render(fmt.Sprintf("? slow (no answer in %s)", c.VersionTimeout))
	}
	return st.bad.Render("✗ broken")
}

func creds(c challengers.Check, st doctorStyles) string {
	var found []string
	for _, cr := range c.Credentials {
		if cr.Present {
			found = append(found, cr.Name)
		}
	}
	if len(found) == 0 {
		if len(c.Credentials) == 0 {
			return st.dim.Render("—")
		}
		return st.warn.Render("none found")
	}
	return strings.Join(found, ", ")
}

func probeCell(c challengers.Check, st doctorStyles) string {
	switch {
	case c.Probe == nil:
		return st.dim.Render("—")
	case c.Probe.OK:
		return st.ok.Render(fmt.Sprintf("✓ %s", c.Probe.Latency.Round(10*time.Millisecond)))
	}
	return st.bad.Render("✗ failed")
}

func (a *app) printProblem(c challengers.Check, st doctorStyles) {
	w := a.stdout
	switch {
	case c.Alternative != "":
		fmt.Fprintf(w, "  %s %s: %s\n", st.dim.Render("·"), c.Agent, c.Alternative)
	}
	if c.Usable && c.CredentialsConfigured() || c.Usable && len(c.Credentials) == 0 {
		return
	}
	if c.Usable {
		fmt.Fprintf(w, "  %s %s: no credentials found (%s); fine if it is logged in another way, --probe checks for real\n",
			st.warn.Render("!"), c.Agent, credNames(c))
		return
	}
	mark := st.bad.Render("✗")
	if c.VersionTimedOut {
		mark = st.warn.Render("?")
	}
	fmt.Fprintf(w, "  %s %s: %s\n", mark, c.Agent, c.Problem)
	if !c.Found && c.Install != "" {
		fmt.Fprintf(w, "      install: %s\n", c.Install)
	}
}

func credNames(c challengers.Check) string {
	var n []string
	for _, cr := range c.Credentials {
		n = append(n, cr.Name)
	}
	return strings.Join(n, ", ")
}

// notReadyBox is the protocol's message when a debate cannot be held.
func notReadyBox(r doctorReport, st doctorStyles) string {
	var b strings.Builder
	b.WriteString("A debate needs the defender and at least ONE external challenger.\n")
	b.WriteString("Claude debating itself provides no genuine diversity.\n\n")
	for _, c := range r.Checks {
		if c.Agent == r.Defender && !c.Usable {
			fmt.Fprintf(&b, "The defender %s is not usable: %s\n\n", c.Agent, c.Problem)
		}
	}
	b.WriteString("Install at least one challenger CLI:\n")
	for _, c := range r.Checks {
		if c.Agent != r.Defender && c.Install != "" {
			fmt.Fprintf(&b, "  %-7s %s\n", c.Agent, c.Install)
		}
	}
	b.WriteString("\nthen run arena doctor again.")
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("1")).Padding(0, 2)
	title := st.bad.Bold(true).Render("NOT READY TO DEBATE")
	return "\n" + title + "\n" + box.Render(b.String())
}
