package mcpserver

import "time"

// The inputs of the tools that follow and read runs (the run tools' are
// derived from their commands' flags: tool.go).

// Follow is what a call that follows a run takes: how long it follows the
// run before it returns.
type Follow struct {
	WaitSeconds int `json:"wait_seconds,omitempty" jsonschema:"follow the run for up to this many seconds (0 to 50) before returning; a run that ends sooner returns its outcome at once"`
}

// wait is how long to follow; the schema's default fills an absent
// wait_seconds (defaultWait).
func (f Follow) wait() time.Duration {
	return min(max(time.Duration(f.WaitSeconds)*time.Second, 0), maxWait)
}

// Budget is what a run may spend: the run stops before a call once one
// limit is spent (over budget, exit 75), and arena resume carries it on
// with a higher one. The server's own limits (arena mcp --max-..., or its
// config) hold whatever the caller asks (Input.within).
type Budget struct {
	MaxCost   float64
	MaxCalls  int
	MaxTokens int
}

// StatusIn asks for a run's progress.
type StatusIn struct {
	RunID string `json:"run_id" jsonschema:"the run's id, as a run tool or list_runs gave it"`
	Since int    `json:"since,omitempty" jsonschema:"the cursor of the previous answer: only what happened since is listed"`
	Follow
}

// CancelIn stops a run.
type CancelIn struct {
	RunID string `json:"run_id" jsonschema:"the run to stop"`
	Follow
}

// ListIn lists runs.
type ListIn struct {
	Limit int `json:"limit,omitempty" jsonschema:"at most this many runs, newest first (default 20)"`
}

// ReadIn reads a run's outcome.
type ReadIn struct {
	RunID string `json:"run_id,omitempty" jsonschema:"the run's id"`
	Log   string `json:"log,omitempty" jsonschema:"or the path of its log"`
}
