package plain

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/NimbleMarkets/ntcharts/barchart"
	"github.com/NimbleMarkets/ntcharts/sparkline"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/stats"
)

// The report of `arena stats`: how each model judges, across runs.

// StatsText is the report as plain tables, for a pipe. out is where it
// will be written: its terminal, if it is one, decides the colours.
func StatsText(rep stats.Report, out io.Writer) string {
	return statsText(rep, lipgloss.NewRenderer(out))
}

// StatsChart is the report drawn for a terminal width columns wide (bars
// and sparklines); out is that terminal.
func StatsChart(rep stats.Report, out io.Writer, width int) string {
	return statsChart(rep, lipgloss.NewRenderer(out), width)
}

// cell is a figure in a table cell: "0.83 (n=12)", or "— (n=3)".
func cell(f stats.Figure, format string) string {
	if !f.Shown {
		return fmt.Sprintf("— (n=%d)", f.N)
	}
	return fmt.Sprintf(format+" (n=%d)", f.Value, f.N)
}

// statsHeader says what the figures rest on.
func statsHeader(rep stats.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s from %s", engine.Plural(rep.Runs, "run"), engine.Plural(rep.Logs, "arena log"))
	if n := len(rep.Skipped); n > 0 {
		fmt.Fprintf(&b, " (%s skipped)", engine.Plural(n, "other file"))
	}
	if rep.Labelled > 0 {
		fmt.Fprintf(&b, ", %d with your verdict", rep.Labelled)
	}
	fmt.Fprintf(&b, ". A figure resting on fewer than %d cases (a p95: %d), or resampled over fewer than %d runs, is shown as —, with its count.\n", rep.MinCases, rep.MinP95, rep.MinRuns)
	return b.String()
}

// statsText is the report as plain tables, for a pipe.
func statsText(rep stats.Report, r *lipgloss.Renderer) string {
	var b strings.Builder
	b.WriteString(statsHeader(rep))
	if len(rep.Models) == 0 {
		b.WriteString("\nNo model has taken part in these runs.\n")
		return b.String()
	}
	b.WriteString("\nAS A JUDGE\n")
	t := newTable(r, "MODEL", "READINGS", "FLIP RATE", "FIRST SHOWN (CHANCE)", "PANEL Δ", "PANEL α", "SELF-PREF", "FAMILY-PREF", "LENGTH r", "CONFORMITY")
	for _, m := range rep.Models {
		j := m.Judge
		first := cell(j.FirstShown, "%.2f")
		if j.FirstShown.Shown {
			first = fmt.Sprintf("%.2f (n=%d; %.2f)", j.FirstShown.Value, j.FirstShown.N, j.FirstShownChance)
		}
		t.Row(m.Name, fmt.Sprint(j.Readings), cell(j.FlipRate, "%.2f"), first, cell(j.PanelDifference, "%.2f"), cell(j.PanelAlpha, "%.2f"),
			cell(j.SelfPreference, "%+.2f"), cell(j.FamilySelfPreference, "%+.2f"), cell(j.LengthCorrelation, "%+.2f"), cell(j.Conformity, "%.2f"))
	}
	b.WriteString(t.Render() + "\n")
	b.WriteString(trustText(rep, r))
	b.WriteString("\nAS A SEAT\n")
	t = newTable(r, "MODEL", "CALLS", "FAILED", "BY KIND", "REPAIRS", "P50", "P95", "TOKENS IN · OUT", "COST")
	for _, m := range rep.Models {
		s := m.Seat
		t.Row(m.Name, fmt.Sprint(s.Calls), fmt.Sprint(s.Failures), kinds(s), fmt.Sprint(s.Repairs),
			cell(s.LatencyP50, "%.1fs"), cell(s.LatencyP95, "%.1fs"), tokens(s), cost(s))
	}
	b.WriteString(t.Render() + "\n")
	if len(rep.Authors) > 0 {
		b.WriteString("\nAS AN AUTHOR (Bradley–Terry rating; 1000 is the group's mean; 95% interval)\n")
		t = newTable(r, "AUTHOR", "RATING", "INTERVAL", "GAMES", "WON", "LOST", "TIED", "GROUP")
		for _, au := range rep.Authors {
			rating, interval := "—", "—"
			if au.Shown {
				rating, interval = fmt.Sprintf("%.0f", au.Rating), fmt.Sprintf("%.0f–%.0f", au.Low, au.High)
			}
			t.Row(au.Name, rating, interval, fmt.Sprint(au.Games), fmt.Sprint(au.Wins), fmt.Sprint(au.Losses), fmt.Sprint(au.Ties), fmt.Sprint(au.Group))
		}
		b.WriteString(t.Render() + "\n")
	}
	if len(rep.Skipped) > 0 {
		b.WriteString("\nSKIPPED\n")
		for _, s := range rep.Skipped {
			fmt.Fprintf(&b, "%s: %s\n", trust.Text(s.Path), trust.Text(s.Why))
		}
	}
	return b.String()
}

