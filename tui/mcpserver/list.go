package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// RunList is list_runs' answer.
type RunList struct {
	LogDir string       `json:"log_dir"`
	Runs   []RunSummary `json:"runs"`
}

// RunSummary is one run in a list.
type RunSummary struct {
	RunID    string   `json:"run_id"`
	Protocol string   `json:"protocol,omitempty"`
	Topic    string   `json:"topic,omitempty"`
	State    string   `json:"state" jsonschema:"running (this server runs it), finished, or unfinished (no outcome in its log: going on elsewhere, or cut short)"`
	Result   string   `json:"result,omitempty"`
	Started  string   `json:"started,omitempty"`
	Took     string   `json:"took,omitempty"`
	Agents   []string `json:"agents,omitempty"`
	LogPath  string   `json:"log_path,omitempty"`
	Problem  string   `json:"problem,omitempty"`
}

func (m *Manager) listTool(_ context.Context, _ *mcp.CallToolRequest, in ListIn) (*mcp.CallToolResult, RunList, error) {
	limit := in.Limit
	if limit <= 0 {
		limit = 20
	}
	out := RunList{LogDir: m.abs(m.cfg.LogDir), Runs: []RunSummary{}}
	seen := map[string]bool{}
	m.mu.Lock()
	runs := append([]*run(nil), m.runs...)
	m.mu.Unlock()
	for i := len(runs) - 1; i >= 0; i-- { // newest first
		r := runs[i]
		st, _ := m.status(r, 1<<30)
		rs := RunSummary{RunID: st.RunID, Protocol: st.Protocol, Topic: engine.OneLine(st.Topic, 100), State: st.State, LogPath: st.LogPath, Started: r.started.Format(time.RFC3339)}
		if st.Outcome != nil {
			rs.Result = st.Outcome.Result
		}
		for _, s := range st.Seats {
			rs.Agents = appendOnce(rs.Agents, s.Agent)
		}
		out.Runs = append(out.Runs, rs)
		if st.LogPath != "" {
			seen[filepath.Clean(st.LogPath)] = true
		}
	}
	// The logs are read only as far as the list goes, each at a glance
	// (its start and its end): a 500 MB log, or 10,000 of them, cost
	// what is listed (issue 29: 854 MiB and 24.5 s a call).
	logs, err := runlog.ListDirs(m.logDirs()...)
	if err != nil {
		return nil, out, fmt.Errorf("cannot list the logs in %s: %w", m.cfg.LogDir, err)
	}
	for i := 0; i < logs.Len() && len(out.Runs) < limit; i++ {
		if seen[filepath.Clean(logs.Path(i))] {
			continue
		}
		out.Runs = append(out.Runs, loggedRun(logs.Glance(i)))
	}
	if len(out.Runs) > limit {
		out.Runs = out.Runs[:limit]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d runs (log directory %s):\n", len(out.Runs), out.LogDir)
	for _, r := range out.Runs {
		res := r.Result
		if res == "" {
			res = r.State
		}
		fmt.Fprintf(&b, "- %s  %s  %s  %s\n", r.RunID, engine.OrDash(r.Protocol), res, r.Topic)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, out, nil
}

// loggedRun is a run of the list as its log tells it.
func loggedRun(l runlog.Summary) RunSummary {
	rs := RunSummary{RunID: strings.TrimSuffix(filepath.Base(l.Path), ".jsonl"), Protocol: l.Protocol, Topic: engine.OneLine(l.Topic, 100), State: "unfinished", Result: string(l.Result), Agents: l.Agents(), LogPath: l.Path, Problem: l.Problem}
	if l.Result != "" {
		rs.State = "finished"
	}
	if !l.Started.IsZero() {
		rs.Started = l.Started.Format(time.RFC3339)
	}
	if l.Took > 0 {
		rs.Took = l.Took.Round(time.Second).String()
	}
	return rs
}

// logDirs are the directories runs' logs are in, the log directory first.
func (m *Manager) logDirs() []string {
	dirs := []string{m.abs(m.cfg.LogDir)}
	for _, d := range m.cfg.OtherLogDirs {
		dirs = append(dirs, m.abs(d))
	}
	return dirs
}

// logByID is the path of the log of a run id: in the first directory
// that holds it, else where the log directory would.
func (m *Manager) logByID(id string) string {
	dirs := m.logDirs()
	for _, d := range dirs {
		if p := filepath.Join(d, id+".jsonl"); fileExists(p) {
			return p
		}
	}
	return filepath.Join(dirs[0], id+".jsonl")
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// readLogged is the status of a run read from its log: by id in the log
// directory, or by path.
func (m *Manager) readLogged(id, path string) (*mcp.CallToolResult, RunStatus, error) {
	if path == "" {
		if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
			return nil, RunStatus{}, fmt.Errorf("run %q: no such run (list_runs lists them)", id)
		}
		path = m.logByID(id)
	} else {
		path = m.abs(path)
	}
	st, doc, err := m.fromLog(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && id != "":
		return nil, st, fmt.Errorf("run %q: no such run in %s (list_runs lists them)", id, m.cfg.LogDir)
	case err != nil:
		return nil, st, fmt.Errorf("%s: %w", path, err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: statusText(st, doc)}}}, st, nil
}

// statusText is a status as text for the calling model: the outcome
// document once the run is over, else where it stands and what to call.
func statusText(st RunStatus, doc string) string {
	var b strings.Builder
	if o := st.Outcome; o != nil {
		fmt.Fprintf(&b, "arena %s %s: %s (exit code %d", engine.OrDash(st.Tool), st.RunID, o.Result, o.ExitCode)
		if o.ExitMeaning != "" {
			fmt.Fprintf(&b, ": %s", o.ExitMeaning)
		}
		fmt.Fprintf(&b, ")\n%s\n", o.Summary)
		for _, n := range st.Notes {
			fmt.Fprintf(&b, "note: %s\n", n)
		}
		if o.Resume != "" {
			fmt.Fprintf(&b, "carry it on with: %s\n", o.Resume)
		}
		if st.LogPath != "" {
			fmt.Fprintf(&b, "log: %s\n", st.LogPath)
		}
		if doc != "" {
			b.WriteString("\n" + doc)
		}
		return b.String()
	}
	if st.State == "unfinished" {
		fmt.Fprintf(&b, "run %s has no outcome in its log %s.\n", st.RunID, st.LogPath)
		for _, n := range st.Notes {
			fmt.Fprintf(&b, "note: %s\n", n)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "arena %s %s is running (%s", st.Tool, st.RunID, st.Elapsed)
	if st.Phase != "" {
		fmt.Fprintf(&b, ", phase %s", st.Phase)
	}
	fmt.Fprintf(&b, ", %d replies, %d failed calls).\n", st.Calls, st.CallsFailed)
	for _, n := range st.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	for _, h := range st.Happened {
		fmt.Fprintf(&b, "- %s\n", h)
	}
	fmt.Fprintf(&b, "Call run_status with run_id %q and since %d for what happens next", st.RunID, st.Cursor)
	if st.Watch != "" {
		fmt.Fprintf(&b, "; a person can watch it with: %s", st.Watch)
	}
	b.WriteString(".\n")
	return b.String()
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func baseName(p string) string { return filepath.Base(p) }
