package plain

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/arenadebate/arena/engine/stats"
)

// colourless keeps the environment from forcing colours on the writers a
// test renders for (CLICOLOR_FORCE colours even a pipe).
func colourless(t *testing.T) {
	t.Setenv("CLICOLOR_FORCE", "")
}

func renderReport() stats.Report {
	return stats.Report{Logs: 3, Runs: 3, MinCases: 5, MinP95: 20, Models: []stats.Model{
		{Name: "claude", Judge: stats.JudgeFigure{Readings: 12,
			FlipRate:   stats.Figure{Value: 0.9, N: 10, Shown: true},
			FirstShown: stats.Figure{Value: 1, N: 12, Shown: true}, FirstShownChance: 0.5,
			FlipRateByRun: []float64{1, 0.5, 1},
			PanelAlpha:    stats.Figure{N: 2, Note: "fewer than 5 cases"}},
			Seat: stats.SeatFigure{Calls: 3, Replies: 3, Latencies: []float64{1, 2, 3}, LatencyP50: stats.Figure{N: 3}}},
		{Name: "evil\x1b]0;PWNED\x07name", Judge: stats.JudgeFigure{FlipRate: stats.Figure{Value: 0, N: 6, Shown: true}}},
	}, Authors: []stats.Author{
		{Name: "codex", Rating: 1100, Low: 1000, High: 1200, Games: 6, Shown: true, Group: 1},
		{Name: "gemini", Rating: 900, Low: 800, High: 1000, Games: 6, Shown: true, Group: 1},
	}}
}

// The terminal view draws bars, sparklines and the ratings' intervals;
// the pipe view prints tables. Neither lets a name from a log reach the
// terminal as an escape sequence.
func TestStatsViews(t *testing.T) {
	colourless(t)
	rep := renderReport()
	plain := lipgloss.NewRenderer(io.Discard)
	chart := statsChart(rep, plain, 100)
	for _, w := range []string{"Flip rate", "claude  │", "0.90 n=10", "1.00 n=12 chance 0.50", "█", "evilname│", "— n=0", "flips █▅█", "As an author", "●", "1100 (1000–1200), 6 games"} {
		if !strings.Contains(chart, w) {
			t.Errorf("the chart lacks %q:\n%s", w, chart)
		}
	}
	text := statsText(rep, plain)
	for _, w := range []string{"AS A JUDGE", "0.90 (n=10)", "1.00 (n=12; 0.50)", "— (n=2)", "AS AN AUTHOR", "1000–1200"} {
		if !strings.Contains(text, w) {
			t.Errorf("the tables lack %q:\n%s", w, text)
		}
	}
	for name, out := range map[string]string{"chart": chart, "text": text} {
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("the %s holds an escape: %q", name, out)
		}
	}
	// In colour, every escape is one of arena's own styles (CSI ... m).
	colour := lipgloss.NewRenderer(io.Discard)
	colour.SetColorProfile(termenv.ANSI256)
	if out := statsChart(rep, colour, 100); strings.Contains(out, "\x1b]") || strings.Contains(out, "PWNED\x07") {
		t.Errorf("an OSC sequence from a log reached the chart: %q", out)
	}
}

// On a terminal 80 columns wide, every line of the chart fits: a row
// too long for it breaks between its cells, never inside one (a
// terminal broke "p95 14.2s (n=22)" after "(n="), and a heading reads as
// a title and what it shows (issue 40, item 9).
func TestStatsChartBreaksBetweenCells(t *testing.T) {
	colourless(t)
	rep := renderReport()
	lat := make([]float64, 22)
	for i := range lat {
		lat[i] = float64(i%7) + 1.5
	}
	rep.Models[0].Judge.SelfPreference = stats.Figure{Value: 0.12, N: 22, Shown: true}
	rep.Models[0].Judge.FamilySelfPreference = stats.Figure{Value: -0.05, N: 22, Shown: true}
	rep.Models[0].Judge.LengthCorrelation = stats.Figure{Value: 0.31, N: 22, Shown: true}
	rep.Models[0].Judge.PanelDifference = stats.Figure{Value: 0.4, N: 22, Shown: true}
	rep.Models[0].Seat = stats.SeatFigure{Calls: 22, Replies: 22, Failures: 2, Repairs: 1, Latencies: lat,
		LatencyP50: stats.Figure{Value: 4.5, N: 22, Shown: true}, LatencyP95: stats.Figure{Value: 14.2, N: 22, Shown: true},
		ByKind:   []stats.KindCount{{Kind: "timeout", Count: 1}, {Kind: "exit", Count: 1}},
		TokensIn: 123456, TokensOut: 45678, TokensReported: 22, CostUSD: 1.2345, CostReported: 20}
	fig := stats.Figure{Value: 0.6, Low: 0.41, High: 0.84, N: 20, Runs: 7, Shown: true, Interval: stats.IntervalWilson}
	rep.Models[0].Judge.Swap = stats.SwapFigure{Consistency: fig, FirstPosition: fig}
	rep.Ledger = []stats.LedgerFigure{{Protocol: "judge", Debates: 9, Changed: fig, ChangedRight: 2, ChangedWrong: 1}}
	rep.Gate = &stats.GateFigure{Needed: 30, Right: 31, Wrong: 30, Shown: true, AUROC: fig, Decided: 70,
		WouldEscalate: []string{"debate-logs/2026-01-02-a-rather-long-topic-that-goes-on.jsonl"}}
	for _, r := range []*lipgloss.Renderer{lipgloss.NewRenderer(io.Discard), colourRenderer()} {
		chart := statsChart(rep, r, 80)
		for _, l := range strings.Split(chart, "\n") {
			if w := lipgloss.Width(l); w > 80 {
				t.Errorf("a line %d columns wide: %q", w, l)
			}
		}
		p := ansi.Strip(chart)
		for _, whole := range []string{"p95 14.2s (n=22)", "p50 4.5s (n=22)", "self-pref +0.12 (n=22)", "panel Δ 0.40 (n=22)",
			"tokens 123456 · 45678", "cost $1.2345 (20 of 22 replies)", "As a seat — sparklines, oldest first", "Flip rate — the share",
			"0.60 [0.41–0.84] n=20", "How far to trust each judge — 95% intervals", "Shadow escalation gate — learned"} {
			if !strings.Contains(p, whole) {
				t.Errorf("the chart does not hold %q whole:\n%s", whole, p)
			}
		}
	}
}

func colourRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	return r
}
