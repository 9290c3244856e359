package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/settings/hostconfig"
	"github.com/arenadebate/arena/tui/mcpserver"
)

// arena mcp: the protocols as Model Context Protocol tools
// (tui/mcpserver), over stdio or Streamable HTTP on loopback.

var mcpExits = exits{
	{Code: exitOK, Means: "the client closed the connection (or SIGINT, SIGTERM): every run was stopped first"},
	{Code: exitError, Means: "the server failed"},
	{Code: exitUsage, Means: "usage error (bad flag, config file, or an --http address that is not loopback)"},
}

// envMCPHost names the agent whose CLI runs this server, as arena install
// registers it, for the self-preference guard.
const envMCPHost = hostconfig.HostEnv

type mcpFlags struct {
	http        string
	tokenFile   string
	maxRuns     int
	maxSessions int
	sessionIdle time.Duration
	bodyTimeout time.Duration
}

func (a *app) mcpCmd(cf *commonFlags) *cobra.Command {
	var f mcpFlags
	cmd := &cobra.Command{
		Use:   "mcp [--http ADDR [--token-file FILE]]",
		Short: "Serve the protocols as MCP tools to Claude Code, Codex, Gemini CLI",
		Long: `mcp serves arena's protocols as Model Context Protocol tools over stdio (or
Streamable HTTP on a loopback address with --http), for the agents you already
run: debate, compare, judge, verdict and rank start a run, run_status follows
it, cancel_run stops it, resume_run carries an interrupted one on (as arena
resume, refusing what it refuses), list_runs and read_outcome read the log
directory.

Each run is the arena command a person would type, started by the server: it
checks its input and words its refusals as the command line does, and writes
its log as from the command line, so arena replay --follow LOG watches it live
and arena resume LOG carries an interrupted one on. A run tool answers at once
with its run id (hosts time tool calls out, Codex after 60 s); run_status
follows the run for up to wait_seconds (default 20, at most 50) and answers
with what happened so far, then with its outcome. Progress notifications are
sent while a call follows a run. A client that cancels the call stops the run
(its log stays resumable), as does a session that ends (stdin closed, an HTTP
session closed or idle for --session-idle); a call cancelled because the host's
tool timeout passed leaves the run going.

Over HTTP every request must carry a secret, Authorization: Bearer TOKEN: any
user of the machine can reach a loopback port. The token is in --token-file
(default ~/.local/state/arena/mcp-token, made 0600 if missing): any printable
secret of 32 bytes or more (openssl rand -hex 32 > FILE makes one), in a file
of yours that no other user may read or write. arena mcp --http prints how to
register the server with each CLI, which reads the token from ARENA_MCP_TOKEN
as it starts: no configuration file or command line holds it.

When the calling agent is one of arena's agents (Claude Code is claude, Codex
is codex, Gemini CLI is gemini: told by the client's name, or by
ARENA_MCP_HOST, which arena install sets), it is kept out of the judging seats
of judge, verdict and compare as the work's author, and the result says so.

Register it with arena install claude|codex|gemini|qwen.`,
		Example: `  arena mcp                          # stdio, as the agents start it
  arena mcp --log-dir ~/arena-logs   # every run's log there
  arena mcp --http 127.0.0.1:8765    # Streamable HTTP at http://127.0.0.1:8765/mcp`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runMCP(cmd, cf, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.http, "http", "", "serve Streamable HTTP on this loopback address (host:port; port 0 picks one) instead of stdio")
	fl.StringVar(&f.tokenFile, "token-file", "", "with --http: the file holding the Bearer token every request must carry, 32 printable bytes or more, yours and private (made 0600 if missing; default: mcp-token in arena's state directory)")
	fl.IntVar(&f.maxRuns, "max-runs", 4, "runs going on at once, at most")
	fl.IntVar(&f.maxSessions, "max-sessions", 32, "with --http: sessions open at once, at most")
	fl.DurationVar(&f.sessionIdle, "session-idle", 30*time.Minute, "with --http: close a session no request came for in this long, and stop its runs")
	fl.DurationVar(&f.bodyTimeout, "body-timeout", 30*time.Second, "with --http: the time a request's body may take to arrive")
	_ = fl.MarkHidden("body-timeout") // for the tests of a stalled body
	return cmd
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
		if ln, err = mcpserver.ListenLoopback(f.http); err != nil {
			return usagef("--http %w", err)
		}
		defer ln.Close()
	}
	m, err := a.mcpManager(cmd, cf, s, f.maxRuns)
	if err != nil {
		return err
	}
	defer m.StopAll() // nobody would see them end
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if ln != nil {
		return a.serveMCPHTTP(ctx, ln, m, f)
	}
	in := a.stdin
	if a.stdinRead != nil {
		in = a.stdinRead.r // not recorded: this is the protocol, not a topic
	}
	err = mcpserver.NewServer(m).Run(ctx, mcpserver.Stdio(in, a.stdout))
	if err == nil || ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// mcpManager is the manager of the runs the server starts: each the
// arena binary, with the server's own flags, directory and environment.
func (a *app) mcpManager(cmd *cobra.Command, cf *commonFlags, s *settings.Settings, maxRuns int) (*mcpserver.Manager, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find arena's own binary to start runs with: %w", err)
	}
	dir, _ := os.Getwd()
	// Every run gets the server's own config file and log directory.
	own := mcpserver.Own{NoLog: cf.noLog}
	if cmd.Flags().Changed("config") {
		own.Config = cf.config
	}
	if cmd.Flags().Changed("log-dir") {
		own.LogDir = cf.logDir
	}
	return mcpserver.NewManager(mcpserver.Config{
		Arena: self, Own: own, Dir: dir, Env: a.agentEnv, Credentials: passedVars(s.Agents), LogDir: s.DebateLogPath, OtherLogDirs: s.LogDirs(a.env)[1:],
		Agents: slices.Sorted(maps.Keys(s.Agents)), Host: os.Getenv(envMCPHost),
		Tools: a.mcpTools(), Version: buildVersion(), MaxRuns: maxRuns,
		Budget: mcpserver.Budget{MaxCost: s.MaxCostUSD, MaxCalls: s.MaxCalls, MaxTokens: int(s.MaxTokens)},
	}), nil
}

