package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
)

// What a host tells arena when a person presses Esc while its model
// follows a run. Gemini CLI 0.61 tells it nothing: its MCP tool call
// passes no abort signal to the SDK (DiscoveredMCPToolInvocation rejects
// locally, the request stays open until its timeout), so no
// notifications/cancelled comes, the call answers when its wait ends, and
// the run goes on: docs/integrations.md says so, and what to do. Qwen
// Code sends the cancellation ("AbortError: Tool call aborted"), and the
// run stops on it, its log resumable; Qwen Code shows arena's server as
// it was (no "MCP offline" badge).
func TestEscInGeminiAndQwen(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		host    string
		cancels bool
	}{{"gemini", false}, {"qwen", true}} {
		t.Run(c.host, func(t *testing.T) {
			t.Parallel()
			realCLI(t, c.host)
			needTmux(t)
			s := newSandbox(t)
			// The challengers hold their critiques: the run goes on until
			// the test lets them go.
			s.fakes.SetScript(holding(&clitest.Script{Agents: map[string]clitest.AgentScript{}}, "critique", "esc", "gemini", "codex", "qwen"))
			api := newStandIn(t, "mcp__arena__debate", map[string]any{"topic": "should we move sessions from Redis to Postgres?"})
			cmd := s.hostRun(c.host, api, "put it to a debate")
			in, out := s.traceArena(c.host)
			ts := s.tmuxHost(cmd)
			call := s.promptUntilFollowed(ts, api, in)
			ts.keys("Escape")
			if c.cancels {
				waitUntil(t, time.Minute, "the run to stop on the cancellation", func() bool { return len(s.logs()) == 1 && s.onlyLog().Complete })
				if o := outcomeOf(t, s.onlyLog()); o.Result != engine.OutcomeInterrupted {
					t.Fatalf("the run stopped as %s", o.Result)
				}
				screen := ts.waitFor("the turn to end", time.Minute, func(screen string) bool { return !strings.Contains(screen, "esc to cancel") })
				// The server is still there: no "MCP offline" badge.
				if strings.Contains(strings.ToLower(screen), "offline") {
					t.Fatalf("%s shows arena offline after Esc:\n%s\narena read:\n%s\narena wrote:\n%.3000s", c.host, screen, readTrace(in), tail(readTrace(out), 3000))
				}
				return
			}
			// Arena answers the call it was following when its wait ends
			// (followWait): by then a cancellation sent on Esc has come.
			waitUntil(t, time.Minute, "arena to answer the run_status call "+call, func() bool { return answered(readTrace(out), call) })
			if got := readTrace(in); strings.Contains(got, "notifications/cancelled") {
				t.Fatalf("%s sent a cancellation on Esc: docs/integrations.md says it sends none; the run stops on it now:\n%s", c.host, got)
			}
			if s.onlyLog().Complete {
				t.Fatalf("the run ended on Esc")
			}
			s.fakes.Release("esc")
		})
	}
}

// traceArena makes the host's entry run arena through a wrapper that
// copies what arena reads and writes into two files, which it returns.
func (s *sandbox) traceArena(host string) (in, out string) {
	s.t.Helper()
	in, out = filepath.Join(s.home, "arena.in"), filepath.Join(s.home, "arena.out")
	wrapper := filepath.Join(s.home, "arena-traced")
	script := fmt.Sprintf("#!/bin/sh\ntee -a %s | %s \"$@\" | tee -a %s\n", shellQuote(in), shellQuote(arenaBinary(s.t)), shellQuote(out))
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		s.t.Fatal(err)
	}
	cfg := filepath.Join(s.home, "."+host, "settings.json")
	b := readFile(s.t, cfg)
	if !strings.Contains(b, arenaBinary(s.t)) {
		s.t.Fatalf("%s does not run arena:\n%s", cfg, b)
	}
	if err := os.WriteFile(cfg, []byte(strings.ReplaceAll(b, arenaBinary(s.t), wrapper)), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return in, out
}

// promptUntilFollowed waits for the model to follow the run with
// run_status (the host was started with the prompt), and types the prompt
// again when a turn ended at a request that offered no arena tool (Qwen
// Code may ask its model before its MCP servers' tools are in; the
// stand-in then says "done"): the run_status call's id.
func (s *sandbox) promptUntilFollowed(ts *tmuxSession, api *standIn, in string) string {
	s.t.Helper()
	n := 0
	for try := 1; ; try++ {
		if try > 1 {
			n = len(api.Offered())
			ts.keys("put it to a debate")
			ts.waitText("put it to a debate", time.Minute)
			ts.keys("Enter")
		}
		var call string
		for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
			call = lastRequest(readTrace(in), "tools/call", "run_status")
			offered := api.Offered()
			if call != "" || len(offered) > n && !slices.Contains(offered[len(offered)-1], api.tool) {
				break
			}
			if time.Now().After(deadline) {
				s.t.Fatalf("the model did not follow the run, nor did its turn end without arena; arena read:\n%s\nthe screen:\n%s", readTrace(in), ts.screen())
			}
		}
		switch {
		case call != "":
			return call
		case try == 5:
			s.t.Fatalf("no request offered arena's tools in 5 turns; arena read:\n%s\nthe screen:\n%s", readTrace(in), ts.screen())
		}
	}
}

// tmuxHost runs the host command cmd interactively in tmux (-i PROMPT for
// -p PROMPT).
func (s *sandbox) tmuxHost(cmd *exec.Cmd) *tmuxSession {
	s.t.Helper()
	ts := &tmuxSession{t: s.t, socket: fmt.Sprintf("arena-host-%d-%d", os.Getpid(), tmuxN.Add(1))}
	var b strings.Builder
	b.WriteString("cd " + shellQuote(cmd.Dir) + " && env -i")
	for _, kv := range append(cmd.Env, "TERM=xterm-256color") {
		b.WriteString(" " + shellQuote(kv))
	}
	args := slices.Clone(cmd.Args)
	if i := slices.Index(args, "-p"); i > 0 {
		args[i] = "-i"
	}
	args[0] = cmd.Path
	for _, a := range args {
		b.WriteString(" " + shellQuote(a))
	}
	b.WriteString("; sleep 600")
	if out, err := exec.Command("tmux", "-L", ts.socket, "-f", "/dev/null", "new-session", "-d", "-s", "arena",
		"-x", "120", "-y", "40", b.String()).CombinedOutput(); err != nil {
		s.t.Fatalf("tmux: %v\n%s", err, out)
	}
	s.t.Cleanup(func() { exec.Command("tmux", "-L", ts.socket, "kill-server").Run() })
	return ts
}

func readTrace(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// lastRequest is the id of the last request of method in a trace of
// JSON-RPC lines, of tool when it is a tools/call ("" when none).
func lastRequest(trace, method, tool string) string {
	id := ""
	sc := bufio.NewScanner(strings.NewReader(trace))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage
			Method string
			Params struct{ Name string }
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.Method == method && (tool == "" || m.Params.Name == tool) {
			id = string(m.ID)
		}
	}
	return id
}

// answered says whether a trace holds the response of the request id.
func answered(trace, id string) bool {
	sc := bufio.NewScanner(strings.NewReader(trace))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage
			Method string
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.Method == "" && string(m.ID) == id {
			return true
		}
	}
	return false
}
