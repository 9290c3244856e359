package mcpserver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/engine/runlog"
)

// RunStatus is what a tool says of a run: what it is, what happened so
// far, and once it is over its outcome.
type RunStatus struct {
	RunID    string `json:"run_id" jsonschema:"the run's id: pass it to run_status, cancel_run and read_outcome"`
	Tool     string `json:"tool,omitempty" jsonschema:"the tool that started the run"`
	Protocol string `json:"protocol,omitempty" jsonschema:"the protocol: adversarial, compare, judge, verdict or rank"`
	Title    string `json:"title,omitempty"`
	Topic    string `json:"topic,omitempty" jsonschema:"the topic, decision or task (shortened)"`
	State    string `json:"state" jsonschema:"running, finished, or unfinished (a log without an outcome, of a run this server is not running)"`
	LogPath  string `json:"log_path,omitempty" jsonschema:"the run's log: arena replay, arena resume and arena logs read it"`
	Watch    string `json:"watch,omitempty" jsonschema:"the command a person runs to watch the run live"`
	Elapsed  string `json:"elapsed,omitempty"`
	Phase    string `json:"phase,omitempty" jsonschema:"the phase the run is in"`
	Seats    []Seat `json:"seats,omitempty"`
	// Calls counts the agents' replies so far; CallsFailed their failed
	// calls (a retried call counts each time).
	Calls       int `json:"calls"`
	CallsFailed int `json:"calls_failed"`
	// Budget is where the run's budget stands ("$0.42 of $1.00 · 12 of
	// 30 calls"), when it has one.
	Budget string `json:"budget,omitempty" jsonschema:"what the run has spent of its budget (max_cost, max_calls, max_tokens), when it has one"`
	// Happened is what happened since the cursor the caller passed, a
	// line each; Cursor is what to pass next time.
	Happened []string `json:"happened,omitempty" jsonschema:"what happened since the cursor you passed, oldest first"`
	Cursor   int      `json:"cursor" jsonschema:"pass it as since to run_status to hear only what happens next"`
	Failures []string `json:"failures,omitempty" jsonschema:"calls that failed for good"`
	Notes    []string `json:"notes,omitempty" jsonschema:"warnings of the run, and what the server decided for you (the self-preference guard)"`
	Warnings string   `json:"warnings,omitempty" jsonschema:"what the run printed on stderr"`
	Outcome  *Outcome `json:"outcome,omitempty" jsonschema:"present once the run is over"`
}

// Seat is one seat of a run and how it is doing.
type Seat struct {
	Seat   string `json:"seat"`
	Agent  string `json:"agent"`
	Role   string `json:"role"`
	State  string `json:"state" jsonschema:"waiting, asking, replied or failed"`
	Calls  int    `json:"calls"`
	Fails  int    `json:"fails,omitempty"`
	Latest string `json:"latest,omitempty" jsonschema:"its latest badge, or why its latest call failed"`
}

// Outcome is how a run ended, for an agent to act on.
type Outcome struct {
	Result      string   `json:"result" jsonschema:"the protocol's result: consensus, tradeoff, recommendation, accept, improve, reject, escalate, ranked, interrupted, aborted..."`
	ExitCode    int      `json:"exit_code" jsonschema:"the exit code the command line gives this outcome"`
	ExitMeaning string   `json:"exit_meaning,omitempty" jsonschema:"what that exit code means"`
	Summary     string   `json:"summary"`
	Rounds      int      `json:"rounds,omitempty"`
	Failures    []string `json:"failures,omitempty"`
	// Document is the outcome document's path; its Markdown is the tool
	// result's text, and Content the document itself.
	Document string `json:"document,omitempty" jsonschema:"the outcome document's file"`
	// Content is the outcome document as data, for the hosts that hand
	// their model only the structured result (Claude Code 2.1 and Codex
	// 0.169 give it the structuredContent as JSON, and not the text):
	// without it, the final position, the objections, the judges'
	// reasoning and the improvements never reach the model.
	Content    *doc.Document `json:"content,omitempty" jsonschema:"the outcome document as data (its JSON Schema: docs/outcome.schema.json): the final position, every objection and judge's reasoning, the improvements, the tradeoffs; its longest parts left out when very long (the whole is in document)"`
	ContentCut bool          `json:"content_cut,omitempty" jsonschema:"true when parts of content were left out: read the whole in document"`
	Files      []File        `json:"files,omitempty" jsonschema:"every file the run saved"`
	Tables     []Table       `json:"tables,omitempty" jsonschema:"the latest of each of the run's tables: scores, verdicts, rankings"`
	// Verdict is arena verdict's final record (decision, scores, calls).
	Verdict any    `json:"verdict,omitempty" jsonschema:"arena verdict's final record"`
	Report  any    `json:"report,omitempty" jsonschema:"arena rank's JSON report"`
	Resume  string `json:"resume,omitempty" jsonschema:"the command that carries an interrupted, aborted or over-budget run on (over budget: add a higher max, as the outcome document says)"`
}

// File is a file a run saved.
type File struct {
	What string `json:"what"`
	Path string `json:"path"`
}

