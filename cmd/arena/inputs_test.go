package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/arenadebate/arena/challengers/trust/trusttest"
)

// arena judge DIR reads nothing outside DIR (issue 36, item 3): a tracked
// directory replaced by a link to ~/secrets, and an index entry
// ../victim/notes.txt, reach no judge's prompt, no output and no file;
// the dry run and the run name each as not sent, as it is.
func TestJudgeReadsNothingOutsideTheDirectory(t *testing.T) {
	s := newSandbox(t)
	r := trusttest.HostileRepo(t)
	repo := filepath.Join(s.dir, "repo")
	if err := os.Rename(r.Dir, repo); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(r.Victim, filepath.Join(s.dir, "victim")); err != nil {
		t.Fatal(err)
	}
	notSent := []string{
		"repo/d/a.txt (is reached through a symbolic link (repo/d), not followed)",
		"repo/../victim/notes.txt (is a path that leaves the tree)",
	}
	leaked := func(what, out string) {
		t.Helper()
		for _, secret := range []string{trusttest.BehindLink, trusttest.OutsideRepo} {
			if strings.Contains(out, secret) {
				t.Errorf("%s holds %s", what, secret)
			}
		}
	}
	dry := s.run("judge", "--dry-run", "repo", "--task", "create users", "--criteria", judgeCriteria)
	if dry.code != 0 {
		t.Fatalf("dry run: exit %d\n%s%s", dry.code, dry.stdout, dry.stderr)
	}
	leaked("the dry run", dry.stdout+dry.stderr)
	for _, want := range append(notSent, "repo/main.go", "repo/src/util.go") {
		if !strings.Contains(dry.stdout, want) {
			t.Errorf("the dry run does not show %q:\n%s", want, dry.stdout)
		}
	}
	if strings.Contains(strings.ReplaceAll(dry.stdout, "repo/../victim", ""), "victim/notes.txt") {
		t.Errorf("the dry run shows the file outside as one of the solution's:\n%s", dry.stdout)
	}
	run := s.run("judge", "--no-tui", "repo", "--task", "create users", "--criteria", judgeCriteria)
	if run.code == exitUsage || run.code == exitError {
		t.Fatalf("judge: exit %d\n%s", run.code, run.stderr)
	}
	leaked("the run's output", run.stdout+run.stderr)
	for _, want := range notSent {
		if !strings.Contains(run.stdout, want) {
			t.Errorf("the run does not name %q:\n%s", want, run.stdout)
		}
	}
	if len(s.fakes.Calls()) == 0 {
		t.Fatal("no judge was asked")
	}
	for _, c := range s.fakes.Calls() {
		leaked(c.Agent+"'s prompt", c.Prompt)
	}
	for _, log := range s.logs() {
		leaked(log, readFile(t, log))
	}
}

