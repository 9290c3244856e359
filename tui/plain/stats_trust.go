package plain

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine/stats"
)

// The figures of `arena stats` with their intervals, beside what the
// literature reports for the same figure; the debate ledger across runs;
// the shadow escalation gate.

// The literature's figures the report is read against.
const (
	// mtBench is Zheng et al. 2023, Table 2: GPT-4 as a pairwise judge.
	mtBench = "GPT-4 in MT-Bench"
	// coinFlip is "The Coin Flip Judge?" (arXiv 2606.13685): preferences
	// that flip on an identical re-run.
	coinFlip = "13.6% flip on a re-run (Coin Flip Judge)"
)

// trustRow is one figure of a judge, named, with what it is read beside.
type trustRow struct {
	name   string
	f      stats.Figure
	format string
	beside string
	always bool // shown even when nothing was counted
}

// trustRows are a model's figures, in the order a reader weighs them.
func trustRows(m stats.Model) []trustRow {
	j := m.Judge
	rows := []trustRow{
		{name: "flip rate, all orders pooled", f: j.FlipRate, format: "%.2f", always: true},
	}
	for _, o := range j.FlipRateByOrders {
		label := fmt.Sprintf("flip rate, %d orders", o.Orders)
		if o.Orders >= 4 {
			label = "flip rate, 4 or more orders"
		}
		rows = append(rows, trustRow{name: label, f: o.FlipRate, format: "%.2f"})
	}
	rows = append(rows,
		trustRow{name: "MT-Bench consistency", f: j.Swap.Consistency, format: "%.2f", beside: mtBench + " 0.65", always: true},
		trustRow{name: "  biased toward first", f: j.Swap.FirstPosition, format: "%.2f", beside: mtBench + " 0.30"},
		trustRow{name: "  biased toward second", f: j.Swap.SecondPosition, format: "%.2f", beside: mtBench + " 0.05"},
		trustRow{name: "  a tie in one order only", f: j.Swap.Other, format: "%.2f", beside: "no MT-Bench column"},
		trustRow{name: "first shown picked", f: j.FirstShown, format: "%.2f", beside: fmt.Sprintf("chance %.2f", j.FirstShownChance), always: true},
	)
	for _, g := range j.ByGap {
		rows = append(rows,
			trustRow{name: "flip rate, score gap " + g.Gap, f: g.FlipRate, format: "%.2f"},
			trustRow{name: "first preferred, gap " + g.Gap, f: g.FirstPreferred, format: "%.2f", beside: "chance 0.50"})
	}
	rows = append(rows,
		trustRow{name: "repeat stability", f: j.Repeats.Stability, format: "%.2f"},
		trustRow{name: "repeat flip rate", f: j.Repeats.FlipRate, format: "%.2f", beside: coinFlip},
		trustRow{name: "flip rate net of repeats", f: j.Repeats.NetFlipRate, format: "%+.2f"},
		trustRow{name: "panel Δ", f: j.PanelDifference, format: "%.2f"},
		trustRow{name: "panel α", f: j.PanelAlpha, format: "%.2f"},
		trustRow{name: "self-preference", f: j.SelfPreference, format: "%+.2f"},
		trustRow{name: "family self-preference", f: j.FamilySelfPreference, format: "%+.2f"},
		trustRow{name: "length r", f: j.LengthCorrelation, format: "%+.2f"},
		trustRow{name: "conformity", f: j.Conformity, format: "%.2f"},
	)
	for _, k := range []struct {
		kind string
		a    stats.Agreement
	}{{"winner", j.Person.Winner}, {"verdict", j.Person.Verdict}, {"score", j.Person.Score}} {
		rows = append(rows,
			trustRow{name: "you: κ on the " + k.kind, f: k.a.Kappa, format: "%.2f"},
			trustRow{name: "you: agree on the " + k.kind, f: k.a.Agreement, format: "%.2f"})
	}
	s := m.Seat
	rows = append(rows,
		trustRow{name: "latency p50", f: s.LatencyP50, format: "%.1fs"},
		trustRow{name: "latency p95", f: s.LatencyP95, format: "%.1fs"})
	var out []trustRow
	for _, r := range rows {
		if r.always || r.f.N > 0 {
			out = append(out, r)
		}
	}
	return out
}

// value, interval and count are a figure's cells: "0.83", "0.61–0.94",
// "12 (3 runs)"; "—" and "" when it is not shown.
func value(f stats.Figure, format string) string {
	if !f.Shown {
		return "—"
	}
	return fmt.Sprintf(format, f.Value)
}

func interval(f stats.Figure, format string) string {
	if !f.Shown || f.Interval == "" {
		return ""
	}
	return fmt.Sprintf(format+"–"+format, f.Low, f.High)
}

