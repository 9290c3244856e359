package plain

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// Logs is `arena logs`'s table of the runs saved in dir, newest first as
// given. out is where it will be written: its terminal, if it is one,
// decides the colours.
func Logs(dir string, logs []runlog.Summary, out io.Writer) string {
	if len(logs) == 0 {
		return fmt.Sprintf("No saved debates in %s.\n", dir)
	}
	t := newTable(lipgloss.NewRenderer(out), "DATE", "PROTOCOL", "OUTCOME", "ROUNDS", "TOOK", "TOKENS", "AGENTS", "TOPIC", "LOG")
	for _, l := range logs {
		date := "?"
		if !l.Started.IsZero() {
			date = l.Started.Local().Format(time.DateTime)
		}
		result := ResultWords(l)
		switch {
		case l.Problem != "" && l.Started.IsZero():
			result = "unreadable"
		case l.Writing:
			result = "running " + writer(l.WriterPID)
		}
		took := "—"
		if l.Took > 0 {
			took = l.Took.Round(time.Second).String()
		}
		t.Row(date, engine.OrDash(l.Protocol), result, fmt.Sprint(l.Rounds), took, l.Usage.Tokens(), strings.Join(l.Agents(), ","), engine.OneLine(l.Topic, 50), l.Path)
	}
	return t.Render() + "\n"
}

// LogProblems is what is wrong with a saved log, in a line; "" when
// nothing is. The line quotes the log: clean it before it is shown.
func LogProblems(l runlog.Summary) string {
	var what []string
	if l.Problem != "" {
		what = append(what, l.Problem)
	}
	what = append(what, listed(l.Sequence, 3, func(q string) string { return "event numbers: " + q }, "breaks in the event numbers")...)
	if l.Contradiction != "" {
		what = append(what, l.Contradiction+"; listed as the run its first start began")
	}
	return strings.Join(what, "; ")
}

// ResultWords is a saved run's outcome, in a word.
func ResultWords(s runlog.Summary) string {
	if s.Result == "" {
		return "unfinished"
	}
	return string(s.Result)
}

// EndNote says what is wrong with a log, if anything: the lines that are
// damaged (each skipped, what follows replayed), gaps and repeats in its
// event numbers, where a log without an outcome stops, and whether an
// arena is writing it now.
func EndNote(lc runlog.Contents) string {
	var notes []string
	last := lc.Count
	damage := lc.Damage
	if lc.DamagedEnd() && !lc.Complete {
		damage = nil
		notes = append(notes, fmt.Sprintf("the log ends early: %s; replayed up to event %d, the last complete one", lc.Damage[0], last))
	}
	notes = append(notes, listed(damage, 5, func(d runlog.LineDamage) string {
		return fmt.Sprintf("the log is damaged: %s; that line was skipped, the events around it replayed", d)
	}, "damaged lines")...)
	notes = append(notes, listed(lc.Sequence, 5, func(q string) string { return "the log's event numbers are broken: " + q }, "breaks in the event numbers")...)
	if c := lc.Contradiction(); c != "" {
		notes = append(notes, c+"; replayed as the run its first start began")
	}
	if !lc.Complete && len(notes) == 0 {
		notes = append(notes, fmt.Sprintf("the log ends after event %d without an outcome: the debate was cut short", last))
	}
	if lc.Writing {
		notes = append(notes, "an arena "+writer(lc.WriterPID)+" is writing this log now: what it held when read was replayed")
	}
	return strings.Join(notes, "; ")
}

// listed words at most n of xs, and how many more there are.
func listed[T any](xs []T, n int, word func(T) string, more string) []string {
	var out []string
	for i, x := range xs {
		if i == n {
			out = append(out, fmt.Sprintf("and %d more %s", len(xs)-n, more))
			break
		}
		out = append(out, word(x))
	}
	return out
}

// writer names the process writing a log.
func writer(pid int) string {
	if pid > 0 {
		return fmt.Sprintf("(process %d)", pid)
	}
	return "(process unknown)"
}
