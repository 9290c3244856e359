package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/cmd/arena/mcpserver"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/adversarial"
	"github.com/arenadebate/arena/engine/compare"
	"github.com/arenadebate/arena/engine/judge"
	"github.com/arenadebate/arena/engine/rank"
	"github.com/arenadebate/arena/engine/verdict"
)

// arena mcp: the protocols as Model Context Protocol tools
// (cmd/arena/mcpserver), over stdio or Streamable HTTP on loopback.

const mcpExitHelp = `Exit codes:
  0    the client closed the connection (or SIGINT, SIGTERM): every run was stopped first
  1    the server failed
  2    usage error (bad flag, config file, or an --http address that is not loopback)`

// envMCPHost names the agent whose CLI runs this server, as arena install
// registers it, for the self-preference guard.
const envMCPHost = "ARENA_MCP_HOST"

type mcpFlags struct {
	http    string
	maxRuns int
}

func init() {
	protocolCommands = append(protocolCommands, func(a *app, cf *commonFlags) *cobra.Command {
		var f mcpFlags
		cmd := &cobra.Command{
			Use:   "mcp [--http ADDR]",
			Short: "Serve the protocols as MCP tools to Claude Code, Codex, Gemini CLI",
			Long: `mcp serves arena's protocols as Model Context Protocol tools over stdio (or
Streamable HTTP on a loopback address with --http), for the agents you already
run: debate, compare, judge, verdict and rank start a run, run_status follows
it, cancel_run stops it, list_runs and read_outcome read the log directory.

Each run is the arena command a person would type, started by the server: it
checks its input and words its refusals as the command line does, and writes
its log as from the command line, so arena replay --follow LOG watches it live
and arena resume LOG carries an interrupted one on. A run tool follows its run
for up to wait_seconds (default 20, at most 50: hosts give a call about a
minute) and returns its outcome, or its run id and what happened so far;
progress notifications are sent while a call follows a run, and a client that
cancels the call stops the run (its log stays resumable).

When the calling agent is one of arena's agents (Claude Code is claude, Codex
is codex, Gemini CLI is gemini: told by the client's name, or by
ARENA_MCP_HOST, which arena install sets), it is kept out of the judging seats
of judge, verdict and compare as the work's author, and the result says so.

Register it with arena install claude|codex|gemini.`,
			Example: `  arena mcp                          # stdio, as the agents start it
  arena mcp --log-dir ~/arena-logs   # every run's log there
  arena mcp --http 127.0.0.1:8765    # Streamable HTTP at http://127.0.0.1:8765/mcp`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error { return a.runMCP(cmd, cf, &f) },
		}
		cmd.Flags().StringVar(&f.http, "http", "", "serve Streamable HTTP on this loopback address (host:port; port 0 picks one) instead of stdio")
		cmd.Flags().IntVar(&f.maxRuns, "max-runs", 4, "runs going on at once, at most")
		cmd.SetUsageTemplate(cmd.UsageTemplate() + "\n" + mcpExitHelp + "\n")
		return cmd
	})
}

func (a *app) runMCP(cmd *cobra.Command, cf *commonFlags, f *mcpFlags) error {
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return err
	}
	if f.maxRuns < 1 {
		return usagef("--max-runs must be at least 1, got %d", f.maxRuns)
	}
	var ln net.Listener
	if f.http != "" {
		if ln, err = listenLoopback(f.http); err != nil {
			return err
		}
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find arena's own binary to start runs with: %w", err)
	}
	dir, _ := os.Getwd()
	var passed []string
	for _, name := range []string{"config", "log-dir", "no-log"} {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
			passed = append(passed, "--"+name+"="+fl.Value.String())
		}
	}
	m := mcpserver.NewManager(mcpserver.Config{
		Arena: self, Args: passed, Dir: dir, Env: a.agentEnv, LogDir: s.DebateLogPath,
		Agents: slices.Sorted(maps.Keys(s.Agents)), Host: os.Getenv(envMCPHost),
		ExitMeanings: mcpExitMeanings(), ExitOf: exitOf, Version: version, MaxRuns: f.maxRuns,
	})
	defer m.StopAll() // nobody would see them end
	server := mcpserver.NewServer(m)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if ln != nil {
		return serveHTTP(ctx, ln, server, a.stderr)
	}
	in := a.stdin
	if a.stdinRead != nil {
		in = a.stdinRead.r // not recorded: this is the protocol, not a topic
	}
	err = server.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{a.stdout}})
	if err == nil || ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// listenLoopback listens on addr, which must be a loopback address: the
// tools spend the user's model calls and read their files, and the server
// has no authentication.
func listenLoopback(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, usagef("--http %s: %w (give host:port, e.g. 127.0.0.1:8765)", addr, err)
	}
	ip := net.ParseIP(host)
	if host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, usagef("--http %s: arena serves MCP on a loopback address only (127.0.0.1, ::1 or localhost): it has no authentication, and its tools spend your model calls", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, usagef("--http: %w", err)
	}
	return ln, nil
}

// serveHTTP serves Streamable HTTP at /mcp until ctx ends. The SDK
// refuses requests whose Host is not loopback (DNS rebinding); browsers'
// cross-origin requests are refused too.
func serveHTTP(ctx context.Context, ln net.Listener, server *mcp.Server, stderr io.Writer) error {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", http.NewCrossOriginProtection().Handler(h))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "arena mcp: serving on http://%s/mcp\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		return nil
	}
}

// exitOf is the exit code the command line gives a protocol's result.
func exitOf(protocol string, k engine.OutcomeKind) (int, bool) {
	switch protocol {
	case adversarial.Name:
		return debateExit(k), true
	case compare.Name:
		return compareExit(k), true
	case judge.Name:
		return judgeExit(k), true
	case verdict.Name:
		return verdictExit(k), true
	case rank.Name:
		return rankExit(k, nil, ""), true
	}
	return 0, false
}

// mcpExitMeanings are each run tool's exit codes, read from the --help
// text that documents them, so the two cannot drift apart.
func mcpExitMeanings() map[string]map[int]string {
	return map[string]map[int]string{
		"debate": parseExitHelp(debateExitHelp), "compare": parseExitHelp(compareExitHelp),
		"judge": parseExitHelp(judgeExitHelp), "verdict": parseExitHelp(verdictExitHelp),
		"rank": parseExitHelp(rankExitHelp),
	}
}

var exitLine = regexp.MustCompile(`^\s+(\d+)\s+(.*)$`)

func parseExitHelp(help string) map[int]string {
	out := map[int]string{}
	last := -1
	for _, line := range strings.Split(help, "\n") {
		if m := exitLine.FindStringSubmatch(line); m != nil {
			last, _ = strconv.Atoi(m[1])
			out[last] = strings.TrimSpace(m[2])
		} else if last >= 0 && strings.HasPrefix(line, "  ") {
			out[last] += " " + strings.TrimSpace(line)
		}
	}
	return out
}
