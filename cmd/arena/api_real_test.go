package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
)

// A protocol run through an OpenAI-compatible server nobody here wrote:
// @dwmkerr/mock-llm from npm (scripts/mock-llm installs it; scripts/test
// runs it and sets ARENA_MOCK_LLM), an Express server that streams Chat
// Completions as OpenAI's own TypeScript types describe them, answering by
// rules that match the request. No real model server can be had here (they
// need model weights), so this is the outside check on the API fake: the
// same client code, against another's idea of the stream (no usage chunk,
// the role in the first content delta, the finish reason on the last).

func mockLLM(t *testing.T) string {
	t.Helper()
	clitest.SkipShort(t)
	dir := os.Getenv("ARENA_MOCK_LLM")
	if dir == "" {
		if os.Getenv("ARENA_REQUIRE_MOCK_LLM") != "" {
			t.Fatal("ARENA_REQUIRE_MOCK_LLM is set but ARENA_MOCK_LLM is not")
		}
		t.Skip("mock-llm is not installed: scripts/mock-llm installs it from npm, and ARENA_MOCK_LLM names its directory (scripts/test does both)")
	}
	bin := filepath.Join(dir, "node_modules", ".bin", "mock-llm")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("ARENA_MOCK_LLM=%s holds no mock-llm: %v", dir, err)
	}
	return bin
}

// mockLLMRules answer the verdict's quick judge with an accept, streamed
// in pieces of 40 characters.
const mockLLMRules = `streaming:
  chunkSize: 40
  chunkIntervalMs: 5
rules:
  - path: "/v1/chat/completions"
    match: "contains(body.messages[-1].content, 'REPLY SHAPE: verdict.quick')"
    response:
      status: 200
      content: |
        {
          "id": "chatcmpl-mock",
          "object": "chat.completion",
          "model": "{{jmes request body.model}}",
          "choices": [{
            "message": {"role": "assistant", "content": "{\"verdict\": \"accept\", \"scores\": {\"semantic\": 5, \"pragmatic\": 4, \"syntactic\": 5}, \"reasoning\": \"the document says what GET /users returns\", \"improvements\": []}"},
            "finish_reason": "stop"
          }]
        }
  - path: "/v1/models"
    method: "GET"
    response:
      status: 200
      content: '{"object": "list", "data": [{"id": "gpt-4o-mini", "object": "model", "owned_by": "mock"}]}'
`

// startMockLLM starts the server on a free port of the loopback and
// waits for its health check; it is stopped when the test ends.
func startMockLLM(t *testing.T, bin string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	rules := filepath.Join(t.TempDir(), "mock-llm.yaml")
	if err := os.WriteFile(rules, []byte(mockLLMRules), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config", rules)
	cmd.Env = append(os.Environ(), "HOST=127.0.0.1", fmt.Sprintf("PORT=%d", port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	ctx, cancel := context.WithTimeout(context.Background(), loadedMachine)
	defer cancel()
	for ctx.Err() == nil {
		if res, err := http.Get(base + "/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return base + "/v1"
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatalf("mock-llm did not answer its health check on %s", base)
	return ""
}

func TestVerdictThroughARealServer(t *testing.T) {
	bin := mockLLM(t)
	s := newSandbox(t)
	url := startMockLLM(t, bin)
	s.writeConfig(fmt.Sprintf("verdict: {quick: mock, deep: mock}\nagents:\n  mock: {api: openai, base_url: %s, model: gpt-4o-mini}\n", url))
	if err := os.WriteFile(filepath.Join(s.dir, "report.md"), []byte("# API\n\nGET /users returns the users.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := s.run("verdict", "--no-tui", "report.md", "--task-id", "issue-31", "--task", "document the API")
	lc := s.onlyLog()
	o := outcomeOf(t, lc)
	if r.code != 0 || o.Result != "accept" {
		t.Fatalf("exit %d, outcome %s\n%s\n%s", r.code, o.Result, r.stdout, r.stderr)
	}
	chunks := 0
	for _, e := range lc.Events {
		if _, ok := e.Payload.(engine.Chunk); ok {
			chunks++
		}
	}
	if chunks < 3 || !strings.Contains(o.Markdown, "| mock | 1 | 0 |") || !strings.Contains(o.Markdown, "not reported") {
		t.Fatalf("%d chunks; the outcome:\n%s", chunks, o.Markdown)
	}
	// doctor --probe lists the model the server serves.
	d := s.run("doctor", "--probe")
	if !strings.Contains(d.stdout, "it lists gpt-4o-mini (of 1 model)") {
		t.Fatalf("doctor:\n%s", d.stdout)
	}
}
