package enginetest

// A Sandbox is where the real runner meets the fake CLIs, for the
// end-to-end tests of the arena binary (cmd/arena) and the benchmarks of
// the engine in process (engine/adversarial, engine/compare, bench): a
// home, config and cache directories, a working directory, and fake CLIs
// on PATH. It lives here, below both, so that no test of the engine
// imports the command line.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// Sandbox is a home, a config and cache directory, a working directory and
// a set of fake CLIs for one run of arena.
type Sandbox struct {
	Fakes *clitest.Fakes
	Home  string
	Dir   string // the working directory; logs go to Dir/debate-logs (arena verdict's: VerdictLogDir)
}

// NewSandbox installs the named fakes (default: claude, gemini, codex,
// qwen) with an empty script.
func NewSandbox(tb testing.TB, names ...string) *Sandbox {
	tb.Helper()
	root := tb.TempDir()
	s := &Sandbox{Fakes: clitest.New(tb, names...), Home: filepath.Join(root, "home"), Dir: filepath.Join(root, "work")}
	for _, d := range []string{s.Home, s.Dir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

// Env is the environment arena runs with: the fakes first on PATH, the
// sandbox's home and XDG directories, no colour; extra ("KEY=value")
// overrides.
func (s *Sandbox) Env(extra ...string) []string {
	return s.Fakes.Env(append([]string{
		"HOME=" + s.Home,
		"XDG_CONFIG_HOME=" + filepath.Join(s.Home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(s.Home, ".cache"),
		"NO_COLOR=1",
	}, extra...)...)
}

// Logs are the debate logs saved so far: in Dir/debate-logs, and arena
// verdict's in the state directory (VerdictLogDir).
func (s *Sandbox) Logs() []string {
	paths, _ := filepath.Glob(filepath.Join(s.Dir, "debate-logs", "*.jsonl"))
	verdicts, _ := filepath.Glob(filepath.Join(s.VerdictLogDir(), "*.jsonl"))
	return append(paths, verdicts...)
}

// VerdictLogDir is where arena verdict keeps its logs by default: under
// the sandbox home's state directory, out of every work tree.
func (s *Sandbox) VerdictLogDir() string {
	return filepath.Join(s.Home, ".local", "state", "arena", "verdict-logs")
}

// OnlyLog reads the one debate log the sandbox holds.
func (s *Sandbox) OnlyLog(tb testing.TB) runlog.Contents {
	tb.Helper()
	paths := s.Logs()
	if len(paths) != 1 {
		tb.Fatalf("enginetest: %d debate logs in %s, want 1", len(paths), s.Dir)
	}
	lc, err := runlog.ReadFile(paths[0])
	if err != nil {
		tb.Fatalf("enginetest: reading the debate log: %v", err)
	}
	return lc
}

// Outcome is the last event of a log, which must be an outcome.
func Outcome(tb testing.TB, lc runlog.Contents) engine.Outcome {
	tb.Helper()
	if len(lc.Events) == 0 {
		tb.Fatal("enginetest: empty log")
	}
	// What consumers of the outcome add after it (the document writer's
	// Saved, or its Note when the save failed) follows it, and so do
	// follow-up questions and their calls.
	for i := len(lc.Events) - 1; i >= 0; i-- {
		switch p := lc.Events[i].Payload.(type) {
		case engine.Outcome:
			return p
		case engine.Saved, engine.Note, engine.FollowUp, engine.Chunk:
			continue
		case engine.AgentStarted, engine.AgentFinished, engine.AgentFailed:
			if phaseOf(p) == engine.PhaseFollowUp {
				continue
			}
		}
		tb.Fatalf("enginetest: the log ends with %s, not an outcome (%s)", lc.Events[i].Kind(), lc.Problem)
	}
	tb.Fatalf("enginetest: the log has no outcome (%s)", lc.Problem)
	return engine.Outcome{}
}

func phaseOf(p engine.Payload) engine.Phase {
	switch v := p.(type) {
	case engine.AgentStarted:
		return v.Phase
	case engine.AgentFinished:
		return v.Phase
	case engine.AgentFailed:
		return v.Phase
	}
	return ""
}

// Document is the path of the outcome document the log says was saved,
// or "" when none was.
func Document(lc runlog.Contents) string {
	for _, e := range lc.Events {
		if s, ok := e.Payload.(engine.Saved); ok && s.What == engine.WhatOutcomeDocument {
			return s.Path
		}
	}
	return ""
}