// Table is a run's table as it last stood.
type Table struct {
	Title    string     `json:"title"`
	Columns  []string   `json:"columns,omitempty"`
	Rows     [][]string `json:"rows,omitempty"`
	Decision string     `json:"decision,omitempty"`
}

// status is the run's status, with what happened since cursor since.
func (m *Manager) status(r *run, since int) (RunStatus, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	tool := r.tool
	st := RunStatus{
		RunID: r.id, Tool: tool, State: "running", LogPath: r.logPath,
		Elapsed: time.Since(r.started).Round(time.Second).String(),
		Phase:   r.phase, Calls: r.calls, CallsFailed: r.failed, Budget: r.budget,
		Failures: r.failures, Notes: append(append([]string(nil), r.notes...), r.runNotes...),
	}
	if r.logPath != "" {
		st.Watch = "arena replay --follow " + shellQuote(r.logPath)
	}
	if s := r.start; s != nil {
		st.Protocol, st.Title, st.Topic = s.Protocol, s.Title, engine.OneLine(s.Topic, 200)
	}
	for _, s := range r.seats {
		st.Seats = append(st.Seats, Seat{Seat: s.seat.Name, Agent: s.seat.Agent, Role: string(s.seat.Role), State: s.state, Calls: s.calls, Fails: s.fails, Latest: engine.OneLine(s.latest, 120)})
	}
	total := r.dropped + len(r.happened)
	if since < r.dropped {
		since = r.dropped
	}
	if since < total {
		st.Happened = append([]string(nil), r.happened[since-r.dropped:]...)
	}
	st.Cursor = total
	st.Warnings = trust.Text(strings.TrimSpace(r.stderr.String()))
	if !r.exited {
		return st, ""
	}
	st.State = "finished"
	st.Elapsed = ""
	out := &Outcome{ExitCode: r.code}
	if t, ok := m.tool(tool); ok {
		out.ExitMeaning = t.Exits[r.code]
	}
	text := ""
	if o := r.outcome; o != nil {
		runDir := m.abs(".")
		if r.logPath != "" {
			runDir = filepath.Dir(r.logPath)
		}
		m.fillOutcome(out, o, r.saved, r.tables, runDir)
		text = trust.Text(o.Markdown)
	} else {
		// No outcome: the command refused its input (exit 2) or died.
		out.Result = "failed"
		out.Summary = firstLine(st.Warnings)
		if out.Summary == "" {
			out.Summary = fmt.Sprintf("arena exited with code %d before the run began", r.code)
		}
		text = st.Warnings
	}
	if m.records(tool) {
		out.Verdict = lastJSON(r.stdout.String())
	}
	st.Outcome = out
	return st, text
}

// fillOutcome fills what an Outcome event and the run's saved files and
// tables say; runDir is the run's own directory, where its report is.
func (m *Manager) fillOutcome(out *Outcome, o *engine.Outcome, saved []engine.Saved, tables []engine.Table, runDir string) {
	out.Result, out.Summary, out.Rounds, out.Failures = string(o.Result), o.Summary, o.Rounds, o.Failures
	out.Content, out.ContentCut = boundContent(o.Document)
	for _, s := range saved {
		path := m.abs(s.Path)
		out.Files = append(out.Files, File{What: s.What, Path: path})
		if s.What == engine.WhatOutcomeDocument {
			out.Document = path
		}
		if strings.HasSuffix(s.Path, ".json") && out.Report == nil {
			out.Report = readReport(runDir, s)
		}
	}
	for _, t := range tables {
		tt := Table{Title: t.Title, Columns: t.Columns, Decision: t.Decision}
		for _, row := range t.Rows {
			tt.Rows = append(tt.Rows, append([]string{}, row.Cells...))
		}
		out.Tables = append(out.Tables, tt)
	}
	if o.Result.Resumable() && o.LogPath != "" {
		out.Resume = "arena resume " + shellQuote(m.abs(o.LogPath))
	}
}

// fromLog is the status of a run read from its log (a run this server did
// not start, or started before it was restarted).
func (m *Manager) fromLog(path string) (RunStatus, string, error) {
	r := &run{id: strings.TrimSuffix(filepath.Base(path), ".jsonl"), changed: make(chan struct{})}
	lc, err := runlog.ScanFile(path, r.handle) // as a stream: memory does not grow with the log
	if errors.Is(err, runlog.ErrNotALog) {
		// Not the reader's words: they quote what the file begins with,
		// and any file can be named here.
		return RunStatus{}, "", runlog.ErrNotALog
	}
	if err != nil {
		return RunStatus{}, "", err
	}
	if lc.Count == 0 {
		return RunStatus{}, "", fmt.Errorf("%s: %w: it is empty", path, runlog.ErrNotALog)
	}
	st := RunStatus{RunID: r.id, State: "unfinished", LogPath: path, Calls: r.calls, CallsFailed: r.failed, Failures: r.failures, Notes: r.runNotes, Phase: r.phase}
	if s := r.start; s != nil {
		st.Protocol, st.Title, st.Topic, st.Tool = s.Protocol, s.Title, engine.OneLine(s.Topic, 200), m.toolOf(s.Protocol)
	}
	for _, s := range r.seats {
		st.Seats = append(st.Seats, Seat{Seat: s.seat.Name, Agent: s.seat.Agent, Role: string(s.seat.Role), State: s.state, Calls: s.calls, Fails: s.fails, Latest: engine.OneLine(s.latest, 120)})
	}
	st.Cursor = len(r.happened)
	if r.outcome == nil {
		st.Notes = append(st.Notes, "the log has no outcome: the run is still going on elsewhere, or it was cut short ("+orNone(lc.Problem)+"); arena resume "+shellQuote(path)+" carries a cut-short run on")
		return st, "", nil
	}
	st.State = "finished"
	out := &Outcome{}
	m.fillOutcome(out, r.outcome, r.saved, r.tables, filepath.Dir(path))
	if t, ok := m.tool(st.Tool); ok {
		code := t.ExitOf(r.outcome.Result)
		out.ExitCode, out.ExitMeaning = code, t.Exits[code]
	}
	st.Outcome = out
	return st, trust.Text(r.outcome.Markdown), nil
}

