package hostconfig

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Host is an agent CLI arena registers with: where its configuration is,
// in what form, and the CLI's own command doing the same registration
// (what its mcp add writes was checked against the real CLIs).
type Host struct {
	Name, Title string
	toml        bool    // config.toml, not JSON
	typed       bool    // the entry names its transport (type: stdio)
	user        string  // the configuration for the user, under the home directory
	userVar     string  // a variable naming the directory of the user's configuration instead
	project     string  // for the project, under its directory; "" if none
	commands    bool    // it takes arena's slash commands
	pass        passing // how the server gets the credentials in the CLI's environment
	// keep are variables of the CLI's environment the server needs besides
	// the agents' credentials, where the CLI strips them.
	keep []string
	// add is its mcp add command: the server's name, HostEnv, the flags
	// passing variables through (%[3]s), then arena's path (%[4]s).
	add string
	// addHTTP is its mcp add command for arena mcp --http at the URL,
	// which has the CLI read the token from TokenEnv when it starts: the
	// configuration it writes holds the variable's name, and the command
	// line no token (every local user can read a process's arguments).
	// Each was checked with the real CLI: Claude Code 2.1 and Gemini CLI
	// 0.61 expand ${VAR} in a header when they connect, Codex 0.171 reads
	// bearer_token_env_var.
	addHTTP string
	// httpThen is what to do after addHTTP that the command cannot do, if
	// anything.
	httpThen string
	// remove is its mcp remove command, for the scope (%[1]s) where the
	// CLI has scopes.
	remove  string
	trusted string // what to know about folders the CLI trusts, if anything
	strips  string // what the CLI keeps from a server's environment
}

// passing is how a CLI hands its environment to the MCP servers it
// starts, and so how the entry passes the agents' credentials through.
type passing int

const (
	// passAll: the server gets the CLI's whole environment (Claude Code).
	passAll passing = iota
	// passExpanded: the entry names each variable in its env as ${NAME},
	// which the CLI expands from its own environment. Gemini CLI 0.61
	// gives a server its environment without every variable whose name
	// holds KEY, TOKEN, SECRET, AUTH, CREDENTIAL... (sanitizeEnvironment,
	// redaction forced on for MCP servers), but expands the entry's own
	// env from its whole environment.
	passExpanded
	// passNames: the entry lists the variables in env_vars. Codex 0.169
	// gives a server only HOME, PATH, USER, SHELL, LANG, TERM, TMPDIR and
	// a few more, then the entry's env and the variables env_vars names.
	passNames
)

var hosts = map[string]Host{
	"claude": {Name: "claude", Title: "Claude Code", typed: true, commands: true,
		user: ".claude.json", project: ".mcp.json",
		// -e takes every word up to the next option (commander's variadic
		// <env...>): the server's name must come before it.
		add:     "claude mcp add --scope user arena -e %[1]s=%[2]s%[3]s -- %[4]s mcp",
		addHTTP: `claude mcp add --scope user --transport http arena %[1]s --header 'Authorization: Bearer ${%[2]s}'`,
		remove:  "claude mcp remove --scope %[1]s arena"},
	"codex": {Name: "codex", Title: "Codex", toml: true, pass: passNames,
		strips: "Codex gives the servers it starts only HOME, PATH, USER and a few more of its variables",
		user:   filepath.Join(".codex", "config.toml"), userVar: "CODEX_HOME",
		// arena's configuration and log key follow the XDG variables, and
		// a codex seat's login is under CODEX_HOME.
		keep:    []string{"CODEX_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"},
		add:     "codex mcp add --env %[1]s=%[2]s%[3]s arena -- %[4]s mcp",
		addHTTP: "codex mcp add arena --url %[1]s --bearer-token-env-var %[2]s",
		// Codex 0.171 started without the variable runs an optional
		// server's session without its tools, and says nothing (not even
		// in codex exec); a required server's missing variable stops it,
		// named: "Environment variable ARENA_MCP_TOKEN for MCP server
		// 'arena' is not set". codex mcp add has no flag for it.
		httpThen: "then, so that Codex says when %[1]s is missing (otherwise it shows no arena tools and no error), add this line to [mcp_servers.arena] in config.toml: required = true",
		remove:   "codex mcp remove arena"},
	"gemini": {Name: "gemini", Title: "Gemini CLI", pass: passExpanded,
		strips: "Gemini CLI keeps every variable named like a key, token, secret or credential from the servers it starts",
		user:   filepath.Join(".gemini", "settings.json"), project: filepath.Join(".gemini", "settings.json"),
		add:     "gemini mcp add --scope user -e %[1]s=%[2]s%[3]s arena %[4]s mcp",
		addHTTP: `gemini mcp add --scope user --transport http arena %[1]s -H 'Authorization: Bearer ${%[2]s}'`,
		remove:  "gemini mcp remove --scope %[1]s arena",
		trusted: "Gemini CLI starts MCP servers only in folders it trusts: elsewhere gemini mcp list shows arena as Disabled. Trust a folder when Gemini CLI asks (or with /permissions), or start it with --skip-trust."},
	// Qwen Code 0.24 writes what Gemini CLI does, and gives a server its
	// whole environment but its own daemon's tokens.
	"qwen": {Name: "qwen", Title: "Qwen Code",
		user: filepath.Join(".qwen", "settings.json"), project: filepath.Join(".qwen", "settings.json"),
		add:    "qwen mcp add --scope user -e %[1]s=%[2]s%[3]s arena %[4]s mcp",
		remove: "qwen mcp remove --scope %[1]s arena"},
}

