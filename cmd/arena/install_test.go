package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/settings/hostconfig"
)

// arena install against temporary homes holding configurations people
// really have: other servers, their own formatting, comments, a command
// of their own, an entry named arena they wrote themselves.

func (s *sandbox) writeHome(rel, content string) string {
	s.t.Helper()
	p := filepath.Join(s.home, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return p
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// claudeConfig is a ~/.claude.json as Claude Code writes it, with tabs.
const claudeConfig = "{\n\t\"numStartups\": 12,\n\t\"theme\": \"dark — ünïcode\",\n\t\"mcpServers\": {\n\t\t\"github\": {\"type\": \"stdio\", \"command\": \"gh-mcp\", \"args\": []}\n\t},\n\t\"projects\": {\"/src/x\": {\"allowedTools\": []}}\n}\n"

func TestInstallClaudeKeepsEverythingElse(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	cfg := s.writeHome(".claude.json", claudeConfig)
	mine := s.writeHome(".claude/commands/debate.md", "my own /debate\n")
	r := s.run("install", "claude")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	after := readFile(t, cfg)
	// A splice: what was there is there, byte for byte, around the entry.
	if !strings.HasPrefix(after, claudeConfig[:strings.Index(claudeConfig, "\n\t},")]) || !strings.HasSuffix(after, "\n\t},\n\t\"projects\": {\"/src/x\": {\"allowedTools\": []}}\n}\n") {
		t.Fatalf("the rest of the file changed:\n%s", after)
	}
	var doc struct {
		MCPServers map[string]hostconfig.Entry `json:"mcpServers"`
		Theme      string                      `json:"theme"`
	}
	if err := json.Unmarshal([]byte(after), &doc); err != nil {
		t.Fatal(err)
	}
	e := doc.MCPServers["arena"]
	if e.Type != "stdio" || e.Command != arenaBinary(t) || strings.Join(e.Args, " ") != "mcp" || e.Env[envMCPHost] != "claude" || doc.MCPServers["github"].Command != "gh-mcp" {
		t.Fatalf("entries: %+v", doc.MCPServers)
	}
	if st, _ := os.Stat(cfg); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode().Perm())
	}
	// The person's own /debate is kept; the other commands are added.
	if readFile(t, mine) != "my own /debate\n" || !strings.Contains(r.stdout, "kept: arena did not write it (/debate not installed)") {
		t.Fatalf("their /debate:\n%s", r.stdout)
	}
	for _, c := range []string{"judge-with-debate", "evaluate", "verdict", "llm-judge"} {
		body := readFile(t, filepath.Join(s.home, ".claude", "commands", c+".md"))
		if !strings.HasPrefix(body, "---\ndescription:") || !strings.Contains(body, hostconfig.CommandMarker) || !strings.Contains(body, "$ARGUMENTS") {
			t.Fatalf("/%s:\n%s", c, body)
		}
	}
	// Again: nothing changes.
	r = s.run("install", "claude")
	if r.code != 0 || readFile(t, cfg) != after || !strings.Contains(r.stdout, "registered already") {
		t.Fatalf("second install: exit %d\n%s", r.code, r.stdout)
	}
}

