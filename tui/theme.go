package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/markdown"
)

// The palette. Agents get bright hues that read on dark and light
// backgrounds alike; chrome (borders, hints) is grey and adapts.
var (
	agentColors = []lipgloss.Color{
		"#A78BFA", // violet: the first seat
		"#38BDF8", // sky
		"#FB923C", // orange
		"#34D399", // emerald
		"#F472B6", // pink
		"#FACC15", // yellow
		"#60A5FA", // blue
	}
	colorOK    = lipgloss.Color("#22C55E")
	colorWarn  = lipgloss.Color("#EAB308")
	colorBad   = lipgloss.Color("#EF4444")
	colorCalm  = lipgloss.Color("#94A3B8")
	colorDim   = lipgloss.AdaptiveColor{Light: "#6B7280", Dark: "#8B93A1"}
	colorFaint = lipgloss.AdaptiveColor{Light: "#9CA3AF", Dark: "#5B6270"}
	colorLine  = lipgloss.AdaptiveColor{Light: "#C4C8CF", Dark: "#3F4552"}
	colorText  = lipgloss.AdaptiveColor{Light: "#1F2937", Dark: "#E5E7EB"}
	colorInk   = lipgloss.Color("#111827") // text on a coloured pill
)

// theme holds every style the screen uses, built once from one renderer so
// that the colour profile (or its absence) is decided in one place.
type theme struct {
	color   bool // false under NO_COLOR or on a terminal without colour
	profile termenv.Profile
	// dark is the terminal's background. Asked once, here, before the
	// program starts: asking later would race bubbletea for stdin.
	dark bool

	text, dim, faint, bold ink
	line                   ink // unfocused borders, rules
	ok, warn, bad, calm    ink
	current                ink            // the current phase on the timeline
	pill                   lipgloss.Style // the ARENA mark
	modal                  lipgloss.Style
	help                   help.Styles

	agents []agentStyle
	stance map[engine.Stance]ink
	result map[engine.Stance]lipgloss.Style // the outcome's pill
	md     markdown.Options                 // the replies and the outcome document
}

// agentStyle is how one agent's pane is drawn.
type agentStyle struct {
	name    ink // the name in the pane's border
	focus   ink // the border of the focused pane
	heading ink // headings in its replies
	section ink // "round 2 · opening" rules
}

// ink is a colour (and weight) reduced to the escape sequences around
// the text. lipgloss.Style.Render measures, splits and pads its input; a
// pane paints some two hundred short pieces per frame, and this is a
// concatenation.
type ink struct{ pre, post string }

// inkOf captures what st puts around a text. st must only colour or
// weigh (no padding, width or border).
func inkOf(st lipgloss.Style) ink {
	pre, post, _ := strings.Cut(st.Render("\x00"), "\x00")
	return ink{pre, post}
}

// Render paints s.
func (k ink) Render(s string) string {
	if s == "" || k.pre == "" {
		return s
	}
	return k.pre + s + k.post
}

func newTheme(r *lipgloss.Renderer) theme {
	s := func() lipgloss.Style { return r.NewStyle() }
	fg := func(c lipgloss.TerminalColor) ink { return inkOf(s().Foreground(c)) }
	t := theme{
		color:   r.ColorProfile() != termenv.Ascii,
		profile: r.ColorProfile(),
		text:    fg(colorText),
		dim:     fg(colorDim),
		faint:   fg(colorFaint),
		bold:    inkOf(s().Bold(true)),
		line:    fg(colorLine),
		ok:      fg(colorOK),
		warn:    fg(colorWarn),
		bad:     fg(colorBad),
		calm:    fg(colorCalm),
		pill:    s().Bold(true).Foreground(colorInk).Background(agentColors[0]).Padding(0, 1),
		current: inkOf(s().Bold(true).Foreground(agentColors[0])),
		modal: s().Border(lipgloss.ThickBorder()).BorderForeground(colorWarn).
			Padding(0, 1),
	}
	// Asking the terminal takes a round trip (up to seconds on a terminal
	// that does not answer); without colour the answer does not matter.
	t.dark = !t.color || r.HasDarkBackground()
	t.help = help.Styles{
		ShortKey:       s().Foreground(colorDim).Bold(true),
		ShortDesc:      s().Foreground(colorFaint),
		ShortSeparator: s().Foreground(colorLine),
		Ellipsis:       s().Foreground(colorLine),
		FullKey:        s().Foreground(colorDim).Bold(true),
		FullDesc:       s().Foreground(colorFaint),
		FullSeparator:  s().Foreground(colorLine),
	}
	for _, c := range agentColors {
		t.agents = append(t.agents, agentStyle{
			name:    inkOf(s().Bold(true).Foreground(c)),
			focus:   fg(c),
			heading: inkOf(s().Bold(true).Foreground(c)),
			section: inkOf(s().Foreground(c).Faint(true)),
		})
	}
	t.stance = map[engine.Stance]ink{
		engine.StanceAgree:    t.ok,
		engine.StancePartial:  t.warn,
		engine.StanceDisagree: t.bad,
		engine.StanceNeutral:  t.calm,
	}
	pill := func(c lipgloss.TerminalColor) lipgloss.Style {
		return s().Bold(true).Foreground(colorInk).Background(c).Padding(0, 1)
	}
	t.result = map[engine.Stance]lipgloss.Style{
		engine.StanceAgree:    pill(colorOK),
		engine.StancePartial:  pill(colorWarn),
		engine.StanceDisagree: pill(colorBad),
		engine.StanceNeutral:  pill(colorCalm),
	}
	// The replies' text is left in the terminal's own colour: a colour
	// of ours would have glamour paint every padding cell with it.
	t.md = markdown.Options{Profile: t.profile, Light: !t.dark}
	return t
}

// agent returns the style of the i-th agent, cycling through the palette.
func (t theme) agent(i int) agentStyle { return t.agents[i%len(t.agents)] }

// stanceStyle colours a badge; unknown stances are drawn plainly.
func (t theme) stanceStyle(s engine.Stance) ink {
	if st, ok := t.stance[s]; ok {
		return st
	}
	return t.text
}

// levelStyle colours a note by its level.
func (t theme) levelStyle(level string) ink {
	switch level {
	case "warn":
		return t.warn
	case "error":
		return t.bad
	case "table":
		return t.current
	}
	return t.dim
}