// serveMCPHTTP serves HTTP on ln with the user's token, once it has said
// where and how to register the server with each CLI.
func (a *app) serveMCPHTTP(ctx context.Context, ln net.Listener, m *mcpserver.Manager, f *mcpFlags) error {
	path := f.tokenFile
	if path == "" {
		path = a.mcpTokenPath()
	}
	if path == "" {
		return errors.New("no home directory is known to keep the token in: give --token-file")
	}
	token, err := mcpserver.Token(path, true)
	if err != nil {
		return usageCause(err, "%v", err)
	}
	url := mcpserver.URL(ln)
	fmt.Fprintf(a.stderr, "arena mcp: serving on %s\n", url)
	fmt.Fprintf(a.stderr, "arena mcp: every request must carry Authorization: Bearer with the token in %s\n", path)
	fmt.Fprintf(a.stderr, "arena mcp: register it (each CLI reads the token from %s as it starts: no configuration file or command line holds it):\n", hostconfig.TokenEnv)
	for _, name := range []string{"claude", "gemini", "codex"} {
		h, _ := hostconfig.Lookup(name)
		fmt.Fprintf(a.stderr, "  %s\n", strings.ReplaceAll(h.AddHTTPCommand(url), "\n", "\n    "))
	}
	fmt.Fprintf(a.stderr, "%s%s=\"$(cat %s)\" claude (or gemini, codex; without it they get 401 and show no arena tools, and Codex no error unless arena is required)\n", mcpStartLine, hostconfig.TokenEnv, engine.ShellWord(path))
	return mcpserver.ServeHTTP(ctx, ln, m, mcpserver.HTTPOptions{
		Token: token, MaxSessions: f.maxSessions, SessionIdle: f.sessionIdle, BodyTimeout: f.bodyTimeout,
	})
}

// mcpStartLine begins the last line arena mcp --http writes before it
// serves: how to start a CLI with the token.
const mcpStartLine = "arena mcp: then start each with the token in its environment: "

// mcpTokenPath is where arena mcp --http keeps its token by default, in
// arena's state directory beside the log key ("" when no home is known).
func (a *app) mcpTokenPath() string {
	if dir := settings.StateDir(a.env); dir != "" {
		return filepath.Join(dir, "mcp-token")
	}
	return ""
}
