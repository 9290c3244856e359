package plain

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/arenadebate/arena/challengers/trust"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// Logs is `arena logs`'s listing of the runs saved in dir, newest first
// as given, laid out for out: its terminal's width when it is one, else
// 80 columns. The colours are its terminal's too.
func Logs(dir string, logs []runlog.Summary, out io.Writer) string {
	return LogsAt(dir, logs, out, outputWidth(out))
}

// LogsAt is Logs at width columns: a table when its rows fit, else a
// block of three lines per run, none wider than width (issue 32, point 6:
// the table was 234 columns wide, unreadable at 80).
func LogsAt(dir string, logs []runlog.Summary, out io.Writer, width int) string {
	if len(logs) == 0 {
		return fmt.Sprintf("No saved debates in %s.\n", dir)
	}
	if table := logsTable(out, logRows(logs)) + "\n"; lipgloss.Width(table) <= width {
		return table
	}
	return logBlocks(logs, width)
}

// logBlocks are the runs in three lines each, none wider than width.
func logBlocks(logs []runlog.Summary, width int) string {
	var b strings.Builder
	for _, l := range logs {
		head := fmt.Sprintf("%s  %s · %s", logDate(l, "2006-01-02 15:04"), engine.OrDash(l.Protocol), logResult(l))
		if topic := engine.OneLine(l.Topic, 0); topic != "" {
			head += " · " + topic
		}
		facts := logFacts(l)
		b.WriteString(ansi.Truncate(trust.Text(head), width, "…") + "\n")
		b.WriteString(ansi.Truncate(trust.Text("  "+strings.Join(facts, " · ")), width, "…") + "\n")
		b.WriteString(trust.Text("  "+l.Path) + "\n")
	}
	return b.String()
}

var logsHeader = []string{"DATE", "PROTOCOL", "OUTCOME", "ROUNDS", "TOOK", "TOKENS", "AGENTS", "TOPIC", "LOG"}

