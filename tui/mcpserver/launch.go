package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/arenadebate/arena/engine"
)

// RunCommand is the hidden command the server starts each run with: the
// run reads its Launch on stdin, never a command line.
const RunCommand = "__run"

// maxLaunch bounds a launch as read: a request carries text (a topic, a
// diff), at most what stdin would have.
const maxLaunch = 16 << 20

// Launch is a run the server starts, as the run reads it (arena __run):
// a protocol's request and the settings it is asked with, from the
// caller, and the server's own settings, from the person who started the
// server.
type Launch struct {
	Protocol string             `json:"protocol"`
	Request  json.RawMessage    `json:"request"`
	Settings engine.RunSettings `json:"settings"`
	// Config is the server's config file, LogDir its log directory and
	// NoLog whether its runs save no log ("", false: the defaults).
	Config string `json:"config,omitempty"`
	LogDir string `json:"log_dir,omitempty"`
	NoLog  bool   `json:"no_log,omitempty"`
	// Record: the run's stdout is its final record alone (Tool.Record).
	Record bool `json:"record,omitempty"`
	// Resume, when set, makes the run arena resume's (resume_run): no
	// protocol or request, and Settings are what the resume changes.
	Resume *Resumption `json:"resume,omitempty"`
}

// Own are the server's own settings, which every run it starts gets.
type Own struct {
	Config, LogDir string
	NoLog          bool
}

// ReadLaunch reads the launch on r: one JSON object, nothing else, none
// of its fields unknown.
func ReadLaunch(r io.Reader) (Launch, error) {
	var l Launch
	b, err := io.ReadAll(io.LimitReader(r, maxLaunch+1))
	if err != nil {
		return l, err
	}
	if len(b) > maxLaunch {
		return l, fmt.Errorf("the launch is larger than %d bytes", maxLaunch)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return l, fmt.Errorf("the launch: %w", err)
	}
	if dec.More() {
		return l, fmt.Errorf("the launch: more than one value")
	}
	return l, nil
}

// set sets the setting name (a tool's input) to v.
func set(rs *engine.RunSettings, name string, v any) {
	n := func() *int {
		i, err := strconv.Atoi(num(v))
		if err != nil {
			return nil
		}
		return &i
	}
	switch name {
	case "defender":
		rs.Defender = str(v)
	case "challengers":
		rs.Challengers = strs(v)
	case "max_rounds":
		rs.MaxRounds = n()
	case "timeout":
		rs.Timeout = str(v)
	case "max_cost":
		rs.MaxCost = num(v)
	case "max_calls":
		rs.MaxCalls = n()
	case "max_tokens":
		rs.MaxTokens = num(v)
	}
}
