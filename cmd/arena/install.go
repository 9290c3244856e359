package main

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/settings/hostconfig"
	"github.com/arenadebate/arena/tui/mcpserver"
)

// arena install claude|codex|gemini|qwen: register arena mcp with the agent CLI
// the way it registers MCP servers itself (what its own mcp add writes,
// checked against the real CLIs), and for Claude Code add the slash
// commands of the workflows arena grew from. Nothing arena did not write
// is replaced: an entry named arena that another hand wrote, a command
// file of the same name, a configuration arena cannot read back whole, or
// a symbolic link where it would write are refused, and said so.

//go:embed claude-plugin/commands/*.md
var claudeCommands embed.FS

var installExits = exits{
	{Code: exitOK, Means: "registered (or already registered as it would be); with --uninstall, removed (or nothing to remove)"},
	{Code: exitError, Means: "internal error"},
	{Code: exitUsage, Means: "usage error (no such CLI, a scope the CLI does not have)"},
	{Code: exitRefused, Means: "refused, nothing written for the CLI: an entry named arena that arena did not write,\na configuration arena cannot edit safely (comments, a symbolic link, not JSON or TOML)"},
}

const exitRefused = 3

type installFlags struct {
	dryRun, uninstall bool
	scope             string
}

func (a *app) installCmd(cf *commonFlags) *cobra.Command {
	var f installFlags
	cmd := &cobra.Command{
		Use:   "install claude|codex|gemini|qwen [--dry-run] [--scope user|project] [--uninstall]",
		Short: "Register arena's MCP server (and Claude Code's slash commands) with an agent CLI",
		Long: `install registers arena mcp with an agent CLI, as its own mcp add command would:
  claude   ~/.claude.json (or ./.mcp.json with --scope project), and the slash
           commands /debate, /judge-with-debate, /evaluate, /verdict and /llm-judge
           in ~/.claude/commands (./.claude/commands)
  codex    ~/.codex/config.toml ($CODEX_HOME/config.toml)
  gemini   ~/.gemini/settings.json (./.gemini/settings.json)
  qwen     ~/.qwen/settings.json (./.qwen/settings.json)

The entry runs this arena binary (arena mcp) and names the CLI's agent in
ARENA_MCP_HOST, which is how arena keeps the calling agent out of judging
seats, and how it knows the entry is its own. Gemini CLI and Codex keep API
keys from the servers they start, and more: their entry passes the configured
agents' credential variables through, by name (never a value), and the
proxy, CA and base URL variables (HTTPS_PROXY, NO_PROXY, NODE_EXTRA_CA_CERTS,
SSL_CERT_FILE, OPENAI_BASE_URL...). Running install again updates
what it wrote. Nothing else is changed: an entry named arena, or a command
file, that arena did not write is left alone (and said so); a configuration
arena cannot read back whole (JSON with comments, say) or a symbolic link
where it would write is refused, with the CLI's own command to run instead.
--dry-run shows the change and writes nothing.

--uninstall removes what install wrote, and only that: the entry named arena
when it carries arena's marker (a configuration left holding nothing else
is removed), and the slash command files that still carry arena's marker
line. An entry or a file arena did not write stays, and is named.

The same commands and server ship as a Claude Code plugin in this
repository (cmd/arena/claude-plugin, listed by .claude-plugin/marketplace.json).`,
		Example: `  arena install claude --dry-run
  arena install claude
  arena install codex
  arena install gemini --scope project
  arena install qwen
  arena install claude --uninstall`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return a.runInstall(cmd, cf, args[0], f) },
	}
	cmd.Flags().BoolVar(&f.dryRun, "dry-run", false, "show what would change, write nothing")
	cmd.Flags().StringVar(&f.scope, "scope", "user", "user (your home) or project (this directory)")
	cmd.Flags().BoolVar(&f.uninstall, "uninstall", false, "remove what arena install wrote (the entry, the slash commands), nothing else")
	return cmd
}

