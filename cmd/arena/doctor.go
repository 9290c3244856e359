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
	"github.com/arenadebate/arena/settings"
)

func (a *app) doctorCmd(cf *commonFlags) *cobra.Command {
	var probe, asJSON bool
	var probeTimeout time.Duration
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

It records the usable challengers for arena to use by default, and exits 0
when the defender and at least one challenger are usable.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := a.loadSettings(cmd, cf)
			if err != nil {
				return err
			}
			return a.doctor(cmd.Context(), s, probe, probeTimeout, asJSON)
		},
	}
	cmd.Flags().BoolVar(&probe, "probe", false, "send each agent a real one-line prompt")
	cmd.Flags().DurationVar(&probeTimeout, "probe-timeout", 60*time.Second, "timeout of each probe")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the results as JSON")
	return cmd
}

// doctorReport is doctor's verdict over all agents.
type doctorReport struct {
	Defender   string              `json:"defender"`
	Ready      bool                `json:"ready"`
	Usable     []string            `json:"usable_challengers"`
	CachePath  string              `json:"cache_path,omitempty"`
	CacheError string              `json:"cache_error,omitempty"`
	Checks     []challengers.Check `json:"checks"`
	// Billing is how each installed agent is billed, and why (budget.go).
	Billing map[string]string `json:"billing,omitempty"`
	roles   map[string]string
}

func (a *app) doctor(ctx context.Context, s *settings.Settings, probe bool, probeTimeout time.Duration, asJSON bool) error {
	if ctx == nil {
		ctx = context.Background()
	}
	agents := doctorAgents(s)
	if probe {
		if rp := a.startReaper(); rp != nil {
			defer rp.Close()
		}
	}
	checks := challengers.Diagnose(ctx, agents, challengers.DoctorOptions{
		Probe: probe, ProbeTimeout: probeTimeout, Env: a.agentEnv, Home: a.env.Home,
	})
	r := doctorReport{Defender: s.Defender, Checks: checks, roles: roles(s)}
	for _, c := range checks {
		switch {
		case c.Agent == s.Defender:
			r.Ready = c.Usable
		case c.Usable:
			r.Usable = append(r.Usable, c.Agent)
		}
	}
	r.Ready = r.Ready && len(r.Usable) > 0
	r.Billing = doctorBilling(s, checks)
	if err := settings.SaveChallengerCache(a.env, r.Usable); err != nil {
		r.CacheError = err.Error()
	} else {
		r.CachePath, _ = settings.ChallengerCachePath(a.env)
	}
	if asJSON {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else {
		a.printDoctor(r, probe)
	}
	if !r.Ready {
		return exitCode(exitError)
	}
	return nil
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
		row := []string{c.Agent, role, status(c, st), orDash(c.Version), creds(c, st)}
		if probe {
			row = append(row, probeCell(c, st))
		}
		t.Row(row...)
	}
	fmt.Fprintln(a.stdout, t.Render())
	for _, c := range r.Checks {
		a.printProblem(c, st)
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

func status(c challengers.Check, st doctorStyles) string {
	switch {
	case c.Usable:
		return st.ok.Render("✓ ready")
	case !c.Found:
		return st.bad.Render("✗ not installed")
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
	fmt.Fprintf(w, "  %s %s: %s\n", st.bad.Render("✗"), c.Agent, c.Problem)
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

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
