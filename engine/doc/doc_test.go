package doc

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/outcome.schema.json")

// sample is a document with every kind of block.
func sample() Document {
	d := Document{Title: "Debate outcome", Result: "consensus", Summary: "Consensus after 2 rounds"}
	d.Notices = append(d.Notices, Notice{Label: "Over budget", Text: "all 4 calls made."})
	d.Fact("Topic", "Redis or Postgres?")
	d.Add("What claude learned", ListOf("", Item{Label: "From gemini", Text: "a migration step"}))
	d.Sections = append(d.Sections,
		Section{ID: "ledger", Heading: "Debate ledger", Restates: &Restates{Tables: []string{"Debate ledger"}},
			Blocks: []Block{TableOf([]string{"Seat", "Moved"}, [][]string{{"claude", "v1 → v2 | round 1"}})}},
		Section{ID: "trail", Heading: "Audit trail", Folded: "Full debate history"},
		Section{Heading: "Round 1", Depth: 1, Blocks: []Block{Para("**claude — opening**"), {Code: "a ``` fence"}}},
		Section{Heading: "Evidence", Blocks: []Block{
			{Findings: &Findings{Intro: "Evidence:", Items: []Finding{{About: "correctness", Quote: "package api", File: "api.go", Line: 1}, {Quote: "made up", Flag: "not found in the solution"}}}},
			Warn("Sycophancy guard", "Judge 2 changed design."),
			Numbered(Item{Text: "first", Items: []string{"under it"}}),
		}},
	)
	return d
}

func TestMarkdown(t *testing.T) {
	got := Markdown(sample())
	want := `# Debate outcome: consensus

**Consensus after 2 rounds.**

> **Over budget:** all 4 calls made.

**Topic:** Redis or Postgres?

## What claude learned

- **From gemini:** a migration step

## Debate ledger

| Seat | Moved |
|---|---|
| claude | v1 → v2 \| round 1 |

## Audit trail

<details>
<summary>Full debate history</summary>

### Round 1

**claude — opening**

` + "````\na ``` fence\n````" + `

</details>

## Evidence

Evidence:
- correctness: “package api” (` + "`api.go:1`" + `)
- “made up” — ⚠ **not found in the solution** (flagged by arena)

> ⚠ **Sycophancy guard:** Judge 2 changed design.

1. first
   - under it
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// A medium that shows the summary and the restated sections elsewhere
// leaves them out, a section's subsections with it.
func TestMarkdownLeavesOut(t *testing.T) {
	got := MarkdownWith(sample(), MarkdownOptions{NoSummary: true, Skip: func(s Section) bool { return s.ID == "trail" }})
	for _, gone := range []string{"Consensus after", "Audit trail", "Round 1", "<details>"} {
		if strings.Contains(got, gone) {
			t.Errorf("%q is rendered:\n%s", gone, got)
		}
	}
	if !strings.Contains(got, "## Evidence") || !strings.Contains(got, "## Debate ledger") {
		t.Errorf("a section after the one left out is gone:\n%s", got)
	}
	if s := Sections(sample().Sections[2:4], 1); !strings.HasPrefix(s, "# Audit trail") || !strings.Contains(s, "\n## Round 1\n") {
		t.Errorf("sections at level 1:\n%s", s)
	}
}

// The schema arena publishes is the one inferred from the type, and every
// document validates against it; a block of two kinds does not.
func TestSchema(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "outcome.schema.json")
	if *update {
		if err := os.WriteFile(path, Schema(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	published, err := os.ReadFile(path)
	if err != nil || string(published) != string(Schema()) {
		t.Fatalf("%s is not the schema of doc.Document (go test ./engine/doc -update): %v", path, err)
	}
	b, _ := json.Marshal(sample())
	if err := Validate(b); err != nil {
		t.Fatalf("the sample does not validate: %v\n%s", err, b)
	}
	for name, bad := range map[string]string{
		"two kinds in a block": `{"title":"x","sections":[{"heading":"h","blocks":[{"text":"a","code":"b"}]}]}`,
		"no title":             `{"sections":[]}`,
		"unknown key":          `{"title":"x","colour":"red"}`,
		"line as text":         `{"title":"x","sections":[{"heading":"h","blocks":[{"findings":{"items":[{"quote":"q","line":"3"}]}}]}]}`,
	} {
		if err := Validate([]byte(bad)); err == nil {
			t.Errorf("%s: validates", name)
		}
	}
}
