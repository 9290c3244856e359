package challengers

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// codexFiles points codex's system configuration at a file of the test's
// and makes a CODEX_HOME; it returns the environment a call has.
func codexFiles(t *testing.T, system string, home map[string]string) []string {
	t.Helper()
	dir := t.TempDir()
	old := codexSystemConfig
	codexSystemConfig = filepath.Join(dir, "etc-codex-config.toml")
	t.Cleanup(func() { codexSystemConfig = old })
	if system != "" {
		writeTestFile(t, codexSystemConfig, system)
	}
	codexHome := filepath.Join(dir, "codex-home")
	for name, content := range home {
		writeTestFile(t, filepath.Join(codexHome, name), content)
	}
	return []string{"HOME=" + filepath.Join(dir, "nobody"), "CODEX_HOME=" + codexHome}
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// offNames are the servers a -c mcp_servers={…} value turns off, read
// back as codex reads a -c value: as TOML. Each must be {enabled=false}.
func offNames(t *testing.T, flags []string) []string {
	t.Helper()
	var names []string
	for i, f := range flags {
		if f != "-c" || i+1 >= len(flags) || !strings.HasPrefix(flags[i+1], "mcp_servers=") {
			continue
		}
		var doc struct {
			MCPServers map[string]map[string]any `toml:"mcp_servers"`
		}
		if err := toml.Unmarshal([]byte(flags[i+1]), &doc); err != nil {
			t.Fatalf("%q is not TOML: %v", flags[i+1], err)
		}
		for name, entry := range doc.MCPServers {
			if len(entry) != 1 || entry["enabled"] != false {
				t.Fatalf("%q: %v", name, entry)
			}
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// Every server the files codex reads define is turned off by name, however
// the TOML spells it (TOML 1.1's inline table over several lines, which
// codex 0.171 reads, too) and whatever its name holds; the system's file and
// the selected profile count, another profile does not.
func TestCodexServersOffNamesEveryServerOfItsFiles(t *testing.T) {
	env := codexFiles(t, "[mcp_servers.admins]\ncommand = \"a\"\n", map[string]string{
		"config.toml": `model = "their-model"
mcp_servers.dotted-key = { command = "d" }
mcp_servers."dot.ted" = { command = "x" }
mcp_servers."q\"uo\\te" = { url = "http://127.0.0.1:1/mcp" }
mcp_servers."new\nline\u007f" = { command = "n" }
mcp_servers."ünï =code" = { command = "u" }
mcp_servers.multi = {
  command = "m",
  env = { K = "v" },
}

[mcp_servers.plain]
command = "p"
[mcp_servers.plain.env]
K = "v"
`,
		"work.config.toml":  "[mcp_servers.profiled]\ncommand = \"w\"\n",
		"other.config.toml": "[mcp_servers.unselected]\ncommand = \"o\"\n",
	})
	flags, err := codexServersOff([]string{"codex", "exec", "-c", "-p", "-p", "work", "{prompt}"}, env)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"admins", "dot.ted", "dotted-key", "multi", "new\nline\u007f", "plain", "profiled", "q\"uo\\te", "ünï =code"}
	if got := offNames(t, flags); !slices.Equal(got, want) {
		t.Fatalf("turned off %q, want %q (flags %q)", got, want, flags)
	}
	for _, f := range []string{"features.plugins=false", "features.apps=false"} {
		if !slices.Contains(flags, f) {
			t.Errorf("no -c %s: %q", f, flags)
		}
	}
}

// A configuration with no servers, or none at all, names none: codex
// refuses an entry that is only enabled=false. With --ignore-user-config
// codex reads no file of the user's, so arena names none of its servers.
func TestCodexServersOffNamesNoServerCodexWillNotLoad(t *testing.T) {
	for _, c := range []struct {
		name   string
		system string
		home   map[string]string
		cmd    []string
		want   []string
	}{
		{name: "no files", cmd: []string{"codex", "exec"}},
		{name: "no servers", home: map[string]string{"config.toml": "model = \"m\"\n"}, cmd: []string{"codex", "exec"}},
		{name: "ignore user config", system: "[mcp_servers.sys]\ncommand = \"s\"\n",
			home: map[string]string{"config.toml": "[mcp_servers.user]\ncommand = \"u\"\n"},
			cmd:  []string{"codex", "exec", "--ignore-user-config"}, want: []string{"sys"}},
		{name: "a profile that is a path", home: map[string]string{"config.toml": "", "x.config.toml": "[mcp_servers.x]\ncommand = \"x\"\n"},
			cmd: []string{"codex", "exec", "--profile=../codex-home/x"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			flags, err := codexServersOff(c.cmd, codexFiles(t, c.system, c.home))
			if err != nil {
				t.Fatal(err)
			}
			if got := offNames(t, flags); !slices.Equal(got, c.want) {
				t.Fatalf("turned off %q, want %q", got, c.want)
			}
		})
	}
}

// A configuration arena cannot read stops the call with the file named,
// never a seat that starts the servers it could not see; a FIFO in its
// place is refused without a wait.
func TestCodexServersOffRefusesAConfigurationItCannotRead(t *testing.T) {
	env := codexFiles(t, "", map[string]string{"config.toml": "[mcp_servers.a]\ncommand = \n"})
	_, err := codexServersOff([]string{"codex"}, env)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(envValue(env, "CODEX_HOME"), "config.toml")) || !strings.Contains(err.Error(), "MCP servers") {
		t.Fatalf("%v", err)
	}
	env = codexFiles(t, "", nil)
	fifo := filepath.Join(envValue(env, "CODEX_HOME"), "config.toml")
	if err := os.MkdirAll(filepath.Dir(fifo), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := codexServersOff([]string{"codex"}, env); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("%v", err)
	}
}

// The flags go after the command and before the agent's args, where a -c
// of the user's wins: a server a seat should have is turned back on there.
func TestCodexFlagsComeBeforeTheAgentsArgs(t *testing.T) {
	env := codexFiles(t, "", map[string]string{"config.toml": "[mcp_servers.theirs]\ncommand = \"t\"\n"})
	a, _ := Builtin("codex")
	a.Args = []string{"-c", "mcp_servers.theirs.enabled=true"}
	inv, err := prepare(a, "the prompt", env)
	if err != nil {
		t.Fatal(err)
	}
	defer inv.cleanup()
	if slices.Contains(inv.argv, "--ignore-user-config") {
		t.Fatalf("the user's configuration is left out: %q", inv.argv)
	}
	off := slices.Index(inv.argv, `mcp_servers={"theirs"={enabled=false}}`)
	prompt, theirs := slices.Index(inv.argv, "the prompt"), slices.Index(inv.argv, "mcp_servers.theirs.enabled=true")
	if off < 0 || prompt < 0 || theirs < off || prompt > off {
		t.Fatalf("argv %q", inv.argv)
	}
}
