package plain

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// Doctor is what `arena doctor` found, as its table and notes show it.
// The command fills it from its checks and the settings: this package
// knows neither.
type Doctor struct {
	Defender string
	Ready    bool     // the defender and at least one challenger are usable
	Usable   []string // the usable challengers, as saved
	Probe    bool     // the agents were sent a prompt: a PROBE column
	Agents   []DoctorAgent
	// CachePath is where the usable challengers were saved, CacheError
	// why they could not be ("" when they were).
	CachePath, CacheError string
}

// DoctorAgent is one agent's row of the table and the notes under it.
type DoctorAgent struct {
	Name    string
	Role    string // "defender", "challenger"; "" for any other agent
	Version string
	Found   bool // its CLI is on PATH
	Usable  bool
	// VersionTook is how long --version took; VersionSlow says that was
	// long, VersionTimedOut that it gave no answer in VersionTimeout.
	VersionTook, VersionTimeout  time.Duration
	VersionSlow, VersionTimedOut bool
	// Kept: in the saved list although --version gave no answer this
	// time, because it answered on an earlier check.
	Kept        bool
	Credentials []DoctorCredential
	Probe       *DoctorProbe // nil: not probed
	Problem     string       // why it is not usable
	Alternative string       // another CLI standing in for it
	Install     string       // the command that installs its CLI
	// Path is the program found on PATH ("" when none was, or for an
	// endpoint): a version string alone does not tell the real CLI from
	// another program of its name.
	Path string
	// Billing is how it is billed and why, "metered (config)"; "" when
	// that is not known (its CLI is not installed).
	Billing string
	// Family is the vendor family of its model ("anthropic"); Endpoint,
	// for an API agent, where it is asked (never a key), and Models what
	// the endpoint's GET /models said of its model.
	Family, Endpoint, Models string
}

// DoctorCredential is a credential source an agent's CLI reads (an
// environment variable, a file): its name, and whether it exists.
type DoctorCredential struct {
	Name    string
	Present bool
}

// DoctorProbe is how an agent answered a real one-line prompt.
type DoctorProbe struct {
	OK      bool
	Latency time.Duration
}

// doctorStyles are the colours of doctor's words, and its box.
type doctorStyles struct {
	ok, bad, warn, dim, box lipgloss.Style
}

func newDoctorStyles(r *lipgloss.Renderer) doctorStyles {
	return doctorStyles{
		ok:   r.NewStyle().Foreground(lipgloss.Color("2")),
		bad:  r.NewStyle().Foreground(lipgloss.Color("1")),
		warn: r.NewStyle().Foreground(lipgloss.Color("3")),
		dim:  r.NewStyle().Faint(true),
		box:  r.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("1")).Padding(0, 2),
	}
}

// DoctorTable is the table of agents, the notes on each, and how each is
// billed. out is where it will be written: its terminal, if it is one,
// decides the colours.
func DoctorTable(d Doctor, out io.Writer) string {
	r := lipgloss.NewRenderer(out)
	st := newDoctorStyles(r)
	headers := []string{"AGENT", "ROLE", "FAMILY", "STATUS", "VERSION", "CREDENTIALS"}
	if d.Probe {
		headers = append(headers, "PROBE")
	}
	t := newTable(r, headers...)
	for _, ag := range d.Agents {
		role := ag.Role
		if role == "" {
			role = "available"
		}
		row := []string{ag.Name, role, engine.OrDash(ag.Family), status(ag, st), engine.OrDash(ag.Version), creds(ag, st)}
		if d.Probe {
			row = append(row, probeCell(ag, st))
		}
		t.Row(row...)
	}
	var b strings.Builder
	b.WriteString(t.Render() + "\n")
	for _, ag := range d.Agents {
		b.WriteString(problem(ag, st))
		if ag.Kept {
			b.WriteString("      kept in the saved list: it answered on an earlier check\n")
		}
	}
	b.WriteString(programs(d))
	b.WriteString(billing(d, st))
	return b.String()
}

// programs says where each agent's program was found: a version alone
// does not tell the real CLI from another program of its name (a fake's
// "2.1.330 (Claude Code)" looks real).
func programs(d Doctor) string {
	width := 0
	for _, ag := range d.Agents {
		if ag.Path != "" {
			width = max(width, len(ag.Name))
		}
	}
	if width == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nPrograms (where each was found on PATH)\n")
	for _, ag := range d.Agents {
		if ag.Path != "" {
			fmt.Fprintf(&b, "  %-*s  %s\n", width, ag.Name, trust.Text(ag.Path))
		}
	}
	return b.String()
}

// DoctorVerdict is what follows the table: the usable challengers and
// where they were saved, or why no debate can be held. A failure to save
// them is the command's to report (on stderr), between the two.
func DoctorVerdict(d Doctor, out io.Writer) string {
	st := newDoctorStyles(lipgloss.NewRenderer(out))
	var b strings.Builder
	if d.CacheError == "" && len(d.Usable) > 0 {
		fmt.Fprintf(&b, "\nUsable challengers: %s %s\n", strings.Join(d.Usable, ", "), st.dim.Render("(saved to "+d.CachePath+")"))
	}
	if !d.Ready {
		b.WriteString(notReadyBox(d, st) + "\n")
	}
	return b.String()
}