func kinds(s stats.SeatFigure) string {
	var parts []string
	for _, k := range s.ByKind {
		parts = append(parts, fmt.Sprintf("%s %d", k.Kind, k.Count))
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, ", ")
}

func tokens(s stats.SeatFigure) string {
	if s.TokensReported == 0 {
		return "not reported"
	}
	out := fmt.Sprintf("%d · %d", s.TokensIn, s.TokensOut)
	if s.TokensReported < s.Replies {
		out += fmt.Sprintf(" (%d of %d replies)", s.TokensReported, s.Replies)
	}
	return out
}

func cost(s stats.SeatFigure) string {
	if s.CostReported == 0 {
		return "not reported"
	}
	out := engine.USD4(s.CostUSD)
	if s.CostReported < s.Replies {
		out += fmt.Sprintf(" (%d of %d replies)", s.CostReported, s.Replies)
	}
	return out
}

// rateChart is one figure of every model as horizontal bars from 0 to
// 1 (ntcharts), each model's value and count written after the chart.
type rateChart struct {
	title string
	what  string // how it reads: "lower is better"
	get   func(m stats.Model) (stats.Figure, string)
}

// statsChart is the report drawn for a terminal: a bar chart per rate
// with every model's bar, sparklines of each model's flip rate run by run
// and its latencies, and the ratings as bars with their intervals.
func statsChart(rep stats.Report, r *lipgloss.Renderer, width int) string {
	th := chartTheme{
		title: r.NewStyle().Bold(true).Foreground(lipgloss.Color("12")),
		dim:   r.NewStyle().Faint(true),
		bar:   r.NewStyle().Foreground(lipgloss.Color("10")),
		warn:  r.NewStyle().Foreground(lipgloss.Color("11")),
	}
	width = max(min(width, 120), 60)
	th.width = width
	var b strings.Builder
	b.WriteString(ansi.Wordwrap(th.dim.Render(trust.Text(strings.TrimSpace(statsHeader(rep)))), width, "") + "\n")
	if len(rep.Models) == 0 {
		b.WriteString("No model has taken part in these runs.\n")
		return b.String()
	}
	nameW := 0
	for _, m := range rep.Models {
		nameW = max(nameW, lipgloss.Width(trust.Text(m.Name)))
	}
	barW := max(width-nameW-34, 10)
	for _, c := range rateCharts {
		b.WriteString(c.draw(rep.Models, th, nameW, barW))
	}
	b.WriteString("\n" + th.title.Render("Other figures") + "\n")
	for _, m := range rep.Models {
		j := m.Judge
		b.WriteString(th.flow(fmt.Sprintf("%-*s  ", nameW, trust.Text(m.Name)), " · ",
			"self-pref "+cell(j.SelfPreference, "%+.2f"), "family-pref "+cell(j.FamilySelfPreference, "%+.2f"),
			"length r "+cell(j.LengthCorrelation, "%+.2f"), "panel Δ "+cell(j.PanelDifference, "%.2f")))
	}
	b.WriteString(trustChart(rep, th))
	b.WriteString(seatChart(rep.Models, th, nameW, width))
	if len(rep.Authors) > 0 {
		b.WriteString(authorChart(rep.Authors, th, width))
	}
	return b.String()
}

