package runlog

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/arenadebate/arena/engine"
)

// Logs written by an older arena still replay: each of their lines is
// read as its own version wrote it and turned into today's events.

// v1Started is version 1's debate_started: the adversarial debate's
// defender and challengers rather than seats.
type v1Started struct {
	Version     int                  `json:"version"`
	ID          string               `json:"id"`
	Protocol    string               `json:"protocol"`
	Topic       string               `json:"topic"`
	Defender    string               `json:"defender"`
	Challengers []string             `json:"challengers"`
	Agents      []v1Agent            `json:"agents"`
	MaxRounds   int                  `json:"max_rounds"`
	Timeout     engine.Duration      `json:"timeout_per_cli"`
	Skeptical   bool                 `json:"skeptical_of_early_agreement"`
	Context     []engine.ContextFile `json:"context,omitempty"`
	Phases      []engine.Phase       `json:"phases"`
}

type v1Agent struct {
	engine.AgentInfo
	Role engine.Role `json:"role"`
}

type v1Chunk struct {
	Agent string `json:"agent"`
	Text  string `json:"text"`
}

type v1VerdictRow struct {
	Challenger string `json:"challenger"`
	Verdict    string `json:"verdict"`
	Strength   string `json:"strength"`
	Confidence string `json:"confidence"`
	Blocking   bool   `json:"blocking"`
	Status     string `json:"status"`
}

type v1VerdictTable struct {
	Phase    engine.Phase   `json:"phase"`
	Round    int            `json:"round"`
	Rows     []v1VerdictRow `json:"rows"`
	Decision string         `json:"decision"`
}

type v1Outcome struct {
	engine.Outcome
	ReportPath string `json:"report_path,omitempty"`
}

// v1PhaseTitles are the version 1 phases as the adversarial debate titles
// them.
var v1PhaseTitles = map[engine.Phase]string{
	"preflight": "Preflight", "opening": "Opening position", "challenge": "Parallel challenge",
	"consensus_check": "Consensus check", "confront": "Confrontation", "rebuttal": "Challenger rebuttal",
	"iteration_check": "Iteration check", "assumption_extraction": "Assumption extraction", "outcome": "Outcome",
}

// v1Stances colour version 1's verdicts and results.
var v1Stances = map[string]engine.Stance{
	"agree": engine.StanceAgree, "partial": engine.StancePartial, "disagree": engine.StanceDisagree,
	"consensus": engine.StanceAgree, "tradeoff": engine.StancePartial, "aborted": engine.StanceDisagree,
}

// decodeV1 reads one version 1 event as version 2 payloads (an outcome
// with a saved report becomes the outcome and a Saved event).
func decodeV1(w engine.WireEvent) ([]engine.Payload, error) {
	var ps []engine.Payload
	switch w.Type {
	case engine.KindDebateStarted:
		var v v1Started
		if err := json.Unmarshal(w.Data, &v); err != nil {
			return nil, err
		}
		ps = append(ps, upgradeStarted(v))
	case engine.KindChunk:
		var v v1Chunk
		if err := json.Unmarshal(w.Data, &v); err != nil {
			return nil, err
		}
		ps = append(ps, engine.Chunk{Seat: v.Agent, Text: v.Text})
	case "verdict_table":
		var v v1VerdictTable
		if err := json.Unmarshal(w.Data, &v); err != nil {
			return nil, err
		}
		ps = append(ps, upgradeVerdicts(v))
	case engine.KindOutcome:
		var v v1Outcome
		if err := json.Unmarshal(w.Data, &v); err != nil {
			return nil, err
		}
		v.Stance = v1Stances[string(v.Result)]
		ps = append(ps, v.Outcome)
		if v.ReportPath != "" {
			ps = append(ps, engine.Saved{What: engine.WhatOutcomeDocument, Path: v.ReportPath})
		}
	case engine.KindAgentStarted, engine.KindAgentFinished, engine.KindAgentFailed, engine.KindPositionUpdated, engine.KindNote, engine.KindPhaseStarted:
		p, err := engine.DecodePayload(w)
		if err != nil {
			return nil, err
		}
		ps = append(ps, upgradeCall(p))
	default:
		p, err := engine.DecodePayload(w)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	for i := range ps {
		if _, ok := ps[i].(engine.Unknown); !ok {
			ps[i] = scrubbed(ps[i])
		}
	}
	return ps, nil
}

func upgradeStarted(v v1Started) engine.DebateStarted {
	ds := engine.DebateStarted{
		Version: engine.LogVersion, ID: v.ID, Protocol: "adversarial", Title: v.Protocol, Topic: v.Topic,
		MaxRounds: v.MaxRounds, Timeout: v.Timeout, Context: v.Context,
		Settings: []engine.Setting{{Name: "skeptical of early agreement", Value: fmt.Sprint(v.Skeptical)}},
	}
	if v.Defender != "" {
		ds.Seats = append(ds.Seats, engine.Seat{Name: v.Defender, Agent: v.Defender, Role: "defender"})
	}
	for _, c := range v.Challengers {
		ds.Seats = append(ds.Seats, engine.Seat{Name: c, Agent: c, Role: "challenger"})
	}
	for _, a := range v.Agents {
		ds.Agents = append(ds.Agents, a.AgentInfo)
	}
	for _, p := range v.Phases {
		ds.Phases = append(ds.Phases, engine.PhaseInfo{Phase: p, Title: v1PhaseTitles[p]})
	}
	return ds
}

func upgradeVerdicts(v v1VerdictTable) engine.Table {
	t := engine.Table{
		Phase: v.Phase, Round: v.Round, Title: fmt.Sprintf("Verdicts, round %d", v.Round),
		Columns:  []string{"challenger", "verdict", "objection", "confidence", "blocking", "status"},
		Decision: v.Decision,
	}
	for _, r := range v.Rows {
		blocking := ""
		if r.Blocking {
			blocking = "yes"
		}
		stance := v1Stances[r.Verdict]
		if strings.HasPrefix(r.Status, "failed") {
			stance = engine.StanceNeutral
		}
		t.Rows = append(t.Rows, engine.Row{Cells: []string{r.Challenger, r.Verdict, r.Strength, r.Confidence, blocking, r.Status}, Stance: stance})
	}
	return t
}

// upgradeCall names the seat of a version 1 call event: the agent's name,
// since version 1 gave each agent one seat.
func upgradeCall(p engine.Payload) engine.Payload {
	switch v := p.(type) {
	case engine.AgentStarted:
		v.Seat = v.Agent
		return v
	case engine.AgentFinished:
		v.Seat = v.Agent
		return v
	case engine.AgentFailed:
		v.Seat = v.Agent
		return v
	}
	return p
}

// scrubbed cleans the strings of a payload decoded by decodeV1 as
// UnmarshalJSON cleans today's.
func scrubbed(p engine.Payload) engine.Payload {
	v := reflect.New(reflect.TypeOf(p))
	v.Elem().Set(reflect.ValueOf(p))
	engine.ScrubStrings(v)
	return v.Elem().Interface().(engine.Payload)
}