// tool is the run tool of that name.
func (m *Manager) tool(name string) (Tool, bool) {
	i := slices.IndexFunc(m.cfg.Tools, func(t Tool) bool { return t.Name == name })
	if i < 0 {
		return Tool{}, false
	}
	return m.cfg.Tools[i], true
}

// toolOf is the name of the tool that runs a protocol, as its logs call
// it; the protocol's own name when no tool does.
func (m *Manager) toolOf(protocol string) string {
	i := slices.IndexFunc(m.cfg.Tools, func(t Tool) bool { return t.Protocol == protocol })
	if i < 0 {
		return protocol
	}
	return m.cfg.Tools[i].Name
}

func (m *Manager) abs(path string) string {
	if filepath.IsAbs(path) || m.cfg.Dir == "" {
		return path
	}
	return filepath.Join(m.cfg.Dir, path)
}

// maxContent bounds the outcome document a structured result carries,
// as JSON: Claude Code refuses a tool result over 25,000 tokens
// (MAX_MCP_OUTPUT_TOKENS), and the rest of the result shares them.
const maxContent = 48 << 10

// boundContent is the document as a structured result carries it: whole,
// or without its longest parts, and whether parts were left out. The
// sections that restate the seats' replies (the audit trail, the judges'
// reports) go first, last first: the log and the file keep them. Then
// the last sections, until it fits.
func boundContent(d *doc.Document) (*doc.Document, bool) {
	if d == nil || jsonSize(d) <= maxContent {
		return d, false
	}
	c := *d
	c.Sections = slices.Clone(d.Sections)
	for jsonSize(&c) > maxContent && len(c.Sections) > 0 {
		i := -1
		for j, s := range slices.Backward(c.Sections) {
			if s.Depth == 0 && s.Restates != nil && len(s.Restates.Seats) > 0 {
				i = j
				break
			}
		}
		if i < 0 {
			i = len(c.Sections) - 1
			for i > 0 && c.Sections[i].Depth > 0 {
				i-- // the part the last section belongs to
			}
		}
		end := i + 1
		for end < len(c.Sections) && c.Sections[end].Depth > c.Sections[i].Depth {
			end++
		}
		c.Sections = slices.Delete(c.Sections, i, end)
	}
	if jsonSize(&c) > maxContent {
		c = doc.Document{Title: d.Title, Result: d.Result, Summary: d.Summary}
	}
	return &c, true
}

func jsonSize(d *doc.Document) int {
	b, _ := json.Marshal(d)
	return len(b)
}

func orNone(s string) string {
	if s == "" {
		return "its last line is whole"
	}
	return s
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// lastJSON is the last line of s that is a JSON object, decoded.
func lastJSON(s string) any {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		var v map[string]any
		if json.Unmarshal([]byte(lines[i]), &v) == nil {
			return v
		}
	}
	return nil
}

// readReport reads the JSON report a run saved, once it has shown itself
// to be the one arena wrote for this run, as resume checks a log: by its
// name in the run's own directory (the log's: whatever directory a log
// names, only the name counts), a regular file with a single link, whose
// content has the hash the run recorded. A log can come from anyone and
// name any file (~/.codex/auth.json): none is read because a log names it,
// and one whose content the log's writer did not already know fails the
// hash.
func readReport(runDir string, s engine.Saved) any {
	if s.SHA256 == "" {
		return nil
	}
	path := filepath.Join(runDir, filepath.Base(s.Path))
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() || links(st) != 1 {
		return nil
	}
	data, err := trust.ReadFile(path, 8<<20)
	if err != nil {
		return nil
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != s.SHA256 {
		return nil
	}
	var v map[string]any
	if json.Unmarshal(trust.CleanJSON(data), &v) != nil {
		return nil
	}
	return v
}

// links is how many hard links the file has (1 where it cannot be told).
func links(st os.FileInfo) uint64 {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(sys.Nlink)
	}
	return 1
}

// shellQuote quotes a path for a shell command line when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:+=@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