func status(ag DoctorAgent, st doctorStyles) string {
	took := ag.VersionTook.Round(100 * time.Millisecond)
	switch {
	case ag.Usable && ag.VersionSlow:
		return st.warn.Render(fmt.Sprintf("✓ slow (%s)", took))
	case ag.Usable:
		return st.ok.Render("✓ ready")
	case ag.Endpoint != "":
		return st.bad.Render("✗ not ready")
	case !ag.Found:
		return st.bad.Render("✗ not installed")
	case ag.Kept:
		return st.warn.Render(fmt.Sprintf("? slow (no answer in %s; kept)", ag.VersionTimeout))
	case ag.VersionTimedOut:
		return st.warn.Render(fmt.Sprintf("? slow (no answer in %s)", ag.VersionTimeout))
	}
	return st.bad.Render("✗ broken")
}

func creds(ag DoctorAgent, st doctorStyles) string {
	var found []string
	for _, cr := range ag.Credentials {
		if cr.Present {
			found = append(found, cr.Name)
		}
	}
	if len(found) == 0 {
		switch {
		case len(ag.Credentials) == 0:
			return st.dim.Render("—")
		case ag.probed():
			return st.dim.Render("its own login")
		}
		return st.warn.Render("none found")
	}
	return strings.Join(found, ", ")
}

func probeCell(ag DoctorAgent, st doctorStyles) string {
	switch {
	case ag.Probe == nil:
		return st.dim.Render("—")
	case ag.Probe.OK:
		return st.ok.Render(fmt.Sprintf("✓ %s", ag.Probe.Latency.Round(10*time.Millisecond)))
	}
	return st.bad.Render("✗ failed")
}

// problem is the note under the table on an agent that is not usable, or
// usable with no credential found; its stand-in CLI if it has one.
func problem(ag DoctorAgent, st doctorStyles) string {
	var b strings.Builder
	if ag.Alternative != "" {
		fmt.Fprintf(&b, "  %s %s: %s\n", st.dim.Render("·"), ag.Name, ag.Alternative)
	}
	if ag.Endpoint != "" {
		fmt.Fprintf(&b, "  %s %s: endpoint %s\n", st.dim.Render("·"), ag.Name, trust.Text(ag.Endpoint))
		if ag.Models != "" {
			fmt.Fprintf(&b, "      it %s\n", trust.Text(ag.Models))
		}
	}
	if ag.Usable && (ag.credentialFound() || len(ag.Credentials) == 0 || ag.probed()) {
		return b.String()
	}
	if ag.Usable {
		fmt.Fprintf(&b, "  %s %s: no credentials found (%s); fine if it is logged in another way, --probe checks for real\n",
			st.warn.Render("!"), ag.Name, credNames(ag))
		return b.String()
	}
	mark := st.bad.Render("✗")
	if ag.VersionTimedOut {
		mark = st.warn.Render("?")
	}
	fmt.Fprintf(&b, "  %s %s: %s\n", mark, ag.Name, ag.Problem)
	if !ag.Found && ag.Install != "" {
		fmt.Fprintf(&b, "      install: %s\n", ag.Install)
	}
	return b.String()
}

// probed says that the agent answered a real prompt: however it is logged
// in, it is.
func (ag DoctorAgent) probed() bool { return ag.Probe != nil && ag.Probe.OK }

// credentialFound says whether any of the agent's credential sources exists.
func (ag DoctorAgent) credentialFound() bool {
	for _, cr := range ag.Credentials {
		if cr.Present {
			return true
		}
	}
	return false
}

func credNames(ag DoctorAgent) string {
	var n []string
	for _, cr := range ag.Credentials {
		n = append(n, cr.Name)
	}
	return strings.Join(n, ", ")
}

// billing is how each installed agent is billed, and whether that is
// arena's guess or the config's word: it decides what a budget counts of
// its calls.
func billing(d Doctor, st doctorStyles) string {
	var b strings.Builder
	guessed := false
	for _, ag := range d.Agents {
		if ag.Billing == "" {
			continue
		}
		kind, why, _ := strings.Cut(ag.Billing, " (")
		guessed = guessed || strings.HasPrefix(why, "guessed")
		fmt.Fprintf(&b, "  %-8s %-13s %s\n", ag.Name, kind, st.dim.Render(strings.TrimSuffix(why, ")")))
	}
	if b.Len() == 0 {
		return ""
	}
	if guessed {
		b.WriteString(st.dim.Render("  a guess can be wrong: set agents.NAME.billing: metered | subscription in the config") + "\n")
	}
	return fmt.Sprintf("\nBilling %s\n", st.dim.Render("(what a budget counts: a subscription seat's calls; a metered one's tokens and dollars too)")) + b.String()
}

// notReadyBox is the protocol's message when a debate cannot be held.
func notReadyBox(d Doctor, st doctorStyles) string {
	var b strings.Builder
	b.WriteString("A debate needs the defender and at least ONE external challenger.\n")
	b.WriteString("Claude debating itself provides no genuine diversity.\n\n")
	for _, ag := range d.Agents {
		if ag.Name == d.Defender && !ag.Usable {
			fmt.Fprintf(&b, "The defender %s is not usable: %s\n\n", ag.Name, ag.Problem)
		}
	}
	b.WriteString("Install at least one challenger CLI:\n")
	for _, ag := range d.Agents {
		if ag.Name != d.Defender && ag.Install != "" {
			fmt.Fprintf(&b, "  %-7s %s\n", ag.Name, ag.Install)
		}
	}
	b.WriteString("\nthen run arena doctor again.")
	title := st.bad.Bold(true).Render("NOT READY TO DEBATE")
	return "\n" + title + "\n" + st.box.Render(b.String())
}