// arena install writes nothing through a link (issue 36, item 8): a
// repository's .claude/commands (or .claude) linked elsewhere is refused by
// name, before anything is written, and nothing appears where it points;
// uninstall removes nothing through it either.
func TestInstallWritesNothingThroughALinkedDirectory(t *testing.T) {
	for _, linked := range []string{".claude/commands", ".claude"} {
		t.Run(strings.ReplaceAll(linked, "/", "-"), func(t *testing.T) {
			s := newSandbox(t)
			elsewhere := t.TempDir()
			link := filepath.Join(s.dir, linked)
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(elsewhere, link); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"install", "claude", "--scope", "project", "--dry-run"},
				{"install", "claude", "--scope", "project"},
			} {
				r := s.run(args...)
				if r.code != exitRefused || !strings.Contains(r.stdout, link+" is a symbolic link, and arena install writes nothing through a link") || !strings.Contains(r.stdout, "Nothing was written") {
					t.Errorf("arena %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
				}
			}
			if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
				t.Fatalf("written where the link points: %v", entries)
			}
			if _, err := os.Lstat(filepath.Join(s.dir, ".mcp.json")); err == nil {
				t.Fatal("the configuration was written though the command files were refused")
			}
			// A command file arena wrote, behind the link, stays.
			theirs := filepath.Join(elsewhere, "debate.md")
			if linked == ".claude" {
				theirs = filepath.Join(elsewhere, "commands", "debate.md")
				os.MkdirAll(filepath.Dir(theirs), 0o755)
			}
			if err := os.WriteFile(theirs, []byte("x\n<!-- written by arena install: it rewrites this file; delete this line to keep your edits -->\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(s.dir, ".mcp.json"), []byte(`{"mcpServers": {}}`+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			r := s.run("install", "claude", "--scope", "project", "--uninstall")
			if _, err := os.Stat(theirs); err != nil || !strings.Contains(r.stdout, link+" is a symbolic link") {
				t.Fatalf("uninstall through the link: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
			}
		})
	}
}

// shownInvisibles is fakecli.Invisible as every output shows it: each
// character a person cannot see, written as <U+…>.
const shownInvisibles = "<U+202E><U+200B><U+2066><U+2069><U+00AD><U+2028><U+034F><U+180E><U+115F><U+3164><U+2029><U+E0041><U+E0042><U+E0043>"

// Every character a person cannot see that a model writes (issue 36, item
// 10) is shown as <U+…> on stdout, in --json, the log, the document,
// replay, resume's plan and MCP's results, and reaches none of them as
// itself. (TestNoEscapeFromAModelReachesAnyOutput runs the same
// characters through every protocol.)
func TestEveryInvisibleCharacterIsShownInEveryOutput(t *testing.T) {
	s, log := interruptedDebate(t)
	everyAgentWritesEscapes(s)
	shows := func(what, out string) {
		t.Helper()
		if !strings.Contains(out, shownInvisibles) {
			t.Errorf("%s does not show the invisible characters as %s:\n%s", what, shownInvisibles, engineTruncate(out))
		}
	}
	// An emoji written with the same characters stays whole (issue 40,
	// item 16): a family, a skin tone, a flag of Scotland.
	const emoji = "👨\u200D👩\u200D👧 👩🏽\u200D💻 🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
	r := s.run("--no-tui", "should we move sessions to Postgres "+emoji+"?")
	checkClean(t, "stdout", r)
	shows("stdout", r.stdout)
	if !strings.Contains(r.stdout, emoji) {
		t.Errorf("stdout does not show the emoji whole:\n%s", engineTruncate(r.stdout))
	}
	r = s.run("--json", "should we move sessions to Postgres?")
	checkJSONClean(t, "--json", r)
	shows("--json", jsonStrings(t, r.stdout))
	var finished string
	for _, l := range s.logs() {
		if l != log && finished == "" {
			finished = l
		}
	}
	shows("the log", jsonStrings(t, readFile(t, finished)))
	shows("the document", readFile(t, strings.TrimSuffix(finished, ".jsonl")+".md"))
	r = s.run("replay", "--no-tui", "--instant", finished)
	checkClean(t, "replay", r)
	shows("replay", r.stdout)
	checkJSONClean(t, "replay --json", s.run("replay", "--json", finished))
	if n := checkFilesClean(t, s.dir); n < 4 {
		t.Fatalf("only %d files saved", n)
	}

	resumePlanShows(t, s, log)
	mcpShows(t, s, finished)
}

// resumePlanShows checks that resume's plan shows each invisible character
// of a topic in a log edited by hand (unsigned, so the plan is shown and
// nothing runs), four at a time: the plan cuts the topic at 70 columns.
func resumePlanShows(t *testing.T, s *sandbox, log string) {
	t.Helper()
	rs, shown := []rune(invisibles), strings.SplitAfter(shownInvisibles, ">")
	for i := 0; i < len(rs); i += 4 {
		some := string(rs[i:min(i+4, len(rs))])
		rewriteStart(t, log, func(d map[string]any) {
			delete(d["invocation"].(map[string]any), "mac")
			d["topic"] = "move " + some + " sessions?"
		})
		r := s.run("resume", "--no-tui", log)
		if r.code != exitUsage {
			t.Fatalf("resume of an unsigned log: exit %d\n%s", r.code, r.stderr)
		}
		checkClean(t, "resume's plan", r)
		if want := "move " + strings.Join(shown[i:min(i+4, len(rs))], ""); !strings.Contains(r.stderr, want) {
			t.Errorf("resume's plan does not show %q:\n%s", want, r.stderr)
		}
	}
}

// mcpShows checks MCP's results: the outcome of the run logged in
// finished shows the invisible characters, and neither it nor the list
// of runs holds one as itself.
func mcpShows(t *testing.T, s *sandbox, finished string) {
	t.Helper()
	ms := s.mcp("arena-test")
	res, _ := ms.call(bg(t), "read_outcome", map[string]any{"log": finished})
	if res.IsError || !strings.Contains(textOf(res), shownInvisibles) {
		t.Errorf("read_outcome does not show the invisible characters:\n%s", engineTruncate(textOf(res)))
	}
	for _, tool := range []string{"read_outcome", "list_runs"} {
		args := map[string]any{}
		if tool == "read_outcome" {
			args["log"] = finished
		}
		res, err := ms.CallTool(bg(t), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v", tool, err)
		}
		b, _ := json.Marshal(res)
		var v any
		json.Unmarshal(b, &v)
		if x := escapedString(v); x != "" {
			t.Errorf("%s holds a string with an invisible character: %q", tool, engineTruncate(x))
		}
	}
}

// jsonStrings is every string of the JSON values in out (one a line),
// decoded, a line each.
func jsonStrings(t *testing.T, out string) string {
	t.Helper()
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x + "\n")
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var v any
		if err := dec.Decode(&v); err != nil {
			return b.String()
		}
		walk(v)
	}
}
