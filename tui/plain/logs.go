package plain

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/arenadebate/arena/challengers/trust"

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
	return logsTable(out, logRows(logs)) + "\n"
}

// logsPage is how many logs arena logs reads and prints at a time.
const logsPage = 100

// LogsPaged writes Logs's table of n logs to w a page at a time, reading
// log i (summary) only when its page is due: the first rows come at once
// however many logs the directory holds (issue 29: 3.2-3.6 s to the first
// line over 10,000 logs). Later pages are aligned with the first, without
// its header; a page's logs are handed to done once it is written.
func LogsPaged(w io.Writer, dir string, n int, summary func(int) runlog.Summary, done func([]runlog.Summary)) error {
	if n == 0 {
		_, err := io.WriteString(w, Logs(dir, nil, w))
		return err
	}
	var widths []int
	for start := 0; start < n; start += logsPage {
		page := make([]runlog.Summary, 0, min(logsPage, n-start))
		for i := start; i < start+cap(page); i++ {
			page = append(page, summary(i))
		}
		rows := logRows(page)
		if widths == nil {
			widths = columnWidths(rows)
		} else {
			padRows(rows, widths)
		}
		text := logsTable(w, rows) + "\n"
		if start > 0 {
			_, text, _ = strings.Cut(text, "\n") // the header, said once
		}
		if _, err := io.WriteString(w, text); err != nil {
			return err
		}
		done(page)
	}
	return nil
}

var logsHeader = []string{"DATE", "PROTOCOL", "OUTCOME", "ROUNDS", "TOOK", "TOKENS", "AGENTS", "TOPIC", "LOG"}

// logRows are the cells of the table's rows, cleaned.
func logRows(logs []runlog.Summary) [][]string {
	rows := make([][]string, 0, len(logs))
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
		row := []string{date, engine.OrDash(l.Protocol), result, fmt.Sprint(l.Rounds), took, l.Usage.Tokens(), strings.Join(l.Agents(), ","), engine.OneLine(l.Topic, 50), l.Path}
		for i, c := range row {
			row[i] = trust.Text(c)
		}
		rows = append(rows, row)
	}
	return rows
}

func logsTable(out io.Writer, rows [][]string) string {
	t := newTable(lipgloss.NewRenderer(out), logsHeader...)
	for _, r := range rows {
		t.Row(r...)
	}
	return t.Render()
}

// columnWidths are the widest cell of each column, the header's included.
func columnWidths(rows [][]string) []int {
	widths := make([]int, len(logsHeader))
	for i, h := range logsHeader {
		widths[i] = lipgloss.Width(h)
	}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], lipgloss.Width(c))
		}
	}
	return widths
}

// padRows pads each cell to its column's width.
func padRows(rows [][]string, widths []int) {
	for _, r := range rows {
		for i, c := range r {
			if w := lipgloss.Width(c); w < widths[i] {
				r[i] = c + strings.Repeat(" ", widths[i]-w)
			}
		}
	}
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
