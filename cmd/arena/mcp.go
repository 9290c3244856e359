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
	"slices"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/arenadebate/arena/engine/mcpserver"
	"github.com/arenadebate/arena/settings/hostconfig"
)

// arena mcp: the protocols as Model Context Protocol tools
// (cmd/arena/mcpserver), over stdio or Streamable HTTP on loopback.

var mcpExits = exits{
	{code: exitOK, means: "the client closed the connection (or SIGINT, SIGTERM): every run was stopped first"},
	{code: exitError, means: "the server failed"},
	{code: exitUsage, means: "usage error (bad flag, config file, or an --http address that is not loopback)"},
}

// envMCPHost names the agent whose CLI runs this server, as arena install
// registers it, for the self-preference guard.
const envMCPHost = hostconfig.HostEnv

type mcpFlags struct {
	http    string
	maxRuns int
}

func (a *app) mcpCmd(cf *commonFlags) *cobra.Command {
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
	tools, err := mcpTools(cmd.Root())
	if err != nil {
		return err
	}
	env := a.agentEnv
	if env == nil {
		env = os.Environ()
	}
	m := mcpserver.NewManager(mcpserver.Config{
		Arena: self, Args: passed, Dir: dir, Env: withoutEmptyCredentials(env, credentialVars(s.Agents)), LogDir: s.DebateLogPath,
		Agents: slices.Sorted(maps.Keys(s.Agents)), Host: os.Getenv(envMCPHost),
		Tools: tools, Version: version, MaxRuns: f.maxRuns,
		Budget: mcpserver.Budget{MaxCost: s.MaxCostUSD, MaxCalls: s.MaxCalls, MaxTokens: int(s.MaxTokens)},
	})
	defer m.StopAll() // nobody would see them end
	server := mcpserver.NewServer(m)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if ln != nil {
		return mcpserver.ServeHTTP(ctx, ln, server, a.stderr)
	}
	in := a.stdin
	if a.stdinRead != nil {
		in = a.stdinRead.r // not recorded: this is the protocol, not a topic
	}
	err = server.Run(ctx, mcpserver.Stdio(in, a.stdout))
	if err == nil || ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// withoutEmptyCredentials is env without the agents' credential variables
// that came empty or unexpanded: Gemini CLI hands a server an entry's
// ${NAME} as "" when its own environment has no NAME (arena install writes
// one for every credential), and a seat may take an empty key for a key.
func withoutEmptyCredentials(env, creds []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if slices.Contains(creds, k) && (strings.TrimSpace(v) == "" || v == "${"+k+"}" || v == "$"+k) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// tool is a protocol's MCP tool: what of its command an agent may set.
// Its inputs are the command's own flags, drawn from the command (their
// names, types and descriptions), and the positional inputs it declares.
type tool struct {
	about string
	// inputs are its positional inputs (the topic, the files), in the
	// order they go on the command line.
	inputs []mcpserver.Param
	// flags are the command's flags it takes; the budget's are added to
	// every tool.
	flags []toolFlag
	// fixed are flags every call gets (--no-tui).
	fixed []string
	guard mcpserver.Guard
}

// toolFlag is a flag a tool takes. Its input is named after it (max-rounds:
// max_rounds) and described by its help, unless name or about say
// otherwise (where the command line's words do not fit an agent).
type toolFlag struct {
	flag, name, about string
	required          bool
	enum              []string
	// list: a comma-separated string on the command line, an array here.
	list bool
}

// budgetParams are the inputs of the budget every run tool takes: their
// flags take "2.50" and "200k" on the command line, and numbers here.
var budgetParams = []mcpserver.Param{
	{Name: "max_cost", Flag: "max-cost", Type: mcpserver.Number, About: "stop the run before a call once this many US dollars are spent (only claude's CLI reports a cost: other seats count against max_calls and max_tokens)"},
	{Name: "max_calls", Flag: "max-calls", Type: mcpserver.Int, About: "stop the run before a call once this many model calls are made"},
	{Name: "max_tokens", Flag: "max-tokens", Type: mcpserver.Int, About: "stop the run before a call once this many tokens (in and out) are used"},
}

// mcpTools are the protocols' run tools, drawn from their commands under
// root.
func mcpTools(root *cobra.Command) ([]mcpserver.Tool, error) {
	var out []mcpserver.Tool
	for _, p := range protocols() {
		cmd, _, err := root.Find([]string{p.command})
		if err != nil || cmd == root {
			return nil, fmt.Errorf("the %s protocol has no command %q", p.name, p.command)
		}
		params, err := p.tool.params(cmd)
		if err != nil {
			return nil, err
		}
		out = append(out, mcpserver.Tool{
			Name: p.command, Protocol: p.name, Description: p.tool.about, Command: []string{p.command},
			Params: params, Fixed: p.tool.fixed, Exits: p.exits.meanings(), ExitOf: p.exits.code, Guard: p.tool.guard,
		})
	}
	return out, nil
}

// params are the tool's inputs: its positional ones, then one per flag it
// takes, then the budget's.
func (t tool) params(cmd *cobra.Command) ([]mcpserver.Param, error) {
	params := slices.Clone(t.inputs)
	for _, tf := range t.flags {
		f := cmd.Flag(tf.flag)
		if f == nil {
			return nil, fmt.Errorf("arena %s has no flag --%s for its MCP tool", cmd.Name(), tf.flag)
		}
		p := mcpserver.Param{Name: tf.name, About: tf.about, Type: flagType(f), Flag: tf.flag, Required: tf.required, Enum: tf.enum}
		if tf.list {
			p.Type = mcpserver.List
		}
		if p.Name == "" {
			p.Name = strings.ReplaceAll(tf.flag, "-", "_")
		}
		if p.About == "" {
			p.About = agentWords(f.Usage)
		}
		params = append(params, p)
	}
	return append(params, budgetParams...), nil
}

// flagType is the input type of a flag's value.
func flagType(f *pflag.Flag) mcpserver.Type {
	switch f.Value.Type() {
	case "bool":
		return mcpserver.Bool
	case "int", "int64", "uint", "uint64":
		return mcpserver.Int
	case "float64":
		return mcpserver.Number
	case "stringSlice":
		return mcpserver.List
	case "stringArray":
		return mcpserver.Repeated
	}
	return mcpserver.String
}

// agentWords is a flag's help as an input's description: what is said of
// the flag itself (that it repeats, that it is required) is the schema's.
func agentWords(usage string) string {
	for _, cut := range []string{" (repeatable)", " (required)", ", comma-separated"} {
		usage = strings.ReplaceAll(usage, cut, "")
	}
	return usage
}