func count(f stats.Figure) string {
	return fmt.Sprintf("%d (%s)", f.N, plural(f.Runs, "run"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// besideOf is what a row is read beside: the literature's figure, or
// why it is not shown.
func besideOf(r trustRow) string {
	if !r.f.Shown && r.f.Note != "" {
		return r.f.Note
	}
	return r.beside
}

// trustText is the section of the tables: every model's figures with
// their intervals.
func trustText(rep stats.Report, r *lipgloss.Renderer) string {
	var b strings.Builder
	b.WriteString("\nHOW FAR TO TRUST EACH JUDGE (each figure with its 95% interval: Wilson for a rate, a bootstrap over runs otherwise)\n")
	for _, m := range rep.Models {
		rows := trustRows(m)
		if m.Judge.Readings == 0 && m.Judge.Conformity.N == 0 {
			continue // never judged
		}
		b.WriteString("\n" + trust.Text(m.Name) + "\n")
		t := newTable(r, "FIGURE", "VALUE", "95% INTERVAL", "N (RUNS)", "BESIDE")
		for _, row := range rows {
			t.Row(row.name, value(row.f, row.format), interval(row.f, row.format), count(row.f), besideOf(row))
		}
		b.WriteString(t.Render() + "\n")
	}
	b.WriteString(ledgerText(rep.Ledger, r))
	b.WriteString(gateText(rep.Gate, r))
	return b.String()
}

// trustLine is a row as the chart's line: "MT-Bench consistency  0.65
// [0.41–0.84] n=20 · GPT-4 in MT-Bench 0.65", broken between its figure
// and what it is read beside at the chart's width, never inside one.
func trustLine(row trustRow, th chartTheme) string {
	figure := value(row.f, row.format)
	if iv := interval(row.f, row.format); iv != "" {
		figure += " [" + iv + "]"
	}
	figure += fmt.Sprintf(" n=%d", row.f.N)
	cells := []string{figure}
	if beside := besideOf(row); beside != "" {
		cells = append(cells, th.dim.Render("· "+trust.Text(beside)))
	}
	return th.flow(fmt.Sprintf("  %-30s ", trust.Text(row.name)), " ", cells...)
}

// trustChart is the chart's section of every model's figures with their
// intervals, the ledger and the gate.
func trustChart(rep stats.Report, th chartTheme) string {
	var b strings.Builder
	b.WriteString(th.heading("How far to trust each judge", "95% intervals: Wilson for a rate, a bootstrap over runs otherwise"))
	for _, m := range rep.Models {
		if m.Judge.Readings == 0 && m.Judge.Conformity.N == 0 {
			continue
		}
		b.WriteString(trust.Text(m.Name) + "\n")
		for _, row := range trustRows(m) {
			b.WriteString(trustLine(row, th))
		}
	}
	if len(rep.Ledger) > 0 {
		b.WriteString("\n" + th.title.Render("The debates against their plain votes") + "\n")
		for _, l := range rep.Ledger {
			for _, row := range ledgerRows(l) {
				b.WriteString(trustLine(row, th))
			}
		}
	}
	if g := rep.Gate; g != nil {
		b.WriteString(th.heading("Shadow escalation gate", "learned from your verdicts; decides nothing"))
		for _, l := range gateLines(*g) {
			l = trust.Text(l)
			indent := len(l) - len(strings.TrimLeft(l, " "))
			b.WriteString(th.flow("  "+l[:indent], " ", strings.Fields(l)...)) // its words, wrapped
		}
	}
	return b.String()
}

// ledgerRows are a protocol's debates against its votes, as rows.
func ledgerRows(l stats.LedgerFigure) []trustRow {
	return []trustRow{
		{name: l.Protocol + ": changed the vote's result", f: l.Changed, format: "%.2f", always: true},
		{name: l.Protocol + ": the vote matched you", f: l.VoteRight, format: "%.2f", always: true},
		{name: l.Protocol + ": the result matched you", f: l.ResultRight, format: "%.2f", always: true},
		{name: l.Protocol + ": a change was right", f: l.ChangeRight, format: "%.2f", always: true,
			beside: fmt.Sprintf("%d right, %d wrong, %d neither", l.ChangedRight, l.ChangedWrong, l.ChangedNeither)},
	}
}

// ledgerText is the ledger across runs as a table.
func ledgerText(ls []stats.LedgerFigure, r *lipgloss.Renderer) string {
	if len(ls) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nTHE DEBATES AGAINST THEIR PLAIN VOTES (the ledger, across runs; right: it matched your verdict)\n")
	t := newTable(r, "FIGURE", "VALUE", "95% INTERVAL", "N (RUNS)", "BESIDE")
	for _, l := range ls {
		for _, row := range ledgerRows(l) {
			t.Row(row.name, value(row.f, row.format), interval(row.f, row.format), count(row.f), besideOf(row))
		}
	}
	b.WriteString(t.Render() + "\n")
	return b.String()
}

// gateLines are the shadow gate's account in lines.
func gateLines(g stats.GateFigure) []string {
	lines := []string{fmt.Sprintf("labelled verdict runs the rules decided: %d right, %d wrong (%d of each needed)", g.Right, g.Wrong, g.Needed)}
	if !g.Shown {
		return append(lines, g.Note)
	}
	f := func(name string, x stats.Figure) string {
		s := fmt.Sprintf("%s %s n=%d", name, value(x, "%.2f"), x.N)
		if iv := interval(x, "%.2f"); iv != "" {
			s += " [" + iv + "]"
		}
		if !x.Shown && x.Note != "" {
			s += " (" + x.Note + ")"
		}
		return s
	}
	lines = append(lines,
		f("leave-one-out AUROC", g.AUROC),
		f("of the rules' wrong decisions it would have escalated", g.Caught),
		f("of their right ones it would have escalated", g.FalseAlarms),
		fmt.Sprintf("of %d decided runs it would have escalated %d more (it never accepts what the rules escalate):", g.Decided, len(g.WouldEscalate)))
	for _, p := range g.WouldEscalate {
		lines = append(lines, "  "+p)
	}
	return lines
}

// gateText is the shadow gate's section of the tables; "" when it is off.
func gateText(g *stats.GateFigure, _ *lipgloss.Renderer) string {
	if g == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nSHADOW ESCALATION GATE (learned from your verdicts; decides nothing)\n")
	for _, l := range gateLines(*g) {
		b.WriteString(trust.Text(l) + "\n")
	}
	return b.String()
}
