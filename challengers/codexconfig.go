package challengers

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os/user"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/arenadebate/arena/challengers/trust"
)

// A codex seat reads the user's own configuration, so it asks their
// provider for their model, with their profile, but none of the MCP
// servers that configuration starts. Codex (0.171.0) has no flag for
// that: -c mcp_servers={} is merged into the file's table, not put in its
// place, and --ignore-user-config leaves out the whole file, provider and
// model too. What holds is turning each server off by name, so arena
// reads the files codex reads and names every server they define:
//
//	-c mcp_servers={"NAME"={enabled=false}, …}
//
// One inline table, because its quoted keys hold any name: a dotted -c
// path cannot (codex splits it at every dot). A name no file defines must
// not be named: codex refuses an entry with no command or url ("invalid
// transport"). Plugins start servers of their own, and the apps connector
// (a ChatGPT sign-in) is one: features.plugins=false and
// features.apps=false turn them off, and a feature codex does not know is
// ignored in a -c. All of it comes before the agent's args, where a later
// -c wins: a server the seat should have is turned back on there.
//
// Which files: the system's (/etc/codex/config.toml), the user's
// ($CODEX_HOME/config.toml, ~/.codex by default) and the profile that
// -p NAME layers on it ($CODEX_HOME/NAME.config.toml). A project's
// .codex/config.toml loads only in a project codex trusts, which a seat's
// fresh scratch directory never is (an agent's dir: may be: its servers
// are the user's to name in args); managed configuration is an
// administrator's, and above what a -c can change.

// codexSystemConfig is codex's system-wide configuration (a variable for
// the tests).
var codexSystemConfig = "/etc/codex/config.toml"

// codexConfigLimit bounds a configuration file arena reads for codex.
const codexConfigLimit = 4 << 20

// codexServersOff are the flags that keep a codex call from its user's
// MCP servers. cmd is the agent's command and args, the prompt not in it;
// env the call's environment.
func codexServersOff(cmd, env []string) ([]string, error) {
	names := map[string]bool{}
	for _, path := range codexConfigFiles(cmd, env) {
		if err := codexServerNames(path, names); err != nil {
			return nil, fmt.Errorf("codex's configuration %w (arena reads it to turn your MCP servers off for its seats)", err)
		}
	}
	flags := []string{"-c", "features.plugins=false", "-c", "features.apps=false"}
	if len(names) > 0 {
		flags = append(flags, "-c", codexServersTable(names))
	}
	return flags, nil
}

// codexConfigFiles are the configuration files a codex call reads that
// can define MCP servers a -c can turn off.
func codexConfigFiles(cmd, env []string) []string {
	files := []string{codexSystemConfig}
	if slices.Contains(cmd, "--ignore-user-config") {
		return files
	}
	home := codexHome(env)
	if home == "" {
		return files
	}
	files = append(files, filepath.Join(home, "config.toml"))
	if p := codexProfile(cmd); p != "" {
		files = append(files, filepath.Join(home, p+".config.toml"))
	}
	return files
}

// codexHome is where codex keeps its configuration: $CODEX_HOME, else
// ~/.codex ("": no home directory).
func codexHome(env []string) string {
	if h := envValue(env, "CODEX_HOME"); h != "" {
		return h
	}
	home := envValue(env, "HOME")
	if home == "" {
		// As codex finds it without HOME: the account's.
		if u, err := user.Current(); err == nil {
			home = u.HomeDir
		}
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".codex")
}

// codexProfile is the profile a command selects (-p NAME, --profile NAME,
// --profile=NAME), "" for none or for a name that is not a plain file
// name (codex refuses one).
func codexProfile(cmd []string) string {
	var name string
	for i := 0; i < len(cmd); i++ {
		switch s := cmd[i]; {
		case s == "-c" || s == "--config":
			i++ // its value is TOML, never a flag
		case (s == "-p" || s == "--profile") && i+1 < len(cmd):
			name = cmd[i+1]
			i++
		case strings.HasPrefix(s, "--profile="):
			name = strings.TrimPrefix(s, "--profile=")
		}
	}
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return ""
	}
	return name
}

// codexServerNames adds the names of the MCP servers the file at path
// defines; a file that is not there defines none.
func codexServerNames(path string, names map[string]bool) error {
	data, err := trust.ReadFile(path, codexConfigLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var doc struct {
		MCPServers map[string]any `toml:"mcp_servers"`
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for name := range doc.MCPServers {
		names[name] = true
	}
	return nil
}

// codexServersTable is the -c value that turns off the named servers:
// mcp_servers={"a"={enabled=false}, …}, the names sorted.
func codexServersTable(names map[string]bool) string {
	entries := make([]string, 0, len(names))
	for _, name := range slices.Sorted(maps.Keys(names)) {
		entries = append(entries, tomlString(name)+"={enabled=false}")
	}
	return "mcp_servers={" + strings.Join(entries, ",") + "}"
}

// tomlString is s as a TOML basic string: a quote and a backslash
// escaped, and every control character, which TOML allows only escaped.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
