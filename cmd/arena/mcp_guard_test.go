package main

import (
	"strings"
	"sync"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
)

// arena mcp as an attacker, or a careless client, would use it: calls
// that arrive together, lines that are not JSON-RPC, logs handed to it,
// a server killed outright.

// --max-runs holds however many calls arrive at once: 30 together under
// --max-runs 2 start two runs; the others are refused, saying how many go
// on and how to follow them, and leave no log.
func TestMCPMaxRunsHoldsUnderConcurrency(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Mode: clitest.ModeHang}}})
	ms := s.mcpWith("arena-test", []string{"--max-runs", "2"})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var started, refused []string
	for range 30 {
		wg.Go(func() {
			res, st := ms.call(bg(t), "debate", map[string]any{"topic": "should we move sessions from Redis to Postgres?", "wait_seconds": 0})
			mu.Lock()
			defer mu.Unlock()
			if res.IsError {
				refused = append(refused, textOf(res))
			} else {
				started = append(started, st.RunID)
			}
		})
	}
	wg.Wait()
	if len(started) != 2 || len(refused) != 28 {
		t.Fatalf("%d runs started under --max-runs 2 (%d refused): %v", len(started), len(refused), started)
	}
	if !strings.Contains(refused[0], "2 runs are going on already") || !strings.Contains(refused[0], "run_status") {
		t.Fatalf("the refusal: %s", refused[0])
	}
	if n := len(s.logs()); n != 2 { // a run announces its log before its call returns
		t.Fatalf("%d logs", n)
	}
}
