package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
)

// Defaults for fields a script leaves out.
const (
	defaultDelay      = 5 * time.Millisecond
	defaultSlowDelay  = time.Second // slow and trickle without a delay_ms
	defaultChunks     = 3
	defaultFloodBytes = 100 << 20
)

// plan is everything one call will do, resolved from the script.
type plan struct {
	kind   fakeapi.Kind
	repair bool
	index  int // this call's number among the agent's calls of its kind
	mode   fakeapi.Mode
	delay  time.Duration
	chunks int
	rate   int  // tokens a second; 0: chunks pieces, delay apart
	stamp  bool // stamp the pieces of the prose with the time
	prose  int  // bytes of prose before the reply proper
	exit   int
	flood  int64
	piece  int // flood piece size; 0: the default shape
	reply  string
	stderr string
	hold   string // a file in the state directory to wait for before the last piece
	leave  string // a helper to leave behind first (fakeapi.Leave*), or ""
}

// loadAgentScript reads the script named by ARENA_FAKE_SCRIPT and returns
// the agent's part; no script, or no entry, is the zero AgentScript.
func loadAgentScript(agent string) (fakeapi.AgentScript, error) {
	path := os.Getenv(fakeapi.EnvScript)
	if path == "" {
		return fakeapi.AgentScript{}, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fakeapi.AgentScript{}, fmt.Errorf("reading script: %w", err)
	}
	var s fakeapi.Script
	if err := json.Unmarshal(b, &s); err != nil {
		return fakeapi.AgentScript{}, fmt.Errorf("script %s: %w", path, err)
	}
	return s.Agents[agent], nil
}

// personRate is the pace, in tokens a second, of a fake run with no
// script: by a person trying arena from the README, who should see the
// panes stream as a model's would (about 50 tokens a second; issue 32,
// point 11). Every test sets ARENA_FAKE_SCRIPT (challengers/clitest), and
// its fakes answer at once unless the script says otherwise.
func personRate() int {
	if os.Getenv(fakeapi.EnvScript) == "" {
		return 50
	}
	return 0
}

// stateDir is where counters and pid files go ("" if nowhere).
func stateDir() string {
	if d := os.Getenv(fakeapi.EnvState); d != "" {
		return d
	}
	if s := os.Getenv(fakeapi.EnvScript); s != "" {
		return s + ".state"
	}
	return ""
}

// resolvePlan classifies the prompt, takes the next call number for its
// kind and merges the matching step over the agent's defaults.
func resolvePlan(agent string, as fakeapi.AgentScript, prompt string) (plan, error) {
	kind, repair := detectKind(prompt)
	key := string(kind)
	if repair {
		key += fakeapi.RepairSuffix
	}
	p := plan{kind: kind, repair: repair, index: claim(agent, key)}
	st := pickStep(as.Steps, kind, repair, p.index)
	p.mode = firstSet(st.Mode, as.Mode, fakeapi.ModeOK)
	if !slices.Contains(fakeapi.Modes, p.mode) {
		return p, fmt.Errorf("agent %s: unknown mode %q in script", agent, p.mode)
	}
	p.delay = delay(p.mode, firstSet(st.DelayMS, as.DelayMS))
	p.chunks = firstSet(st.Chunks, as.Chunks, defaultChunks)
	p.rate = max(firstSet(st.TokensPerSec, as.TokensPerSec, personRate()), 0)
	p.stamp = st.Stamp || as.Stamp
	p.prose = len(st.Prose)
	p.exit = firstSet(st.ExitCode, as.ExitCode)
	p.flood = max(firstSet(st.FloodBytes, as.FloodBytes, defaultFloodBytes), 0)
	p.piece = max(firstSet(st.FloodPiece, as.FloodPiece), 0)
	p.stderr = st.Stderr
	p.hold = firstSet(st.Hold, as.Hold)
	p.leave = firstSet(st.Leave, as.Leave)
	if p.leave != "" && !slices.Contains(fakeapi.Leaves, p.leave) {
		return p, fmt.Errorf("agent %s: unknown leave %q in script", agent, p.leave)
	}
	var err error
	p.reply, err = replyText(st, agent, as.Bias, kind, prompt)
	if p.mode == fakeapi.ModeEscapes {
		p.reply = withEscapes(p.reply)
	}
	return p, err
}

// pickStep returns the step for call number index: element index of the
// list, the last one once the list is used up. Repair calls use the
// "<kind>.repair" list, or the kind's own list when none is scripted.
func pickStep(steps map[string][]fakeapi.Step, kind fakeapi.Kind, repair bool, index int) fakeapi.Step {
	list := steps[string(kind)]
	if r := steps[string(kind)+fakeapi.RepairSuffix]; repair && len(r) > 0 {
		list = r
	}
	if len(list) == 0 {
		return fakeapi.Step{}
	}
	return list[min(max(index, 0), len(list)-1)]
}

func delay(mode fakeapi.Mode, ms int) time.Duration {
	switch {
	case ms < 0:
		return 0
	case ms > 0:
		return time.Duration(ms) * time.Millisecond
	case mode == fakeapi.ModeSlow || mode == fakeapi.ModeTrickle:
		return defaultSlowDelay
	}
	return defaultDelay
}

// claim takes the next call number for agent and key. Each number is a
// file created with O_EXCL, so concurrent fakes (several agents answering
// at once, or one agent called in parallel) never get the same number.
// It returns -1 when there is no state directory.
func claim(agent, key string) int {
	dir := stateDir()
	if dir == "" || os.MkdirAll(dir, 0o755) != nil {
		return -1
	}
	for n := 0; ; n++ {
		name := filepath.Join(dir, fmt.Sprintf("%s.%s.%d", agent, key, n))
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			return n
		}
		if !errors.Is(err, fs.ErrExist) {
			return -1
		}
	}
}

// firstSet returns the first of vals that is not the zero value.
func firstSet[T comparable](vals ...T) T {
	var zero T
	for _, v := range vals {
		if v != zero {
			return v
		}
	}
	return zero
}
