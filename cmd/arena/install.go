package main

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/settings/hostconfig"
)

// arena install claude|codex|gemini: register arena mcp with the agent CLI
// the way it registers MCP servers itself (what its own mcp add writes,
// checked against the real CLIs), and for Claude Code add the slash
// commands of the workflows arena grew from. Nothing arena did not write
// is replaced: an entry named arena that another hand wrote, a command
// file of the same name, a configuration arena cannot read back whole, or
// a symbolic link where it would write are refused, and said so.

//go:embed claude-plugin/commands/*.md
var claudeCommands embed.FS

var installExits = exits{
	{code: exitOK, means: "registered (or already registered as it would be)"},
	{code: exitError, means: "internal error"},
	{code: exitUsage, means: "usage error (no such CLI, a scope the CLI does not have)"},
	{code: exitRefused, means: "refused, nothing written for the CLI: an entry named arena that arena did not write,\na configuration arena cannot edit safely (comments, a symbolic link, not JSON or TOML)"},
}

const exitRefused = 3

type installFlags struct {
	dryRun bool
	scope  string
}

func (a *app) installCmd(cf *commonFlags) *cobra.Command {
	var f installFlags
	cmd := &cobra.Command{
		Use:   "install claude|codex|gemini [--dry-run] [--scope user|project]",
		Short: "Register arena's MCP server (and Claude Code's slash commands) with an agent CLI",
		Long: `install registers arena mcp with an agent CLI, as its own mcp add command would:
  claude   ~/.claude.json (or ./.mcp.json with --scope project), and the slash
           commands /debate, /judge-with-debate, /evaluate, /verdict and /llm-judge
           in ~/.claude/commands (./.claude/commands)
  codex    ~/.codex/config.toml ($CODEX_HOME/config.toml)
  gemini   ~/.gemini/settings.json (./.gemini/settings.json)

The entry runs this arena binary (arena mcp) and names the CLI's agent in
ARENA_MCP_HOST, which is how arena keeps the calling agent out of judging
seats, and how it knows the entry is its own. Gemini CLI and Codex keep API
keys from the servers they start: their entry passes the configured agents'
credential variables through, by name (never a value). Running install again updates
what it wrote. Nothing else is changed: an entry named arena, or a command
file, that arena did not write is left alone (and said so); a configuration
arena cannot read back whole (JSON with comments, say) or a symbolic link
where it would write is refused, with the CLI's own command to run instead.
--dry-run shows the change and writes nothing.

The same commands and server ship as a Claude Code plugin in this
repository (cmd/arena/claude-plugin, listed by .claude-plugin/marketplace.json).`,
		Example: `  arena install claude --dry-run
  arena install claude
  arena install codex
  arena install gemini --scope project`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return a.runInstall(cmd, cf, args[0], f) },
	}
	cmd.Flags().BoolVar(&f.dryRun, "dry-run", false, "show what would change, write nothing")
	cmd.Flags().StringVar(&f.scope, "scope", "user", "user (your home) or project (this directory)")
	return cmd
}

func (a *app) runInstall(cmd *cobra.Command, cf *commonFlags, name string, f installFlags) error {
	h, ok := hostconfig.Lookup(name)
	if !ok {
		return usagef("arena install %s: not a CLI arena installs into (claude, codex or gemini)", name)
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
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find arena's own binary to register: %w", err)
	}
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return err
	}
	pass := challengers.CredentialVars(s.Agents)
	verb := "registers"
	if f.dryRun {
		verb = "would register"
	}
	fmt.Fprintf(a.stdout, "arena install %s %s arena mcp with %s:\n", name, verb, h.Title)
	if err := a.installEntry(h, path, h.Entry(exe, pass), f.dryRun); err != nil {
		if errors.Is(err, errRefused) {
			fmt.Fprintf(a.stdout, "\nNothing was written. To register arena yourself: %s\n", h.AddCommand(exe, pass))
			return exitCode(exitRefused)
		}
		return err
	}
	a.installNotes(h, pass)
	if cdir := h.CommandsDir(f.scope, home, dir); cdir != "" {
		if err := a.installCommands(cdir, f.dryRun); err != nil {
			return err
		}
	}
	switch {
	case f.dryRun:
		fmt.Fprintln(a.stdout, "\n(dry run: nothing was written)")
	default:
		fmt.Fprintf(a.stdout, "\nRestart %s to load it. Its tools: debate, compare, judge, verdict, rank, run_status, cancel_run, list_runs, read_outcome.\n", h.Title)
	}
	return nil
}

