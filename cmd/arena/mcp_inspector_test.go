package main

import (
	"context"
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
)

// arena mcp driven by a client nobody here wrote: the MCP Inspector's
// command-line mode (npm's @modelcontextprotocol/inspector), which starts
// the server for each call. scripts/mcp-tools installs it (scripts/test
// runs it and sets ARENA_MCP_TOOLS); without it these tests are skipped,
// and scripts/test says why.

func inspectorTools(t *testing.T) string {
	t.Helper()
	clitest.SkipShort(t)
	dir := os.Getenv("ARENA_MCP_TOOLS")
	if dir == "" {
		if os.Getenv("ARENA_REQUIRE_MCP_TOOLS") != "" {
			t.Fatal("ARENA_REQUIRE_MCP_TOOLS is set but ARENA_MCP_TOOLS is not")
		}
		t.Skip("the MCP Inspector is not installed: scripts/mcp-tools installs it from npm, and ARENA_MCP_TOOLS names its directory (scripts/test does both)")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".bin", "mcp-inspector")); err != nil {
		t.Fatalf("ARENA_MCP_TOOLS=%s holds no MCP Inspector: %v", dir, err)
	}
	return dir
}

// inspect runs the Inspector's CLI against arena mcp in the sandbox and
// decodes what it prints.
func (s *sandbox) inspect(tools string, args ...string) (map[string]any, string, error) {
	s.t.Helper()
	bin := filepath.Join(tools, "node_modules", ".bin")
	env := s.env("PATH=" + bin + string(os.PathListSeparator) + s.fakes.Dir + string(os.PathListSeparator) + os.Getenv("PATH"))
	// The Inspector starts a stdio server with a few variables only
	// (PATH, HOME, ...): the rest arena needs is passed with -e.
	var pass []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "ARENA_FAKE_") || strings.HasPrefix(k, "XDG_") || k == "NO_COLOR" || k == "PATH" || k == "HOME" {
			pass = append(pass, "-e", kv)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	argv := slices.Concat([]string{"--cli"}, pass, []string{"--cwd", s.dir, arenaBinary(s.t), "mcp"}, args)
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "mcp-inspector"), argv...)
	cmd.Dir, cmd.Env = s.dir, env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var v map[string]any
	if jerr := json.Unmarshal(out, &v); jerr != nil && err == nil {
		err = fmt.Errorf("not JSON: %w\n%s", jerr, out)
	}
	return v, stderr.String(), err
}

func TestInspectorListsEveryTool(t *testing.T) {
	t.Parallel()
	tools := inspectorTools(t)
	s := newSandbox(t)
	v, stderr, err := s.inspect(tools, "--method", "tools/list", "--strict")
	if err != nil {
		t.Fatalf("tools/list: %v\n%s", err, stderr)
	}
	var names []string
	for _, tool := range v["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	slices.Sort(names)
	want := []string{"cancel_run", "compare", "debate", "judge", "list_runs", "rank", "read_outcome", "resume_run", "run_status", "verdict"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	// --strict reports the schemas' portability problems on stderr.
	if strings.Contains(stderr, "Warning") || strings.Contains(stderr, "Error") {
		t.Fatalf("the Inspector finds the schemas unportable:\n%s", stderr)
	}
}

func TestInspectorRunsEveryProtocol(t *testing.T) {
	t.Parallel()
	tools := inspectorTools(t)
	for _, p := range mcpProtocols {
		t.Run(p.tool, func(t *testing.T) {
			t.Parallel()
			s := newSandbox(t)
			args := []string{"--method", "tools/call", "--tool-name", p.tool, "--tool-arg", "wait_seconds=50"}
			for k, v := range p.setup(s) {
				arg := fmt.Sprint(v)
				if _, ok := v.(string); !ok {
					b, _ := json.Marshal(v)
					arg = string(b)
				}
				args = append(args, "--tool-arg", k+"="+arg)
			}
			v, stderr, err := s.inspect(tools, args...)
			if err != nil {
				t.Fatalf("%s: %v\n%s", p.tool, err, stderr)
			}
			st, _ := v["structuredContent"].(map[string]any)
			o, _ := st["outcome"].(map[string]any)
			if v["isError"] == true || st["state"] != "finished" || o["result"] != p.result || o["exit_code"] != float64(p.code) {
				t.Fatalf("%s: %v", p.tool, v)
			}
			if lc := s.onlyLog(); !lc.Complete {
				t.Fatalf("%s: the log is not complete", p.tool)
			}
		})
	}
}
