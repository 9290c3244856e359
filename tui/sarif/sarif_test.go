package sarif

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
)

// hostile is what a model could put in a finding to break a report or
// a runner's workflow commands: a line break and a command of its own,
// the runner's escapes, property separators, an escape sequence and bidi.
const hostile = "fix it\r\n::error file=/etc/passwd,line=1::pwned %0A%25 a,b:c \x1b]8;;http://x\x07link\x1b]8;;\x07 \u202eevil"

// outcome is a verdict whose findings are every kind: placed at a line,
// at a file alone, flagged (not in the work), unquoted, and hostile.
func outcome() engine.Outcome {
	d := &doc.Document{Title: "Verdict", Result: "REJECT"}
	d.Sections = []doc.Section{{Heading: "Scorecard"}, {ID: doc.SectionFindings, Heading: "Findings", Blocks: []doc.Block{{Findings: &doc.Findings{Items: []doc.Finding{
		{About: "improvement", Issue: "Return the error", Quote: "os.Exit(run())", File: "cmd/main.go", Line: 8, Level: doc.LevelError, By: []string{"gemini (quick judge)", "claude (deep judge)"}},
		{About: "Code quality", Issue: "Split it", File: "a dir/x:y.go", Level: doc.LevelNote, By: []string{"claude (deep judge)"}},
		{About: "improvement", Issue: "Cite the spec", Quote: "a line nobody wrote", Level: doc.LevelWarning, By: []string{"claude (deep judge)"}, Flag: "not found in the work"},
		{About: "improvement", Issue: "Name the edge cases", Level: doc.LevelWarning},
		{About: hostile, Issue: hostile, Quote: hostile, File: "x,y:z\n.go", Line: 3, Level: "fatal", By: []string{hostile}},
	}}}}}}
	return engine.Outcome{Result: "reject", Summary: "issue-18: REJECT (a dimension scored 1, below 2)", Document: d}
}

