package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
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

// rawMCP is arena mcp over stdio spoken to line by line.
type rawMCP struct {
	t   *testing.T
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func (s *sandbox) rawMCP(flags ...string) *rawMCP {
	s.t.Helper()
	cmd := exec.Command(arenaBinary(s.t), append([]string{"mcp"}, flags...)...)
	cmd.Dir, cmd.Env = s.dir, s.env()
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	m := &rawMCP{t: s.t, cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	m.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	m.reply()
	m.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return m
}

func (m *rawMCP) send(line string) {
	m.t.Helper()
	if _, err := io.WriteString(m.in, line+"\n"); err != nil {
		m.t.Fatalf("write %.60q: %v", line, err)
	}
}

// reply reads the next line the server writes.
func (m *rawMCP) reply() map[string]any {
	m.t.Helper()
	line, err := m.out.ReadBytes('\n')
	if err != nil {
		m.t.Fatalf("the server wrote no reply: %v (exit %v)", err, m.cmd.Wait())
	}
	var v map[string]any
	if err := json.Unmarshal(line, &v); err != nil {
		m.t.Fatalf("reply %q: %v", line, err)
	}
	return v
}

// One line that is not a JSON-RPC message gets a JSON-RPC error, and the
// server answers the next request; only the end of stdin ends it, cleanly.
func TestMCPAnswersMalformedLinesAndCarriesOn(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	m := s.rawMCP()
	for i, c := range []struct {
		line string
		id   any
	}{
		{"[]", nil},
		{"null", nil},
		{"42", nil},
		{"not json at all", nil},
		{`{"jsonrpc":"2.0","id":1} {"jsonrpc":"2.0","id":2}`, nil},
		{`{"jsonrpc":"1.0","id":"old","method":"ping"}`, "old"},
		{`{"id":"bare","method":"ping"}`, "bare"},
		{`{"jsonrpc":"2.0","id":{"an":"object"},"method":"ping"}`, nil},
		{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, nil},
		{`{"jsonrpc":"2.0","id":7,"method":42}`, 7.0},
		{`[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","id":"b2","method":"ping"}]`, nil},
		{`{"jsonrpc":"2.0","method":"ping","id":"` + strings.Repeat("x", 17<<20) + `"}`, nil},
	} {
		m.send(c.line)
		r := m.reply()
		if e, _ := r["error"].(map[string]any); e == nil || r["id"] != c.id {
			t.Fatalf("%.80q: %v", c.line, r)
		}
		ping := fmt.Sprintf("ping-%d", i)
		m.send(`{"jsonrpc":"2.0","id":"` + ping + `","method":"ping"}`)
		if r := m.reply(); r["id"] != ping || r["error"] != nil {
			t.Fatalf("after %.80q, the ping: %v", c.line, r)
		}
	}
	m.in.Close()
	if err := m.cmd.Wait(); err != nil {
		t.Fatalf("the end of stdin: %v", err)
	}
}

// A server killed outright (SIGKILL: no chance to stop its runs) leaves
// every run it started with an interrupted outcome in its log: the runs
// notice their parent is gone and end as Ctrl+C would, and no agent is
// left behind.
func TestMCPKilledServerLeavesEveryRunInterrupted(t *testing.T) {
	t.Parallel()
	const runs = 12
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Mode: clitest.ModeHang}}})
	m := s.rawMCP("--max-runs", fmt.Sprint(runs))
	for i := range runs {
		m.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"debate","arguments":{"topic":"should we move sessions from Redis to Postgres?","wait_seconds":0}}}`, i))
	}
	for range runs {
		if r := m.reply(); r["error"] != nil {
			t.Fatalf("%v", r)
		}
	}
	waitUntil(t, loadedMachine, "every run at its hanging call", func() bool {
		n := 0
		for _, c := range completeCalls(t, s) {
			if c.Agent == "gemini" && c.Kind == "critique" {
				n++
			}
		}
		return n == runs
	})
	m.cmd.Process.Kill()
	m.cmd.Wait()
	waitUntil(t, loadedMachine, "every run to write its outcome", func() bool {
		for _, p := range s.logs() {
			if lc, err := runlog.ReadFile(p); err != nil || !lc.Complete {
				return false
			}
		}
		return true
	})
	for _, p := range s.logs() {
		lc, _ := runlog.ReadFile(p)
		if o := outcomeOf(t, lc); o.Result != engine.OutcomeInterrupted {
			t.Errorf("%s: %s", p, o.Result)
		}
	}
	assertNoSurvivors(t, s)
}

// read_outcome returns only what arena wrote for the run: a log (which
// anyone can hand over) that names a file of the user's as its report,
// with or without the file's hash, by path, by a hard or a symbolic link
// in the log's own directory, gets none of the file back; nor does asking
// for the file as a log.
func TestMCPReadOutcomeReturnsOnlyWhatArenaWrote(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	const secret = "sk-SECRET-of-the-user"
	auth := s.writeHome(".codex/auth.json", `{"tokens": {"access_token": "`+secret+`"}}`+"\n")
	sum := sha256.Sum256([]byte(readFile(t, auth)))
	hash := hex.EncodeToString(sum[:])
	if r := s.run("compare", "--no-tui", "which queue?", "--option", "A", "--option", "B"); r.code != 0 {
		t.Fatalf("compare: %d %s", r.code, r.stderr)
	}
	genuine := readFile(t, s.logs()[0])
	dir := filepath.Dir(s.logs()[0])
	os.Link(auth, filepath.Join(dir, "hard.json"))
	os.Symlink(auth, filepath.Join(dir, "soft.json"))
	forge := func(name, path, hash string) string {
		line := fmt.Sprintf(`{"seq":9999,"t":"2026-01-01T00:00:00Z","type":"saved","data":{"what":"ranking report","path":%q,"sha256":%q}}`, path, hash)
		p := filepath.Join(dir, name+".jsonl")
		if err := os.WriteFile(p, []byte(genuine+line+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ms := s.mcp("arena-test")
	for _, log := range []string{
		forge("by-path", auth, ""),
		forge("by-path-and-hash", auth, hash),
		forge("by-hard-link", filepath.Join(dir, "hard.json"), hash),
		forge("by-symlink", filepath.Join(dir, "soft.json"), hash),
	} {
		res, st := ms.call(bg(t), "read_outcome", map[string]any{"log": log})
		b, _ := json.Marshal(res)
		if res.IsError || st.Outcome == nil || strings.Contains(string(b), secret) {
			t.Fatalf("%s: %s", filepath.Base(log), b)
		}
	}
	res, _ := ms.call(bg(t), "read_outcome", map[string]any{"log": auth})
	if b, _ := json.Marshal(res); !res.IsError || strings.Contains(string(b), secret) || strings.Contains(string(b), "tokens") {
		t.Fatalf("the file as a log: %s", b)
	}
}
