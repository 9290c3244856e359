package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/tui/sarif"
)

// quotingReply is a judge's reply whose improvements quote the work: one
// a line of it, one words it does not hold, one nothing.
func quotingReply(v string, sem int, quote string) clitest.Step {
	b, _ := json.Marshal(map[string]any{
		"verdict": v, "scores": map[string]int{"semantic": sem, "pragmatic": 3, "syntactic": 3},
		"reasoning": "scored " + v,
		"improvements": []any{
			"add tests for the edge cases",
			map[string]any{"improvement": "say what an empty list means", "quote": quote},
			map[string]any{"improvement": "cite the spec", "quote": "a sentence nobody wrote"},
		},
	})
	return clitest.Step{Reply: json.RawMessage(b)}
}

// arena verdict --sarif FILE writes the judges' improvements as SARIF
// 2.1.0 that the standard's schema takes: a quoted one at the file and
// line of its quote in the judged diff, one whose quote the diff does
// not hold with no place, the levels from the judges' verdicts, the
// judges who raised each, the decision in the run's properties; arena
// export --sarif of the log writes the same findings.
func TestVerdictWritesSARIF(t *testing.T) {
	t.Parallel()
	s := newVerdictSandbox(t)
	s.fakes.SetScript(judges(map[string]map[string][]clitest.Step{
		"gemini": {"verdict.quick": {quotingReply("improve", 3, "GET /users returns")}},
		"claude": {"verdict.deep": {quotingReply("reject", 1, "+GET /users returns the users.")}},
	}))
	diff := "diff --git a/docs/api.md b/docs/api.md\n--- a/docs/api.md\n+++ b/docs/api.md\n@@ -1,2 +1,3 @@\n # API\n \n+GET /users returns the users.\n"
	out := filepath.Join(s.dir, "out.sarif")
	r := s.runIn([]byte(diff), "verdict", "-", "--no-tui", "--task-id", "pr-7", "--sarif", out)
	if r.code != exitReject {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := sarif.Validate(b); err != nil {
		t.Fatalf("the SARIF 2.1.0 schema refuses it: %v\n%s", err, b)
	}
	var l sarif.Log
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	run := l.Runs[0]
	if run.Props["decision"] != "reject" || run.Tool.Driver.Name != "arena" {
		t.Fatalf("run: %+v", run.Props)
	}
	var got []string
	for _, res := range run.Results {
		where := "-"
		if len(res.Locations) > 0 {
			where = res.Locations[0].Physical.Artifact.URI
			if reg := res.Locations[0].Physical.Region; reg != nil {
				where += ":" + itoa(reg.StartLine)
			}
		}
		judges, _ := json.Marshal(res.Props["judges"])
		got = append(got, res.Level+" "+where+" "+res.Message.Text+" "+string(judges))
	}
	want := []string{
		`error - add tests for the edge cases ["gemini (quick judge)","claude (deep judge)"]`,
		`warning docs/api.md:3 say what an empty list means — “GET /users returns” ["gemini (quick judge)"]`,
		`error - cite the spec — “a sentence nobody wrote” (arena: not found in the work) ["gemini (quick judge)","claude (deep judge)"]`,
		`error docs/api.md:3 say what an empty list means — “+GET /users returns the users.” ["claude (deep judge)"]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	e := s.run("export", s.logs()[0], "--sarif")
	if e.code != 0 {
		t.Fatalf("export --sarif: exit %d %s", e.code, e.stderr)
	}
	var again sarif.Log
	if err := json.Unmarshal([]byte(e.stdout), &again); err != nil || len(again.Runs[0].Results) != len(run.Results) {
		t.Fatalf("export --sarif: %v\n%s", err, e.stdout)
	}
	p := s.run("export", s.logs()[0], "--sarif", "--placed")
	var placed sarif.Log
	if err := json.Unmarshal([]byte(p.stdout), &placed); err != nil || len(placed.Runs[0].Results) != 2 || placed.Runs[0].Props["unplaced"] != 2.0 {
		t.Fatalf("export --sarif --placed: %v\n%s", err, p.stdout)
	}
	a := s.run("export", s.logs()[0], "--annotations")
	if lines := strings.Split(strings.TrimSpace(a.stdout), "\n"); a.code != 0 || len(lines) != 4 || lines[1] != "::warning file=docs/api.md,line=3,title=arena%3A improvement (gemini (quick judge))::say what an empty list means — “GET /users returns”" {
		t.Fatalf("export --annotations: exit %d\n%s", a.code, a.stdout)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// --sarif names a new file: one there already, or a symbolic link, is
// refused before any judge is asked, and left as it was; so is one in a
// directory that is not there.
func TestVerdictSARIFRefusesAFileItDidNotWrite(t *testing.T) {
	t.Parallel()
	s := newVerdictSandbox(t)
	mine := filepath.Join(s.dir, "mine.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(s.dir, "link.sarif")
	if err := os.Symlink(mine, link); err != nil {
		t.Fatal(err)
	}
	for path, says := range map[string]string{mine: "exists", link: "exists", filepath.Join(s.dir, "no-dir", "x.sarif"): "no directory"} {
		r := s.run("verdict", "report.md", "--no-tui", "--task-id", "x", "--sarif", path)
		if r.code != exitUsage || !strings.Contains(r.stderr, says) {
			t.Errorf("--sarif %s: exit %d %s", path, r.code, r.stderr)
		}
	}
	if b, _ := os.ReadFile(mine); string(b) != "mine" {
		t.Errorf("the file now holds %q", b)
	}
	if n := len(s.fakes.Calls()); n != 0 {
		t.Errorf("%d judges were asked", n)
	}
}
