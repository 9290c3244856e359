package verdict

import (
	"reflect"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/engine/enginetest"
)

// The judges' improvements are the document's findings: one both judges
// ask for is one finding of both, at the level of the judge that weighs
// it most; a quoted one has the place of its quote in the judged diff
// (the changed file, the new version's line), or no place and a flag
// when the diff does not hold it; a plain string has no place.
func TestImprovementsAreFindingsWithTheirPlaces(t *testing.T) {
	cfg := config(false)
	cfg.Work = []engine.Doc{{Name: "stdin", Content: "diff --git a/cmd/main.go b/cmd/main.go\n--- a/cmd/main.go\n+++ b/cmd/main.go\n@@ -1,2 +7,3 @@\n func main() {\n+\tos.Exit(run())\n }\n"}}
	improve := func(v string, sem int, imps ...any) enginetest.Step {
		return enginetest.Step{Reply: map[string]any{
			"verdict": v, "scores": map[string]int{"semantic": sem, "pragmatic": 3, "syntactic": 3},
			"reasoning": "because", "improvements": imps,
		}}
	}
	s := enginetest.NewScript().
		On("gemini", ShapeQuick, improve("improve", 3, "Name the edge cases", map[string]any{"improvement": "Return the error", "quote": "os.Exit(run())"})).
		On("claude", ShapeDeep, improve("reject", 1, "name the  edge cases", map[string]any{"improvement": "Cite the spec", "quote": "a line nobody wrote"}))
	out, _, _ := runIt(t, cfg, s)
	sec := out.Document.Section(doc.SectionFindings)
	if sec == nil {
		t.Fatalf("no findings section:\n%s", out.Markdown)
	}
	got := sec.Blocks[0].Findings.Items
	want := []doc.Finding{
		{About: "improvement", Issue: "Name the edge cases", Level: doc.LevelError, By: []string{"gemini (quick judge)", "claude (deep judge)"}},
		{About: "improvement", Issue: "Return the error", Quote: "os.Exit(run())", File: "cmd/main.go", Line: 8, Level: doc.LevelWarning, By: []string{"gemini (quick judge)"}},
		{About: "improvement", Issue: "Cite the spec", Quote: "a line nobody wrote", Level: doc.LevelError, By: []string{"claude (deep judge)"}, Flag: "not found in the work"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings:\n got %+v\nwant %+v", got, want)
	}
}

// An improvement that is neither a string nor an object with its text
// is a field error naming it.
func TestImprovementObjectsAreChecked(t *testing.T) {
	for reply, want := range map[string]string{
		`{"verdict":"improve","scores":{"semantic":3,"pragmatic":3,"syntactic":3},"reasoning":"r","improvements":[{"quote":"x"}]}`: `improvements[0]`,
		`{"verdict":"improve","scores":{"semantic":3,"pragmatic":3,"syntactic":3},"reasoning":"r","improvements":[3]}`:             `improvements[0]`,
		`{"verdict":"improve","scores":{"semantic":3,"pragmatic":3,"syntactic":3},"reasoning":"r","improvements":"fix it"}`:        `improvements`,
	} {
		if _, err := Parse(reply); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s) = %v, want an error naming %s", reply, err, want)
		}
	}
	j, err := Parse(`{"verdict":"improve","scores":{"semantic":3,"pragmatic":3,"syntactic":3},"reasoning":"r","improvements":["a", {"Improvement":"b","Quote":"q"}]}`)
	if err != nil || !reflect.DeepEqual(j.Improvements, []string{"a", "b"}) || !reflect.DeepEqual(j.Quotes, []string{"", "q"}) {
		t.Errorf("Parse: %v %q %q", err, j.Improvements, j.Quotes)
	}
}
