package verdict

import (
	"fmt"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
)

// ModeFinal is the mode of a log's final record.
const ModeFinal = "final"

// Record is one judge's verdict as the verdict log keeps it.
//
// Its JSON Schema (arena verdict --schema) is inferred from this struct:
// its fields and their jsonschema tags (descriptions), with the ranges
// and enumerations recordSchema adds in schema.go.
type Record struct {
	TaskID        string   `json:"task_id"`
	RunID         string   `json:"run_id" jsonschema:"the run (debate log) the record belongs to"`
	Model         string   `json:"model" jsonschema:"the agent, and its model where known: claude/opus"`
	Mode          Mode     `json:"mode"`
	Verdict       Verdict  `json:"verdict"`
	StatedVerdict Verdict  `json:"stated_verdict,omitempty" jsonschema:"what the model said, when its own scores say otherwise"`
	Scores        Scores   `json:"scores"`
	Average       float64  `json:"average"`
	Reasoning     string   `json:"reasoning"`
	Improvements  []string `json:"improvements"`
	Stripped      []string `json:"stripped,omitempty" jsonschema:"what arena took away around the JSON the model was told to return alone"`
	Timestamp     string   `json:"timestamp" jsonschema:"RFC 3339, UTC"`
}

// NewRecord is the record of judgement j, given by model as mode, at t.
func NewRecord(taskID, runID, model string, m Mode, j Judgement, t time.Time) Record {
	imp := j.Improvements
	if imp == nil {
		imp = []string{}
	}
	return Record{
		TaskID: taskID, RunID: runID, Model: model, Mode: m, Verdict: j.Verdict, StatedVerdict: j.Stated,
		Scores: j.Scores, Average: j.Average, Reasoning: j.Reasoning, Improvements: imp, Stripped: j.Stripped,
		Timestamp: Timestamp(t),
	}
}

// Final is a run's last record: the decision and how it was reached.
type Final struct {
	TaskID    string   `json:"task_id"`
	RunID     string   `json:"run_id"`
	Mode      string   `json:"mode"` // always "final"
	Verdict   string   `json:"verdict"`
	Reached   string   `json:"reached" jsonschema:"how the decision was reached"`
	Calls     int      `json:"calls" jsonschema:"judges asked"`
	Sensitive bool     `json:"sensitive"`
	Failures  []string `json:"failures,omitempty"`
	DebateLog string   `json:"debate_log" jsonschema:"the path of the run's debate log; empty when none was saved"`
	Timestamp string   `json:"timestamp" jsonschema:"RFC 3339, UTC"`
}

// Timestamp is t as the log writes it: RFC 3339, UTC.
func Timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// Append appends v to the log at path as one JSON line, in one write to a
// file opened O_APPEND, so that several arena processes can share a log
// without ever interleaving their lines. A new log is created 0600; an
// existing one must be a regular file of this user's, never a link
// (trust.OpenAppend): a repository can commit a link where the default
// verdict log goes.
func Append(path string, v any) error {
	line, err := trust.JSON(v)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	f, err := trust.OpenAppend(path, true)
	if err != nil {
		return fmt.Errorf("verdict log: %w", err)
	}
	n, werr := f.Write(line)
	if werr == nil && n < len(line) {
		werr = fmt.Errorf("short write (%d of %d bytes)", n, len(line))
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("verdict log %s: %w", path, werr)
	}
	return nil
}
