package hostconfig

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Host is an agent CLI arena registers with: where its configuration is,
// in what form, and the CLI's own command doing the same registration
// (what its mcp add writes was checked against the real CLIs).
type Host struct {
	Name, Title string
	toml        bool   // config.toml, not JSON
	typed       bool   // the entry names its transport (type: stdio)
	user        string // the configuration for the user, under the home directory
	userVar     string // a variable naming the directory of the user's configuration instead
	project     string // for the project, under its directory; "" if none
	commands    bool   // it takes arena's slash commands
	add         string // its mcp add command: HostEnv, then arena's path
}

var hosts = map[string]Host{
	"claude": {Name: "claude", Title: "Claude Code", typed: true, commands: true,
		user: ".claude.json", project: ".mcp.json",
		add: "claude mcp add --scope user -e %s=claude arena -- %s mcp"},
	"codex": {Name: "codex", Title: "Codex", toml: true,
		user: filepath.Join(".codex", "config.toml"), userVar: "CODEX_HOME",
		add: "codex mcp add --env %s=codex arena -- %s mcp"},
	"gemini": {Name: "gemini", Title: "Gemini CLI",
		user: filepath.Join(".gemini", "settings.json"), project: filepath.Join(".gemini", "settings.json"),
		add: "gemini mcp add --scope user -e %s=gemini arena %s mcp"},
}

// Lookup is the agent CLI of that name.
func Lookup(name string) (Host, bool) {
	h, ok := hosts[name]
	return h, ok
}

// ErrNoProjectScope is a CLI that registers MCP servers for the user only.
var ErrNoProjectScope = errors.New("registers MCP servers for the user only")

// ConfigPath is the CLI's configuration for scope (user or project):
// under home, or the project's directory dir. getenv reads the variable
// that moves it, Codex's CODEX_HOME.
func (h Host) ConfigPath(scope, home, dir string, getenv func(string) string) (string, error) {
	switch {
	case scope != "project" && h.userVar != "" && getenv(h.userVar) != "":
		return filepath.Join(getenv(h.userVar), filepath.Base(h.user)), nil
	case scope != "project":
		return filepath.Join(home, h.user), nil
	case h.project == "":
		return "", fmt.Errorf("%s %w (~/%s): leave out --scope project", h.Name, ErrNoProjectScope, h.user)
	}
	return filepath.Join(dir, h.project), nil
}

// CommandsDir is where arena's slash commands go for scope, or "" if the
// CLI takes none.
func (h Host) CommandsDir(scope, home, dir string) string {
	switch {
	case !h.commands:
		return ""
	case scope == "project":
		return filepath.Join(dir, ".claude", "commands")
	}
	return filepath.Join(home, ".claude", "commands")
}

// Entry is the entry registering arena mcp, run by the arena at exe.
func (h Host) Entry(exe string) Entry {
	e := Entry{Command: exe, Args: []string{"mcp"}, Env: map[string]string{HostEnv: h.Name}}
	if h.typed {
		e.Type = "stdio"
	}
	return e
}

// Edit registers e in the CLI's configuration doc, as EditJSON does.
func (h Host) Edit(doc []byte, e Entry) ([]byte, State, error) {
	if h.toml {
		return EditTOML(doc, e)
	}
	return EditJSON(doc, "mcpServers", "arena", e)
}

// AddCommand is the CLI's own command registering the arena at exe, for
// the person to run when arena will not edit the file.
func (h Host) AddCommand(exe string) string {
	return fmt.Sprintf(h.add, HostEnv, shellWord(exe))
}

// shellWord quotes a word for a shell when it needs it.
func shellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