func TestInstallUpdatesOnlyWhatItWrote(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	old := "{\n  \"mcpServers\": {\n    \"arena\": {\"command\": \"/old/arena\", \"args\": [\"mcp\"], \"env\": {\"ARENA_MCP_HOST\": \"gemini\"}},\n    \"z\": {\"command\": \"z\"}\n  }\n}\n"
	cfg := s.writeHome(".gemini/settings.json", old)
	r := s.run("install", "gemini")
	if r.code != 0 || !strings.Contains(r.stdout, "updated the entry arena wrote") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var doc map[string]map[string]hostconfig.Entry
	json.Unmarshal([]byte(readFile(t, cfg)), &doc)
	if doc["mcpServers"]["arena"].Command != arenaBinary(t) || doc["mcpServers"]["z"].Command != "z" {
		t.Fatalf("%s", readFile(t, cfg))
	}
	// An entry named arena without arena's marker is someone else's.
	theirs := "{\n  \"mcpServers\": {\n    \"arena\": {\"command\": \"/opt/arena-fork\", \"args\": [\"serve\"]}\n  }\n}\n"
	cfg = s.writeHome(".claude.json", theirs)
	r = s.run("install", "claude")
	if r.code != exitRefused || readFile(t, cfg) != theirs || !strings.Contains(r.stdout, "arena install did not write") || !strings.Contains(r.stdout, "claude mcp add") {
		t.Fatalf("exit %d\n%s", r.code, r.stdout)
	}
	if _, err := os.Stat(filepath.Join(s.home, ".claude", "commands")); err == nil {
		t.Fatal("commands were written after the configuration was refused")
	}
	// A command arena wrote, edited but with its marker, is arena's to update.
	r = s.run("install", "claude", "--scope", "project")
	if r.code != 0 {
		t.Fatalf("project scope: %d %s", r.code, r.stdout)
	}
	cmdPath := filepath.Join(s.dir, ".claude", "commands", "verdict.md")
	os.WriteFile(cmdPath, []byte("changed\n"+hostconfig.CommandMarker+"\n"), 0o644)
	if r = s.run("install", "claude", "--scope", "project"); r.code != 0 || !strings.Contains(r.stdout, "/verdict updated") || strings.HasPrefix(readFile(t, cmdPath), "changed") {
		t.Fatalf("%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(s.dir, ".mcp.json")); err != nil {
		t.Fatalf("project scope wrote no .mcp.json: %v", err)
	}
}

func TestInstallRefusesWhatItCannotEditSafely(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	jsonc := "{\n  // my servers\n  \"mcpServers\": {}\n}\n"
	cfg := s.writeHome(".gemini/settings.json", jsonc)
	if r := s.run("install", "gemini"); r.code != exitRefused || readFile(t, cfg) != jsonc || !strings.Contains(r.stdout, "not plain JSON") {
		t.Fatalf("JSON with comments: exit %d\n%s", r.code, r.stdout)
	}
	// A symbolic link (a dotfiles repository): replacing it would cut the
	// link; arena refuses and leaves both alone.
	target := filepath.Join(s.dir, "dotfiles-claude.json")
	os.WriteFile(target, []byte("{}\n"), 0o600)
	link := filepath.Join(s.home, ".claude.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if r := s.run("install", "claude"); r.code != exitRefused || !strings.Contains(r.stdout, "symbolic link") {
		t.Fatalf("symlink: exit %d\n%s", r.code, r.stdout)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 || readFile(t, target) != "{}\n" {
		t.Fatal("the link or its target changed")
	}
	bad := "[mcp_servers.x\ncommand = \n"
	cfg = s.writeHome(".codex/config.toml", bad)
	if r := s.run("install", "codex"); r.code != exitRefused || readFile(t, cfg) != bad {
		t.Fatalf("bad TOML: exit %d\n%s", r.code, r.stdout)
	}
	refusedUnchanged := func(what, agent, path, content, says string) {
		t.Helper()
		if r := s.run("install", agent); r.code != exitRefused || readFile(t, path) != content || !strings.Contains(r.stdout, says) || !strings.Contains(r.stdout, "Nothing was written") {
			t.Fatalf("%s: exit %d\n%s", what, r.code, r.stdout)
		}
	}
	// Valid TOML to which arena's [mcp_servers.arena] table would add a
	// second declaration: TOML 1.0 forbids it, and Codex refuses to start.
	inline := "mcp_servers = { other = { command = \"x\" } }\n"
	refusedUnchanged("inline servers", "codex", s.writeHome(".codex/config.toml", inline), inline, "invalid TOML")
	// Read-only: replaced by a rename all the same, were arena not to look.
	ro := "model = \"o3\"\n"
	cfg = s.writeHome(".codex/config.toml", ro)
	os.Chmod(cfg, 0o444)
	refusedUnchanged("read-only", "codex", cfg, ro, "chmod u+w "+cfg)
	if st, _ := os.Stat(cfg); st.Mode().Perm() != 0o444 {
		t.Fatalf("mode %v", st.Mode())
	}
	// A second name (a dotfiles manager's hard link): replacing the file
	// would leave its twin with the old text.
	os.Remove(link)
	twin := filepath.Join(s.dir, "dotfiles-claude.json")
	cfg = s.writeHome(".claude.json", "{}\n")
	os.Remove(twin)
	if err := os.Link(cfg, twin); err != nil {
		t.Fatal(err)
	}
	refusedUnchanged("hard link", "claude", cfg, "{}\n", "it has 2 hard links")
	// A key twice: which one counts is the reader's choice.
	dup := `{"mcpServers": {"a": {}}, "mcpServers": {}}`
	os.Remove(cfg)
	refusedUnchanged("a key twice", "claude", s.writeHome(".claude.json", dup), dup, `the key "mcpServers" twice`)
	for _, args := range [][]string{{"install", "cursor"}, {"install", "codex", "--scope", "project"}, {"install", "claude", "--scope", "team"}} {
		if r := s.run(args...); r.code != exitUsage {
			t.Fatalf("%v: exit %d %s", args, r.code, r.stderr)
		}
	}
}

const codexConfig = `# my codex settings
model = "gpt-5-codex"

[mcp_servers.arena]
command = "/old/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }

# the docs server
[mcp_servers.docs]
command = "docs-mcp"
args = ["--port", "0"]
`

func TestInstallCodexTOML(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	codexHome := filepath.Join(s.home, "elsewhere")
	os.MkdirAll(codexHome, 0o700)
	cfg := filepath.Join(codexHome, "config.toml")
	os.WriteFile(cfg, []byte(codexConfig), 0o600)
	dry := s.runWithEnv([]string{"CODEX_HOME=" + codexHome}, "install", "codex", "--dry-run")
	if dry.code != 0 || readFile(t, cfg) != codexConfig || !strings.Contains(dry.stdout, `-command = "/old/arena"`) || !strings.Contains(dry.stdout, "+command = \""+arenaBinary(t)) {
		t.Fatalf("dry run: exit %d\n%s", dry.code, dry.stdout)
	}
	r := s.runWithEnv([]string{"CODEX_HOME=" + codexHome}, "install", "codex")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	after := readFile(t, cfg)
	// The keys of the seats' logins pass through by name (codex gives a
	// server few of its variables), how the seats reach their models
	// (proxies, CAs, base URLs), and arena's own.
	codex, _ := hostconfig.Lookup("codex")
	names, _ := json.Marshal(codex.Passed(passedVars(challengers.Builtins())))
	want := strings.Replace(codexConfig, `"/old/arena"`, `"`+arenaBinary(t)+`"`, 1)
	want = strings.Replace(want, "env = { ARENA_MCP_HOST = \"codex\" }\n", "env = { ARENA_MCP_HOST = \"codex\" }\nenv_vars = "+strings.ReplaceAll(string(names), ",", ", ")+"\n", 1)
	if !strings.Contains(want, `"OPENAI_API_KEY", `) || !strings.Contains(want, `"HTTPS_PROXY", `) || !strings.Contains(want, `"SSL_CERT_FILE", `) || !strings.Contains(r.stdout, "the entry passes ALL_PROXY, ANTHROPIC_API_KEY") {
		t.Fatalf("want %s\nsaid:\n%s", want, r.stdout)
	}
	if after != want {
		t.Fatalf("got\n%s\nwant\n%s", after, want)
	}
	var doc struct {
		MCPServers map[string]hostconfig.Entry `toml:"mcp_servers"`
	}
	if err := toml.Unmarshal([]byte(after), &doc); err != nil || doc.MCPServers["docs"].Command != "docs-mcp" {
		t.Fatalf("%v %+v", err, doc)
	}
	// A fresh home: the file and its directory are made.
	s2 := newSandbox(t)
	if r := s2.run("install", "codex"); r.code != 0 {
		t.Fatalf("fresh: %d %s", r.code, r.stdout)
	}
	if got := readFile(t, filepath.Join(s2.home, ".codex", "config.toml")); !strings.HasPrefix(got, "[mcp_servers.arena]\n") {
		t.Fatalf("fresh config:\n%s", got)
	}
}

// The dry run writes nothing at all.
func TestInstallDryRunWritesNothing(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	for _, cli := range []string{"claude", "codex", "gemini"} {
		r := s.run("install", cli, "--dry-run")
		if r.code != 0 || !strings.Contains(r.stdout, "dry run: nothing was written") || !strings.Contains(r.stdout, "+") {
			t.Fatalf("%s: exit %d\n%s", cli, r.code, r.stdout)
		}
	}
	entries, _ := os.ReadDir(s.home)
	if len(entries) != 0 {
		t.Fatalf("the dry runs wrote %v", entries)
	}
}

// With the real CLIs (scripts/agent-clis installs them from npm): each
// reads the entry arena wrote, and Claude Code and Gemini CLI connect to
// arena mcp through it.
func TestInstallReadByTheRealCLIs(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("ARENA_AGENT_CLIS")
	if dir == "" {
		t.Skip("the real agent CLIs are not installed: scripts/agent-clis installs them from npm, and ARENA_AGENT_CLIS names the directory (scripts/test does both)")
	}
	s := newSandbox(t)
	bin := filepath.Join(dir, "node_modules", ".bin")
	for _, c := range []struct {
		cli  string
		args []string
		want string
	}{
		{"claude", []string{"mcp", "get", "arena"}, "Connected"},
		{"codex", []string{"mcp", "get", "arena"}, "ARENA_MCP_HOST"},
		{"gemini", []string{"mcp", "list"}, "arena: " + arenaBinary(t) + " mcp (stdio) - Connected"},
	} {
		if r := s.run("install", c.cli); r.code != 0 {
			t.Fatalf("install %s: %d %s", c.cli, r.code, r.stdout)
		}
		cmd := exec.Command(filepath.Join(bin, c.cli), c.args...)
		cmd.Dir = s.dir
		// The fakes stand in for the model CLIs the server may look for;
		// the real CLI is called by its path, for its mcp subcommand only.
		cmd.Env = s.env("PATH="+bin+string(os.PathListSeparator)+s.fakes.Dir+string(os.PathListSeparator)+os.Getenv("PATH"), "GEMINI_CLI_TRUST_WORKSPACE=true")
		out, err := cmd.CombinedOutput()
		if !strings.Contains(string(out), c.want) {
			t.Errorf("%s %v (%v):\n%s", c.cli, c.args, err, out)
		}
		// Uninstalled, the CLI no longer lists arena.
		if r := s.run("install", c.cli, "--uninstall"); r.code != 0 {
			t.Fatalf("install %s --uninstall: %d %s", c.cli, r.code, r.stdout)
		}
		list := exec.Command(filepath.Join(bin, c.cli), "mcp", "list")
		list.Dir, list.Env = s.dir, cmd.Env
		if out, err := list.CombinedOutput(); err != nil || strings.Contains(string(out), "arena") {
			t.Errorf("%s mcp list after --uninstall (%v):\n%s", c.cli, err, out)
		}
	}
}

// arena install --uninstall gives back the configuration as it was
// before install, byte for byte, removes the slash commands it wrote and
// keeps the person's own; a second time finds nothing to remove; an entry
// named arena that another hand wrote is refused, with the CLI's own
// command.
func TestUninstallRemovesOnlyWhatInstallWrote(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	cfg := s.writeHome(".claude.json", claudeConfig)
	mine := s.writeHome(".claude/commands/debate.md", "my own /debate\n")
	if r := s.run("install", "claude"); r.code != 0 {
		t.Fatalf("install: %d %s", r.code, r.stdout)
	}
	r := s.run("install", "claude", "--uninstall", "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, "would remove the MCP server arena") || !strings.Contains(r.stdout, "/verdict would be removed") || readFile(t, cfg) == claudeConfig {
		t.Fatalf("dry run: %d\n%s", r.code, r.stdout)
	}
	r = s.run("install", "claude", "--uninstall")
	if r.code != 0 || readFile(t, cfg) != claudeConfig || readFile(t, mine) != "my own /debate\n" {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, readFile(t, cfg))
	}
	for _, want := range []string{"~/.claude.json: removed the MCP server arena\n", "/verdict removed", "debate.md: kept: arena did not write it", "Restart Claude Code"} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("no %q:\n%s", want, r.stdout)
		}
	}
	left, _ := os.ReadDir(filepath.Join(s.home, ".claude", "commands"))
	if len(left) != 1 {
		t.Fatalf("left %v", left)
	}
	if r = s.run("install", "claude", "--uninstall"); r.code != 0 || !strings.Contains(r.stdout, "nothing to remove") {
		t.Fatalf("again: %d\n%s", r.code, r.stdout)
	}
	// A project's .mcp.json that install made goes whole.
	if r = s.run("install", "claude", "--scope", "project"); r.code != 0 {
		t.Fatal(r.stdout)
	}
	if r = s.run("install", "claude", "--scope", "project", "--uninstall"); r.code != 0 || !strings.Contains(r.stdout, "and the file, which held nothing else") {
		t.Fatalf("project: %d\n%s", r.code, r.stdout)
	}
	for _, made := range []string{".mcp.json", ".claude"} { // nothing left in the work tree
		if _, err := os.Stat(filepath.Join(s.dir, made)); !os.IsNotExist(err) {
			t.Fatalf("%s is left: %v", made, err)
		}
	}
	theirs := "[mcp_servers.arena]\ncommand = \"/opt/fork\"\n"
	cfg = s.writeHome(".codex/config.toml", theirs)
	r = s.run("install", "codex", "--uninstall")
	if r.code != exitRefused || readFile(t, cfg) != theirs || !strings.Contains(r.stdout, "was not written by arena install") || !strings.Contains(r.stdout, "codex mcp remove arena") {
		t.Fatalf("someone else's entry: %d\n%s", r.code, r.stdout)
	}
}

// What install and --uninstall show of a configuration (its lines, in a
// dry run's diff) reaches the terminal cleaned: a right-to-left override
// someone put in a value is not written raw.
func TestInstallShowsTheConfigurationCleaned(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	s.writeHome(".claude.json", "{\"theme\": \"dark\u202eevil\"}\n")
	for _, step := range []string{"install", "uninstall"} {
		args := []string{"install", "claude", "--dry-run"}
		if step == "uninstall" {
			if r := s.run("install", "claude"); r.code != 0 {
				t.Fatalf("install: %d %s", r.code, r.stdout)
			}
			args = append(args, "--uninstall")
		}
		r := s.run(args...)
		if r.code != 0 || !strings.Contains(r.stdout, `"theme": "dark`) || strings.ContainsRune(r.stdout, '\u202e') {
			t.Fatalf("%v: exit %d\n%q", args, r.code, r.stdout)
		}
	}
}
