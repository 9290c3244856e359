package plain

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/arenadebate/arena/engine/stats"
)

// Every figure with its interval and count, beside the literature's; the
// gate only when it is on, and no escape from a log's path reaches the
// terminal.
func TestStatsShowIntervalsBesideTheLiterature(t *testing.T) {
	colourless(t)
	rep := renderReport()
	fig := func(v, lo, hi float64, n int) stats.Figure {
		return stats.Figure{Value: v, Low: lo, High: hi, N: n, Runs: 7, Shown: true, Interval: stats.IntervalWilson}
	}
	j := &rep.Models[0].Judge
	j.Swap = stats.SwapFigure{Consistency: fig(0.6, 0.41, 0.84, 20), FirstPosition: fig(0.3, 0.1, 0.5, 20)}
	j.Repeats.NetFlipRate = stats.Figure{N: 3, Runs: 2, Note: "too few runs: 2, 5 needed to resample"}
	j.Person.Verdict.Kappa = fig(0.55, 0.2, 0.8, 12)
	rep.Ledger = []stats.LedgerFigure{{Protocol: "judge", Debates: 9, Changed: fig(0.33, 0.12, 0.65, 9), ChangedRight: 2, ChangedWrong: 1}}
	plain := lipgloss.NewRenderer(io.Discard)
	text, chart := statsText(rep, plain), statsChart(rep, plain, 100)
	for _, w := range []string{"MT-Bench consistency", "0.60", "0.41–0.84", "20 (7 runs)", "GPT-4 in MT-Bench 0.65", "GPT-4 in MT-Bench 0.30",
		"you: κ on the verdict", "too few runs: 2, 5 needed to resample", "judge: changed the vote's result", "2 right, 1 wrong, 0 neither"} {
		if !strings.Contains(text, w) {
			t.Errorf("the tables lack %q:\n%s", w, text)
		}
	}
	if !strings.Contains(chart, "MT-Bench consistency") || !strings.Contains(chart, "0.60 [0.41–0.84] n=20") {
		t.Errorf("the chart lacks the interval:\n%s", chart)
	}
	if strings.Contains(text, "SHADOW") || strings.Contains(chart, "Shadow") {
		t.Error("the gate was shown while off")
	}
	rep.Gate = &stats.GateFigure{Needed: 30, Right: 31, Wrong: 30, Shown: true, AUROC: fig(0.8, 0.7, 0.9, 61),
		Decided: 70, WouldEscalate: []string{"logs/evil\x1b]0;PWNED\x07.jsonl"}}
	text, chart = statsText(rep, plain), statsChart(rep, plain, 100)
	for name, out := range map[string]string{"text": text, "chart": chart} {
		if !strings.Contains(out, "leave-one-out AUROC 0.80 n=61 [0.70–0.90]") || !strings.Contains(out, "logs/evil") {
			t.Errorf("the %s lacks the gate:\n%s", name, out)
		}
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("the %s holds an escape", name)
		}
	}
}
