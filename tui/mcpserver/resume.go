package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// resume_run carries an interrupted, aborted or over-budget run on, as
// arena resume does: the run is arena resume itself, started by the
// server (arena __run with a Resumption), so it refuses what the command
// refuses, in its words (a finished run, one being written, a log not
// signed on this machine, a context file that changed), and runs the
// logged request with the settings of the server's person, never a
// configuration the log names. A log from elsewhere is resumed only by a
// person (arena resume --yes): the tool has no way around that refusal.

const toolResume = "resume_run"

// Resumption is a Launch's resume: arena resume's arguments.
type Resumption struct {
	// Log is the log to carry on ("": the latest interrupted, aborted or
	// over-budget run of the log directory).
	Log   string   `json:"log,omitempty"`
	Seats []string `json:"seats,omitempty"` // SEAT=AGENT
	Force bool     `json:"force,omitempty"`
}

// ResumeIn carries a run on.
type ResumeIn struct {
	RunID     string   `json:"run_id,omitempty" jsonschema:"the run's id, as a run tool or list_runs gave it"`
	Log       string   `json:"log,omitempty" jsonschema:"or the path of its log; neither: the latest interrupted, aborted or over-budget run of the log directory"`
	Seats     []string `json:"seats,omitempty" jsonschema:"give a seat (or every seat an agent holds) another agent, each as SEAT=AGENT: codex=qwen when codex kept failing"`
	Timeout   string   `json:"timeout,omitempty" jsonschema:"timeout per agent call from now on, e.g. 90s, 2m (default: the run's)"`
	MaxRounds int      `json:"max_rounds,omitempty" jsonschema:"the rounds the resumed run may take in all (default: the run's)"`
	MaxCost   float64  `json:"max_cost,omitempty" jsonschema:"the whole run's budget in US dollars, what it spent before included: raise the limit that stopped it"`
	MaxCalls  int      `json:"max_calls,omitempty" jsonschema:"the whole run's model calls, those made before included"`
	MaxTokens int      `json:"max_tokens,omitempty" jsonschema:"the whole run's tokens, those used before included"`
	Force     bool     `json:"force,omitempty" jsonschema:"resume even if a context file changed since the run"`
}

const resumeAbout = "Carry on an interrupted, aborted or over-budget run from its log, as arena resume does: every reply the log holds is reused, and the run appends to the same log. It refuses what arena resume refuses (a finished run, one being written, a log not written by arena on this machine, a context file that changed unless force). It answers at once with the run's id: call run_status with it until state is finished, each call answering within its wait_seconds (default 20 s, at most 50)."

// addResume adds resume_run to s.
func addResume(s *mcp.Server, m *Manager) {
	mcp.AddTool(s, &mcp.Tool{Name: toolResume, Description: resumeAbout, InputSchema: schemaOf[ResumeIn](), OutputSchema: schemaOf[RunStatus](), Annotations: &mcp.ToolAnnotations{OpenWorldHint: ptr(true), DestructiveHint: ptr(false)}}, m.resumeTool)
}

func (m *Manager) resumeTool(ctx context.Context, req *mcp.CallToolRequest, in ResumeIn) (*mcp.CallToolResult, RunStatus, error) {
	path, err := m.resumeLog(in.RunID, in.Log)
	if err != nil {
		return nil, RunStatus{}, err
	}
	l := Launch{Resume: &Resumption{Log: path, Seats: in.Seats, Force: in.Force}, Config: m.cfg.Own.Config, LogDir: m.cfg.Own.LogDir}
	set(&l.Settings, "timeout", in.Timeout)
	budget := Input{}
	for name, v := range map[string]float64{"max_rounds": float64(in.MaxRounds), "max_cost": in.MaxCost, "max_calls": float64(in.MaxCalls), "max_tokens": float64(in.MaxTokens)} {
		if v > 0 {
			budget[name] = json.Number(strconv.FormatFloat(v, 'f', -1, 64))
		}
	}
	budget.within(m.cfg.Budget)
	for name, v := range budget {
		set(&l.Settings, name, v)
	}
	r, err := m.launch(toolResume, l, nil)
	if err != nil {
		return nil, RunStatus{}, err
	}
	m.own(r, req.Session)
	// A resumed run's events begin where it left off, with no start: its
	// log's says which protocol's run it is, and what it is about.
	r.mu.Lock()
	logPath := r.logPath
	r.mu.Unlock()
	if g := runlog.Glance(logPath); logPath != "" && g.Protocol != "" {
		r.mu.Lock()
		r.tool = m.toolOf(g.Protocol)
		if r.start == nil {
			r.start = &engine.DebateStarted{Protocol: g.Protocol, Topic: g.Topic, Seats: g.Seats}
			for _, seat := range g.Seats {
				r.seats = append(r.seats, &seatState{seat: seat, state: "waiting"})
			}
		}
		r.mu.Unlock()
	}
	return m.follow(ctx, req, r, 0, 0)
}

// resumeLog is the log a call names, checked to be one arena could have
// written before the run reads a byte of it; "" for the latest.
func (m *Manager) resumeLog(id, log string) (string, error) {
	path := ""
	switch {
	case log != "":
		path = m.abs(log)
	case id == "":
		return "", nil
	case strings.ContainsAny(id, `/\`) || id == "." || id == "..":
		return "", fmt.Errorf("run %q: no such run (list_runs lists them)", id)
	default:
		if r := m.find(id); r != nil && r.logPath != "" {
			path = r.logPath
		} else {
			path = m.logByID(id)
		}
	}
	if err := logLike(path); err != nil {
		return "", err
	}
	return path, nil
}