// chartTheme are the styles of the stats chart, and its width.
type chartTheme struct {
	title, dim, bar, warn lipgloss.Style
	width                 int
}

// heading is a section's title and what its figures are, the words
// wrapped at the chart's width.
func (th chartTheme) heading(title, what string) string {
	return "\n" + ansi.Wordwrap(th.title.Render(title)+th.dim.Render(" — "+what), th.width, "") + "\n"
}

// flow lays cells out after head, sep between them, in lines of at most
// the chart's width: a cell that would pass the edge starts the next
// line, under the first. A line breaks between cells, never inside one
// ("p95 14.2s (n=22)" broke after "(n=" at 80 columns).
func (th chartTheme) flow(head, sep string, cells ...string) string {
	var b strings.Builder
	b.WriteString(head)
	col := lipgloss.Width(head)
	for i, c := range cells {
		w := lipgloss.Width(c)
		switch {
		case i == 0:
		case col+lipgloss.Width(sep)+w > th.width:
			b.WriteString("\n" + strings.Repeat(" ", lipgloss.Width(head)))
			col = lipgloss.Width(head)
		default:
			b.WriteString(sep)
			col += lipgloss.Width(sep)
		}
		b.WriteString(c)
		col += w
	}
	return b.String() + "\n"
}

// rateCharts are the rates statsChart draws, in order.
var rateCharts = []rateChart{
	{"Flip rate", "the share of its preferences that changed with the order; 0 is best", func(m stats.Model) (stats.Figure, string) { return m.Judge.FlipRate, "" }},
	{"First shown", "how often it picked the candidate shown first", func(m stats.Model) (stats.Figure, string) {
		f := m.Judge.FirstShown
		if f.Shown {
			return f, fmt.Sprintf(" chance %.2f", m.Judge.FirstShownChance)
		}
		return f, ""
	}},
	{"Panel α", "Krippendorff's alpha against the other judges' mean; 1 is full agreement", func(m stats.Model) (stats.Figure, string) { return m.Judge.PanelAlpha, "" }},
	{"Conformity", "the share of its moves in debates with no new evidence", func(m stats.Model) (stats.Figure, string) { return m.Judge.Conformity, "" }},
}