// logRows are the cells of the table's rows, cleaned.
func logRows(logs []runlog.Summary) [][]string {
	rows := make([][]string, 0, len(logs))
	for _, l := range logs {
		row := []string{logDate(l, time.DateTime), engine.OrDash(l.Protocol), logResult(l), fmt.Sprint(l.Rounds), logTook(l), l.Usage.Tokens(), strings.Join(l.Agents(), ","), engine.OneLine(l.Topic, 50), l.Path}
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

// logFacts are a run's rounds, time, tokens and agents, as far as known.
func logFacts(l runlog.Summary) []string {
	var facts []string
	if l.Rounds > 0 {
		facts = append(facts, engine.Plural(l.Rounds, "round"))
	}
	if l.Took > 0 {
		facts = append(facts, logTook(l))
	}
	if tokens := l.Usage.Tokens(); tokens == "not reported" {
		facts = append(facts, "tokens not reported")
	} else {
		facts = append(facts, tokens)
	}
	if agents := l.Agents(); len(agents) > 0 {
		facts = append(facts, strings.Join(agents, ", "))
	}
	return facts
}

// outputWidth is the width of out's terminal; when it is none, $COLUMNS
// (as ls and git take it), else 80.
func outputWidth(out io.Writer) int {
	if f, ok := out.(*os.File); ok {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	if w, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && w > 0 {
		return w
	}
	return 80
}

func logDate(l runlog.Summary, layout string) string {
	if l.Started.IsZero() {
		return "?"
	}
	return l.Started.Local().Format(layout)
}

// logResult is a saved run's outcome, or that it is being written, or
// that it cannot be read. A run whose outcome is in while its arena still
// holds the log (the live screen left open on the outcome, where f can
// still ask a follow-up) is finished: it was listed "running", and a
// newcomer took a comparison done minutes before for one still going.
func logResult(l runlog.Summary) string {
	switch {
	case l.Problem != "" && l.Started.IsZero():
		return "unreadable"
	case l.Writing && l.Result != "":
		return ResultWords(l) + " (still open in " + strings.TrimPrefix(writer(l.WriterPID), "(")
	case l.Writing:
		return "running " + writer(l.WriterPID)
	}
	return ResultWords(l)
}

func logTook(l runlog.Summary) string {
	if l.Took > 0 {
		return l.Took.Round(time.Second).String()
	}
	return "—"
}

// logsPage is how many logs arena logs reads and prints at a time.
const logsPage = 100

// LogsPaged writes n logs to w, as Logs lays them out (or as LogsJSON
// writes them, with asJSON), a page at a time, reading log i (summary)
// only when its page is due: the first rows come at once however many
// logs the directory holds (issue 29: 3.2-3.6 s to the first line over
// 10,000 logs). A table's later pages are aligned with the first, under
// its one header; a page's logs are handed to done once written.
func LogsPaged(w io.Writer, dir string, n int, summary func(int) runlog.Summary, asJSON bool, done func([]runlog.Summary)) error {
	if n == 0 && !asJSON {
		_, err := io.WriteString(w, Logs(dir, nil, w))
		return err
	}
	p := logPager{out: w, width: outputWidth(w)}
	for start := 0; start < n; start += logsPage {
		page := make([]runlog.Summary, 0, min(logsPage, n-start))
		for i := start; i < start+cap(page); i++ {
			page = append(page, summary(i))
		}
		text, err := p.page(page, asJSON)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(w, text); err != nil {
			return err
		}
		done(page)
	}
	return nil
}

// logPager lays out the pages of a listing: the first decides whether it
// is a table, and the table's column widths.
type logPager struct {
	out    io.Writer
	width  int
	widths []int // the table's, once its first page was laid out
	blocks bool  // the first page did not fit as a table
}

func (p *logPager) page(page []runlog.Summary, asJSON bool) (string, error) {
	switch {
	case asJSON:
		b, err := LogsJSON(page)
		return string(b), err
	case p.blocks:
		return logBlocks(page, p.width), nil
	case p.widths == nil:
		rows := logRows(page)
		table := logsTable(p.out, rows) + "\n"
		if lipgloss.Width(table) > p.width {
			p.blocks = true
			return logBlocks(page, p.width), nil
		}
		p.widths = columnWidths(rows)
		return table, nil
	}
	rows := logRows(page)
	padRows(rows, p.widths)
	_, text, _ := strings.Cut(logsTable(p.out, rows)+"\n", "\n") // the header, said once
	return text, nil
}

// LogJSON is one saved run as `arena logs --json` prints it, a line each.
type LogJSON struct {
	Path      string    `json:"path"`
	Started   time.Time `json:"started,omitzero"`
	Protocol  string    `json:"protocol,omitempty"`
	Topic     string    `json:"topic,omitempty"`
	Result    string    `json:"result"` // the outcome (writer_pid set: its arena still has it open), "unfinished", "running" or "unreadable"
	Rounds    int       `json:"rounds"`
	TookMS    int64     `json:"took_ms"`
	TokensIn  int64     `json:"tokens_in"`
	TokensOut int64     `json:"tokens_out"`
	Agents    []string  `json:"agents"`
	Problem   string    `json:"problem,omitempty"` // what is wrong with the log
	WriterPID int       `json:"writer_pid,omitempty"`
}

// LogsJSON is the runs as JSON Lines, an object each.
func LogsJSON(logs []runlog.Summary) ([]byte, error) {
	var b bytes.Buffer
	for _, l := range logs {
		result := logResult(l)
		if l.Writing {
			result = "running"
			if l.Result != "" {
				result = ResultWords(l) // finished; writer_pid says it is still open
			}
		}
		line, err := trust.JSON(LogJSON{
			Path: l.Path, Started: l.Started, Protocol: l.Protocol, Topic: l.Topic, Result: result,
			Rounds: l.Rounds, TookMS: l.Took.Milliseconds(), TokensIn: l.Usage.InputTokens, TokensOut: l.Usage.OutputTokens,
			Agents: append([]string{}, l.Agents()...), Problem: LogProblems(l), WriterPID: l.WriterPID,
		})
		if err != nil {
			return nil, err
		}
		b.Write(append(line, '\n'))
	}
	return b.Bytes(), nil
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
