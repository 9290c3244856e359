package page

import (
	"bytes"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
)

// Sections nest by depth: a deeper one belongs to the one before it, a
// jump of two levels to the nearest shallower one; headings go from h3
// down to h6 and no further.
func TestOutlineNestsSectionsByDepth(t *testing.T) {
	got := outline([]doc.Section{
		{Heading: "a"}, {Heading: "a1", Depth: 1}, {Heading: "a1x", Depth: 2}, {Heading: "a1xy", Depth: 3}, {Heading: "a1xyz", Depth: 4},
		{Heading: "a2", Depth: 1}, {Heading: "b"}, {Heading: "b-deep", Depth: 2},
	})
	var walk func(ps []*part) string
	walk = func(ps []*part) string {
		var out []string
		for _, p := range ps {
			s := p.Heading + "/h" + string(rune('0'+p.Level))
			if len(p.Parts) > 0 {
				s += "(" + walk(p.Parts) + ")"
			}
			out = append(out, s)
		}
		return strings.Join(out, " ")
	}
	want := "a/h3(a1/h4(a1x/h5(a1xy/h6(a1xyz/h6))) a2/h4) b/h3(b-deep/h4)"
	if w := walk(got); w != want {
		t.Errorf("outline:\n got %s\nwant %s", w, want)
	}
}

// A folded section, and one that says again what the run shows, are
// drawn closed; the rest open. Facts restating the start are the
// header's.
func TestDocumentClosesWhatTheRunShows(t *testing.T) {
	d := doc.Document{Title: "Verdict", Result: "ACCEPT", Notices: []doc.Notice{{Label: "Stop", Text: "it stopped", Warning: true}}}
	d.Started("Task", "the topic, again")
	d.Fact("Solution", "`main.go`")
	d.Sections = []doc.Section{
		{Heading: "Scorecard", Restates: &doc.Restates{Tables: []string{"Scorecard"}}, Blocks: []doc.Block{doc.TableOf([]string{"judge"}, [][]string{{"quick"}})}},
		{Heading: "Thresholds", Blocks: []doc.Block{doc.Para("Applied by arena.")}},
		{Heading: "Audit trail", Folded: "Full debate history", Blocks: []doc.Block{{Code: "x < y"}}},
		{Heading: "Round 1", Depth: 1, Blocks: []doc.Block{doc.Para("inside the trail")}},
	}
	html := render(t, &engine.Outcome{Result: "accept", Summary: "accepted", Document: &d})
	for _, want := range []string{
		`<p class="doctitle">Verdict: ACCEPT</p>`,
		`<p class="notice warn">⚠ <b>Stop:</b> it stopped</p>`,
		`<dt>Solution</dt><dd><code>main.go</code></dd>`,
		`<details class="part"><summary><h3>Scorecard</h3> <span class="meta">as the run above shows it</span></summary>`,
		`<section class="part"><h3>Thresholds</h3>`,
		`<details class="part"><summary><h3>Audit trail</h3> <span class="meta">Full debate history</span></summary>`,
		`<pre><code>x &lt; y</code></pre>`,
		"<section class=\"part\"><h4>Round 1</h4>\n<div class=\"md\"><p>inside the trail</p>\n</div>\n</section>\n</details>",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the outcome lacks %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, "the topic, again") {
		t.Error("a fact restating the start is shown again in the outcome")
	}
}

// A log written before documents were data has its outcome's Markdown,
// rendered as a reply is.
func TestOlderLogOutcomeIsItsMarkdown(t *testing.T) {
	html := render(t, &engine.Outcome{Result: "recommendation", Summary: "Kafka", Markdown: "# Comparison: Kafka\n\nSome <script>x</script> **bold**\n", Failures: []string{"gemini timed out"}})
	for _, want := range []string{`<h4>Comparison: Kafka</h4>`, `&lt;script&gt;x&lt;/script&gt; <strong>bold</strong>`, `<li>gemini timed out</li>`} {
		if !strings.Contains(html, want) {
			t.Errorf("the outcome lacks %q:\n%s", want, html)
		}
	}
}

// Inline text is one paragraph's: what would open a block elsewhere (a
// heading, a list) is its text, and no paragraph wraps it.
func TestInlineIsInlineOnly(t *testing.T) {
	for in, want := range map[string]string{
		"# not a heading":          "# not a heading",
		"- not a list":             "- not a list",
		"**bold** and `code`":      "<strong>bold</strong> and <code>code</code>",
		"<b>tag</b>":               "&lt;b&gt;tag&lt;/b&gt;",
		"[x](javascript:alert(1))": "x",
		"two\nlines":               "two lines",
		"bidi \u202e":              "bidi &lt;U+202E&gt;",
	} {
		if got := string(Inline(in)); got != want {
			t.Errorf("Inline(%q) = %q, want %q", in, got, want)
		}
	}
}

func render(t *testing.T, o *engine.Outcome) string {
	t.Helper()
	var b bytes.Buffer
	if err := Fragment(&b, &Run{Outcome: o}, Change{Part: PartOutcome}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