func (a *app) runInstall(cmd *cobra.Command, cf *commonFlags, name string, f installFlags) error {
	h, ok := hostconfig.Lookup(name)
	if !ok {
		return usagef("arena install %s: not a CLI arena installs into (%s)", name, strings.Join(hostconfig.Names, ", "))
	}
	if f.scope != "user" && f.scope != "project" {
		return usagef("--scope %s: user or project", f.scope)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return fmt.Errorf("cannot find your home directory: %w", err)
	}
	dir, _ := os.Getwd()
	path, err := h.ConfigPath(f.scope, home, dir, os.Getenv)
	if err != nil {
		return usagef("%w", err)
	}
	// What install says quotes paths (the working directory's) and the
	// configuration's own lines: they reach the terminal cleaned.
	out := trust.Writer{W: a.stdout}
	// Everything install writes or removes lies beneath root, and no
	// directory below root is followed if it is a symbolic link.
	root := home
	if f.scope == "project" {
		root = dir
	}
	if f.uninstall {
		return a.runUninstall(out, h, f, path, home, dir, root)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find arena's own binary to register: %w", err)
	}
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return err
	}
	pass := passedVars(s.Agents)
	fmt.Fprintf(out, "arena install %s %s arena mcp with %s:\n", name, pick(f.dryRun, "would register", "registers"), h.Title)
	cdir := h.CommandsDir(f.scope, home, dir)
	err = nil
	if cdir != "" {
		err = hostconfig.CheckCommandsDir(out, root, cdir, home)
	}
	if err == nil {
		err = h.Register(out, path, home, root, h.Entry(exe, pass), f.dryRun)
	}
	if err != nil {
		if errors.Is(err, hostconfig.ErrRefused) {
			fmt.Fprintf(out, "\nNothing was written. To register arena yourself: %s\n", h.AddCommand(exe, pass))
			return exitCode(exitRefused)
		}
		return err
	}
	installNotes(out, h, pass)
	if cdir != "" {
		if err := hostconfig.InstallCommands(out, slashCommands(), cdir, home, root, f.dryRun); err != nil {
			return err
		}
	}
	switch {
	case f.dryRun:
		fmt.Fprintln(out, "\n(dry run: nothing was written)")
	default:
		tools := slices.Concat(a.protocolCommands(), mcpserver.FollowTools)
		fmt.Fprintf(out, "\nRestart %s to load it. Its tools: %s.\n", h.Title, strings.Join(tools, ", "))
	}
	return nil
}

// runUninstall removes what arena install wrote for the CLI h: its entry
// in the configuration at path, then the slash commands.
func (a *app) runUninstall(out io.Writer, h hostconfig.Host, f installFlags, path, home, dir, root string) error {
	fmt.Fprintf(out, "arena install %s --uninstall %s what arena install wrote for %s:\n", h.Name, pick(f.dryRun, "would remove", "removes"), h.Title)
	if err := h.Unregister(out, path, home, root, f.dryRun); err != nil {
		if errors.Is(err, hostconfig.ErrRefused) {
			fmt.Fprintf(out, "\nNothing was removed. If it is to go, the CLI removes it: %s\n", h.RemoveCommand(f.scope))
			return exitCode(exitRefused)
		}
		return err
	}
	if cdir := h.CommandsDir(f.scope, home, dir); cdir != "" {
		if err := hostconfig.UninstallCommands(out, slashCommands(), cdir, home, root, f.dryRun); err != nil {
			return err
		}
	}
	switch {
	case f.dryRun:
		fmt.Fprintln(out, "\n(dry run: nothing was removed)")
	default:
		fmt.Fprintf(out, "\nRestart %s: it no longer starts arena mcp.\n", h.Title)
	}
	return nil
}

// passedVars are the variables an entry passes by name where its CLI
// keeps them from arena mcp: the agents' credentials, and how the seats
// reach their models (proxies, CAs, base URLs).
func passedVars(agents map[string]challengers.Agent) []string {
	names := slices.Concat(challengers.CredentialVars(agents), hostconfig.NetworkVars)
	slices.Sort(names)
	return slices.Compact(names)
}

// slashCommands are the command files arena install writes for Claude Code.
func slashCommands() fs.FS {
	commands, _ := fs.Sub(claudeCommands, "claude-plugin/commands")
	return commands
}

// pick is yes when cond holds, else no.
func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

// installNotes says what the entry passes through, and why, and what to
// know about the CLI's trusted folders.
func installNotes(out io.Writer, h hostconfig.Host, pass []string) {
	if names := h.Passed(pass); len(names) > 0 {
		fmt.Fprintf(out, "  %s: the entry passes %s to arena by name (the values stay in your environment), for the seats that log in with them or reach their models through a proxy or a company CA\n", h.Strips(), strings.Join(names, ", "))
	}
	if t := h.Trusted(); t != "" {
		fmt.Fprintf(out, "  %s\n", t)
	}
}