// draw is the chart's title and a bar of barW columns for every model,
// its name in nameW, with its value and count after it; "" when no
// model has the figure.
func (c rateChart) draw(models []stats.Model, th chartTheme, nameW, barW int) string {
	var data []barchart.BarData
	var notes []string
	any := false
	for _, m := range models {
		f, extra := c.get(m)
		name := trust.Text(m.Name)
		v := 0.0
		if f.Shown {
			v, any = math.Max(f.Value, 0), true
			notes = append(notes, fmt.Sprintf("%.2f n=%d%s", f.Value, f.N, extra))
		} else {
			notes = append(notes, th.dim.Render(fmt.Sprintf("— n=%d", f.N)))
		}
		data = append(data, barchart.BarData{Label: name, Values: []barchart.BarValue{{Name: name, Value: v, Style: th.bar}}})
	}
	if !any {
		return ""
	}
	var b strings.Builder
	b.WriteString(th.heading(c.title, c.what))
	bc := barchart.New(nameW+1+barW, len(data), barchart.WithHorizontalBars(), barchart.WithMaxValue(1), barchart.WithNoAutoMaxValue(),
		barchart.WithBarGap(0), barchart.WithBarWidth(1), barchart.WithDataSet(data), barchart.WithStyles(th.dim, th.dim))
	// The labels' width is known once the data is in: lay it out
	// again so the axis starts after the longest name.
	bc.Resize(nameW+1+barW, len(data))
	bc.Draw()
	lines := strings.Split(bc.View(), "\n")
	for i, l := range lines {
		if i < len(notes) {
			l += "  " + notes[i]
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// seatChart is the "As a seat" section: for every model, sparklines of
// its flip rate run by run and of its latencies, and its calls, failures,
// tokens and cost.
func seatChart(models []stats.Model, th chartTheme, nameW, width int) string {
	var b strings.Builder
	b.WriteString(th.heading("As a seat", "sparklines, oldest first: its flip rate in each run asked in several orders, and each reply's latency"))
	sparkW := max(min(width-nameW-40, 60), 8)
	for _, m := range models {
		flips := "—"
		if len(m.Judge.FlipRateByRun) > 0 {
			flips = spark(m.Judge.FlipRateByRun, min(sparkW/2, len(m.Judge.FlipRateByRun)), 1, th.warn)
		}
		lat := "—"
		if n := len(m.Seat.Latencies); n > 0 {
			mx := 0.0
			for _, v := range m.Seat.Latencies {
				mx = math.Max(mx, v)
			}
			lat = spark(m.Seat.Latencies, min(sparkW, n), mx, th.bar)
		}
		s := m.Seat
		b.WriteString(th.flow(fmt.Sprintf("%-*s  ", nameW, trust.Text(m.Name)), "  ",
			"flips "+flips, "latency "+lat, "p50 "+cell(s.LatencyP50, "%.1fs"), "p95 "+cell(s.LatencyP95, "%.1fs")))
		b.WriteString(th.flow(strings.Repeat(" ", nameW+2), th.dim.Render(" · "),
			th.dim.Render(fmt.Sprintf("%d calls, %d failed (%s), %d repair requests", s.Calls, s.Failures, kinds(s), s.Repairs)),
			th.dim.Render("tokens "+tokens(s)), th.dim.Render("cost "+cost(s))))
	}
	return b.String()
}

// authorChart is the "As an author" section: every author's rating as a
// dot on a line spanning its 95% interval, all on one scale, or its
// games alone when it has no rating to show.
func authorChart(authors []stats.Author, th chartTheme, width int) string {
	var b strings.Builder
	b.WriteString(th.heading("As an author", "Bradley–Terry rating, 95% interval; 1000 is the group's mean"))
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, au := range authors {
		if au.Shown {
			lo, hi = math.Min(lo, au.Low), math.Max(hi, au.High)
		}
	}
	aw := 0
	for _, au := range authors {
		aw = max(aw, lipgloss.Width(trust.Text(au.Name)))
	}
	span := max(width-aw-40, 10)
	for _, au := range authors {
		line := th.dim.Render(fmt.Sprintf("— (%d games)", au.Games))
		if au.Shown && hi > lo {
			at := func(v float64) int { return int(math.Round((v - lo) / (hi - lo) * float64(span-1))) }
			row := []rune(strings.Repeat(" ", span))
			for x := at(au.Low); x <= at(au.High); x++ {
				row[x] = '─'
			}
			row[at(au.Rating)] = '●'
			line = th.bar.Render(string(row)) + fmt.Sprintf("  %.0f (%.0f–%.0f), %d games: %d–%d–%d", au.Rating, au.Low, au.High, au.Games, au.Wins, au.Losses, au.Ties)
		}
		fmt.Fprintf(&b, "%-*s  %s\n", aw, trust.Text(au.Name), line)
	}
	return b.String()
}

// spark draws values as a one-line sparkline of w columns (ntcharts),
// the latest w values.
func spark(values []float64, w int, maxV float64, st lipgloss.Style) string {
	if len(values) > w {
		values = values[len(values)-w:]
	}
	maxV = math.Max(maxV, 1e-9)
	sl := sparkline.New(w, 1, sparkline.WithMaxValue(maxV), sparkline.WithNoAutoMaxValue(), sparkline.WithStyle(st))
	for _, v := range values {
		// A floor of one eighth, so a 0 still shows as the lowest block
		// rather than as nothing.
		sl.Push(maxV/8 + v*7/8)
	}
	sl.Draw()
	return sl.View()
}