// Names are the CLIs arena installs into, in the order help lists them.
var Names = []string{"claude", "codex", "gemini", "qwen"}

// NetworkVars are the variables that say how the seats reach their
// models: the proxies (both cases: curl and Node read the lower-case
// ones, Go and Rust either), the certificate authorities (a company's
// CA), and the base URLs the agents' CLIs read (claude's, codex's and
// qwen's, gemini's). Codex gives a server none of them and Gemini CLI
// strips every name holding CERT, and a proxy URL that carries a
// password: an entry passes them by name, as it passes the credentials,
// so a seat behind a proxy or a company CA works under every host.
var NetworkVars = []string{
	"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "no_proxy", "all_proxy",
	"NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR",
	"ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "GOOGLE_GEMINI_BASE_URL",
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

// Entry is the entry registering arena mcp, run by the arena at exe,
// passing the variables named in pass through (the agents' credentials)
// where the CLI would keep them from the server.
func (h Host) Entry(exe string, pass []string) Entry {
	e := Entry{Command: exe, Args: []string{"mcp"}, Env: map[string]string{HostEnv: h.Name}}
	if h.typed {
		e.Type = "stdio"
	}
	switch names := h.Passed(pass); h.pass {
	case passExpanded:
		for _, n := range names {
			e.Env[n] = "${" + n + "}"
		}
	case passNames:
		e.EnvVars = names
	}
	return e
}

// Passed are the variables the entry passes through: none where the
// CLI passes its whole environment; else those of pass and the CLI's
// keep, sorted, each once.
func (h Host) Passed(pass []string) []string {
	if h.pass == passAll {
		return nil
	}
	names := slices.Concat(pass, h.keep)
	slices.Sort(names)
	return slices.Compact(names)
}

// Trusted is what to know about the folders the CLI starts servers in
// ("" when nothing).
func (h Host) Trusted() string { return h.trusted }

// Strips says what the CLI keeps from the environment of the servers it
// starts ("" when nothing).
func (h Host) Strips() string { return h.strips }

// Edit registers e in the CLI's configuration doc, as EditJSON does.
func (h Host) Edit(doc []byte, e Entry) ([]byte, State, error) {
	if h.toml {
		return EditTOML(doc, e)
	}
	return EditJSON(doc, "mcpServers", "arena", e)
}

// AddCommand is the CLI's own command registering the arena at exe,
// passing pass through, for the person to run when arena will not edit
// the file; a second line says what the command cannot do (Codex's mcp
// add has no flag for env_vars).
func (h Host) AddCommand(exe string, pass []string) string {
	names := h.Passed(pass)
	var flags string
	if h.pass == passExpanded {
		for _, n := range names {
			flags += " -e " + n + "=" + shellWord("${"+n+"}")
		}
	}
	cmd := fmt.Sprintf(h.add, HostEnv, h.Name, flags, shellWord(exe))
	if h.pass == passNames && len(names) > 0 {
		q := make([]string, len(names))
		for i, n := range names {
			q[i] = strconv.Quote(n)
		}
		cmd += fmt.Sprintf("\nthen add this line to [mcp_servers.arena] in config.toml, above its env table: env_vars = [%s]", strings.Join(q, ", "))
	}
	return cmd
}

// TokenEnv is the variable a CLI registered with AddHTTPCommand reads
// arena mcp --http's Bearer token from when it starts.
const TokenEnv = "ARENA_MCP_TOKEN"

// AddHTTPCommand is the CLI's own command registering arena mcp --http at
// url, its Bearer token read from TokenEnv when the CLI starts.
// A second line says what the command cannot do.
func (h Host) AddHTTPCommand(url string) string {
	cmd := fmt.Sprintf(h.addHTTP, shellWord(url), TokenEnv)
	if h.httpThen != "" {
		cmd += "\n" + fmt.Sprintf(h.httpThen, TokenEnv)
	}
	return cmd
}

// RemoveCommand is the CLI's own command removing the server named arena
// from the configuration of scope (user or project): what to run for an
// entry arena did not write.
func (h Host) RemoveCommand(scope string) string {
	if !strings.Contains(h.remove, "%") {
		return h.remove // Codex: the user's configuration only
	}
	return fmt.Sprintf(h.remove, scope)
}

// shellWord quotes a word for a shell when it needs it.
func shellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