// The SARIF of a run holds each finding as a result: its criterion as
// its rule, its level, its place where arena found it (a line only
// where it found the quote), its message, quote and judges; the run's
// decision is in the run's properties; and it validates against the
// SARIF 2.1.0 schema.
func TestSARIFOfAVerdict(t *testing.T) {
	b, err := Marshal(Of(outcome(), "v1.2.3"))
	if err != nil {
		t.Fatal(err)
	}
	var l Log
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	run := l.Runs[0]
	if run.Props["decision"] != "reject" || !strings.HasPrefix(run.Props["summary"].(string), "issue-18: REJECT") || run.Tool.Driver.Version != "v1.2.3" {
		t.Errorf("the run's properties: %+v, driver %+v", run.Props, run.Tool.Driver)
	}
	var rules []string
	for _, r := range run.Tool.Driver.Rules {
		rules = append(rules, r.ID)
	}
	if got := strings.Join(rules, " "); !strings.HasPrefix(got, "improvement code-quality ") || len(rules) != 3 {
		t.Errorf("rules %q", got)
	}
	type seen struct {
		rule, level, where, msg string
	}
	var got []seen
	for _, r := range run.Results {
		where := ""
		if len(r.Locations) > 0 {
			p := r.Locations[0].Physical
			where = p.Artifact.URI
			if p.Region != nil {
				where += ":" + itoa(p.Region.StartLine)
			}
		}
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s points at rule %d", r.RuleID, r.RuleIndex)
		}
		got = append(got, seen{r.RuleID, r.Level, where, r.Message.Text})
	}
	want := []seen{
		{"improvement", "error", "cmd/main.go:8", "Return the error — “os.Exit(run())”"},
		{"code-quality", "note", "a%20dir/x%3Ay.go", "Split it"},
		{"improvement", "warning", "", "Cite the spec — “a line nobody wrote” (arena: not found in the work)"},
		{"improvement", "warning", "", "Name the edge cases"},
	}
	if !reflect.DeepEqual(got[:4], want) {
		t.Errorf("results:\n got %+v\nwant %+v", got[:4], want)
	}
	if j := run.Results[0].Props["judges"]; !reflect.DeepEqual(j, []any{"gemini (quick judge)", "claude (deep judge)"}) {
		t.Errorf("judges %v", j)
	}
	if s := run.Results[0].Locations[0].Physical.Region.Snippet; s == nil || s.Text != "os.Exit(run())" {
		t.Errorf("snippet %+v", s)
	}
	h := got[4]
	if h.level != "warning" || strings.ContainsAny(h.msg, "\x1b\x07\r\n\u202e") || strings.ContainsAny(string(b), "\x1b\x07\u202e") {
		t.Errorf("the hostile finding: %+v", h)
	}
	if h.where != "" {
		t.Errorf("a file name with a line break is placed at %q", h.where)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// The schema is the standard's and holds: SARIF it refuses is refused
// (so a pass means something).
func TestSchemaRefusesWhatIsNotSARIF(t *testing.T) {
	good, err := Marshal(Of(outcome(), "dev"))
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(m map[string]any){
		"a level SARIF has not": func(m map[string]any) { firstResult(m)["level"] = "fatal" },
		"no version":            func(m map[string]any) { delete(m, "version") },
		"version 2.0.0":         func(m map[string]any) { m["version"] = "2.0.0" },
		"a line of 0":           func(m map[string]any) { region(m)["startLine"] = 0 },
		"a field SARIF has not": func(m map[string]any) { firstResult(m)["severity"] = "high" },
		"no tool":               func(m map[string]any) { delete(m["runs"].([]any)[0].(map[string]any), "tool") },
	} {
		var m map[string]any
		_ = json.Unmarshal(good, &m)
		edit(m)
		b, _ := json.Marshal(m)
		if err := Validate(b); err == nil {
			t.Errorf("%s: the schema took it", name)
		}
	}
}

func firstResult(m map[string]any) map[string]any {
	return m["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)
}

func region(m map[string]any) map[string]any {
	return firstResult(m)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)
}

// A run without findings, and one without a document (an older log),
// are SARIF too: no results, the decision in the run's properties.
func TestSARIFWithoutFindings(t *testing.T) {
	for _, o := range []engine.Outcome{{Result: "accept", Summary: "ok", Document: &doc.Document{Title: "Verdict"}}, {Result: "accept", Markdown: "# Verdict"}} {
		b, err := Marshal(Of(o, "dev"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"results": []`) || !strings.Contains(string(b), `"decision": "accept"`) {
			t.Errorf("%s", b)
		}
	}
}

// Write makes a new file: one already there, or a symbolic link (to a
// file or to nowhere), is refused and left as it was.
func TestWriteRefusesWhatArenaDidNotWrite(t *testing.T) {
	dir := t.TempDir()
	l := Of(outcome(), "dev")
	path := filepath.Join(dir, "out.sarif")
	if err := Write(path, l); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%v %v", fi, err)
	}
	if err := Write(path, l); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a second write: %v", err)
	}
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{victim, filepath.Join(dir, "nowhere")} {
		link := filepath.Join(dir, "link-"+filepath.Base(target))
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		if err := Write(link, l); err == nil {
			t.Errorf("Write through a link to %s succeeded", target)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "mine" {
		t.Errorf("the link's target now holds %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a dangling link's target was created: %v", err)
	}
}

// Microsoft's SARIF Multitool (npm's @microsoft/sarif-multitool, which
// scripts/sarif-tools installs) finds no error in arena's SARIF: the
// standard's own checks beyond its schema. Without it the test is
// skipped, saying why, unless ARENA_REQUIRE_SARIF_TOOLS is set.
func TestSARIFPassesTheMultitool(t *testing.T) {
	dir := os.Getenv("ARENA_SARIF_TOOLS")
	if dir == "" {
		if os.Getenv("ARENA_REQUIRE_SARIF_TOOLS") != "" {
			t.Fatal("ARENA_REQUIRE_SARIF_TOOLS is set but ARENA_SARIF_TOOLS is not: run ARENA_SARIF_TOOLS=$(scripts/sarif-tools)")
		}
		t.Skip("the SARIF Multitool is not installed: ARENA_SARIF_TOOLS=$(scripts/sarif-tools) to run this test")
	}
	tmp := t.TempDir()
	in, placed := filepath.Join(tmp, "arena.sarif"), filepath.Join(tmp, "placed.sarif")
	if err := Write(in, Of(outcome(), "dev")); err != nil {
		t.Fatal(err)
	}
	if err := Write(placed, Placed(Of(outcome(), "1.0.0"))); err != nil {
		t.Fatal(err)
	}
	multitool(t, dir, in, "Sarif")
	// What the Action uploads holds to GitHub's ingestion rules too.
	multitool(t, dir, placed, "Sarif;Gh")
}

// multitool validates the SARIF file in with the Multitool's rules of
// those kinds, failing t on an error it reports.
func multitool(t *testing.T, dir, in, kinds string) {
	t.Helper()
	out := in + ".validation"
	cmd := exec.Command(filepath.Join(dir, "sarif-multitool"), "validate", in, "-o", out, "--rule-kind", kinds)
	cmd.Env = append(os.Environ(), "DOTNET_CLI_TELEMETRY_OPTOUT=1", "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
	said, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sarif-multitool validate: %v\n%s", err, said)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var report Log
	if err := json.Unmarshal(b, &report); err != nil {
		t.Fatal(err)
	}
	for _, r := range report.Runs[0].Results {
		if r.Level == "error" {
			t.Errorf("the Multitool (%s) finds in %s: %s %s", kinds, filepath.Base(in), r.RuleID, r.Message.Text)
		}
	}
	if len(report.Runs[0].Results) == 0 && strings.Contains(string(said), "error") {
		t.Errorf("the Multitool reports errors its log does not hold:\n%s", said)
	}
}