var errRefused = errors.New("refused")

// installNotes says what the entry passes through, and why, and what to
// know about the CLI's trusted folders.
func (a *app) installNotes(h hostconfig.Host, pass []string) {
	if names := h.Passed(pass); len(names) > 0 {
		fmt.Fprintf(a.stdout, "  %s: the entry passes %s to arena by name (the values stay in your environment), for the seats that log in with them\n", h.Strips(), strings.Join(names, ", "))
	}
	if t := h.Trusted(); t != "" {
		fmt.Fprintf(a.stdout, "  %s\n", t)
	}
}

// installEntry registers the entry in the configuration at path.
func (a *app) installEntry(h hostconfig.Host, path string, entry hostconfig.Entry, dry bool) error {
	show := tildePath(path)
	refuse := func(format string, args ...any) error {
		fmt.Fprintf(a.stdout, "  %s: refused: %s\n", show, fmt.Sprintf(format, args...))
		return errRefused
	}
	before, mode, err := hostconfig.Read(path)
	switch {
	case errors.Is(err, hostconfig.ErrUnsafe):
		return refuse("%v", err)
	case err != nil:
		return err
	}
	after, state, err := h.Edit(before, entry)
	switch {
	case errors.Is(err, hostconfig.ErrNotOurs):
		return refuse("it has an MCP server named arena that arena install did not write (%v); remove or rename it, then run arena install again", strings.TrimPrefix(err.Error(), hostconfig.ErrNotOurs.Error()+": "))
	case err != nil:
		return refuse("%v", err)
	case state == hostconfig.Unchanged:
		fmt.Fprintf(a.stdout, "  %s: arena is registered already, as it would be (unchanged)\n", show)
		return nil
	}
	what, would := "registered the MCP server arena (arena mcp)", "would register the MCP server arena (arena mcp)"
	if state == hostconfig.Updated {
		what, would = "updated the entry arena wrote", "would update the entry arena wrote"
	}
	if dry {
		fmt.Fprintf(a.stdout, "  %s: %s\n%s", show, would, indent(hostconfig.Diff(show, before, after), "    "))
		return nil
	}
	if err := hostconfig.Replace(path, after, mode); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "  %s: %s\n", show, what)
	return nil
}

// installCommands writes the slash commands into dir, leaving alone a file
// of the same name that arena did not write.
func (a *app) installCommands(dir string, dry bool) error {
	entries, err := fs.ReadDir(claudeCommands, "claude-plugin/commands")
	if err != nil {
		return err
	}
	var d *trust.Dir // nil for a dry run
	if !dry {
		if d, err = trust.OpenDir(dir, true); err != nil {
			return err
		}
		defer d.Close()
	}
	for _, e := range entries {
		body, err := fs.ReadFile(claudeCommands, "claude-plugin/commands/"+e.Name())
		if err != nil {
			return err
		}
		c, err := hostconfig.PlanCommand(dir, e.Name(), body)
		if err != nil {
			return err
		}
		if err := a.installCommand(d, tildePath(filepath.Join(dir, e.Name())), c); err != nil {
			return err
		}
	}
	return nil
}

// installCommand writes a command file into d as planned (nothing when d
// is nil, a dry run), and says what it did to the file shown as show.
func (a *app) installCommand(d *trust.Dir, show string, c hostconfig.Command) error {
	switch {
	case c.State == hostconfig.CommandKept:
		fmt.Fprintf(a.stdout, "  %s: kept: %s (%s not installed)\n", show, c.Why, c.Slash)
		return nil
	case c.State == hostconfig.CommandUnchanged:
		fmt.Fprintf(a.stdout, "  %s: %s is there already (unchanged)\n", show, c.Slash)
		return nil
	case d == nil:
		fmt.Fprintf(a.stdout, "  %s: %s would be %s\n", show, c.Slash, c.State)
		return nil
	}
	if err := hostconfig.WriteCommand(d, c); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "  %s: %s %s\n", show, c.Slash, c.State)
	return nil
}

func tildePath(p string) string {
	home, _ := os.UserHomeDir()
	return hostconfig.Tilde(p, home)
}

func indent(s, pad string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pad + l
	}
	return strings.Join(lines, "\n") + "\n"
}
