package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/markdown"
	"github.com/arenadebate/arena/tui/tuitest"
)

// outcomeMarkdown is a protocol's recorded outcome document.
func outcomeMarkdown(t *testing.T, protocol string) string {
	t.Helper()
	for _, e := range tuitest.Run(protocol) {
		if o, ok := e.Payload.(engine.Outcome); ok {
			return o.Markdown
		}
	}
	t.Fatalf("%s: no outcome", protocol)
	return ""
}

// The outcome document's tables fit the screen: every head is whole, in
// the table, in the legend under it or in the list a table too wide
// becomes (compare's scores were headed
// "Kafka (as g…", "Postgres LI…" at 120 columns, "Kafka …" at 80), no
// cell is cut, and a table narrower than the screen is drawn at its own
// width (compare's three short criteria columns spread over 120).
func TestOutcomeTablesFitTheScreen(t *testing.T) {
	for _, protocol := range tuitest.Protocols() {
		md := outcomeMarkdown(t, protocol)
		tables := splitTables(md)
		for _, width := range []int{60, 80, 100, 120, 160} {
			doc := renderOutcomeDoc(md, width, markdown.Options{Profile: termenv.TrueColor})
			lines := strings.Split(ansi.Strip(doc), "\n")
			text := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
			if got, want := strings.Count(doc, "…"), strings.Count(md, "…"); got > want {
				t.Errorf("%s at %d columns: %d cut (…) where the document has %d", protocol, width, got, want)
			}
			var rules []string // each table's rule under its heads, in order
			for _, l := range lines {
				if strings.Contains(l, "┼") {
					rules = append(rules, strings.TrimRight(l, " "))
				}
			}
			n := 0
			for _, p := range tables {
				tb := p.table
				if tb == nil {
					continue
				}
				for _, h := range tb.head[1:] { // the first is the rows' own, in a list
					if h = strings.ReplaceAll(h, `\|`, "|"); !strings.Contains(text, h) {
						t.Errorf("%s at %d columns: the head %q is not whole", protocol, width, h)
					}
				}
				room := width - 2*len(outcomeMargin)
				if n < len(rules) && tb.width() <= room && ansi.StringWidth(rules[n]) > len(outcomeMargin)+tb.width() {
					t.Errorf("%s at %d columns: a table that needs %d cells is drawn %d wide: %q", protocol, width, tb.width(), ansi.StringWidth(rules[n])-len(outcomeMargin), rules[n])
				}
				n++
			}
		}
	}
}

// A table is found where glamour (goldmark) finds one: not in fenced
// code, nor where the delimiter row has another count of cells; and
// under a paragraph's line too. Its escaped pipes stay in their cells.
func TestSplitTablesFindsWhatGlamourDraws(t *testing.T) {
	md := "Intro\n\n| a | b \\| c |\n|---|:-:|\n| 1 | 2 |\n\n```\n| x | y |\n|---|---|\n```\n\n| u | v |\n|---|\n\nText\n| p | q |\n|---|---|\n| 3 | 4 |\n"
	var tables []*docTable
	text := ""
	for _, p := range splitTables(md) {
		if p.table != nil {
			tables = append(tables, p.table)
		}
		text += p.text
	}
	if len(tables) != 2 {
		t.Fatalf("%d tables found, want 2", len(tables))
	}
	if got := strings.Join(tables[0].head, "|"); got != `a|b \| c` || tables[0].delim != "|---|:-:|" || len(tables[0].rows) != 1 {
		t.Fatalf("table %q, delimiter %q, %d rows", got, tables[0].delim, len(tables[0].rows))
	}
	if got := strings.Join(tables[1].head, "|"); got != "p|q" || len(tables[1].rows) != 1 {
		t.Fatalf("the table under a paragraph's line: %q, %d rows", got, len(tables[1].rows))
	}
	if !strings.Contains(text, "| x | y |") || !strings.Contains(text, "| u | v |") || !strings.HasSuffix(text, "Text\n") {
		t.Fatalf("the text around the tables lost the code, the row without a table, or the paragraph:\n%s", text)
	}
}

// Where a table's heads give way to letters, their siblings do too: every
// head too wide for its cells by at least half as much as the most. At
// 160 columns compare's scores were headed "Kafka (average) │ A │
// Postgres LISTEN/NOTIFY (reversed)", verdict's "semantic │ A │
// syntactic" at 80.
func TestKeyedHeadsTakeTheirSiblings(t *testing.T) {
	keyedSome := false
	for _, protocol := range tuitest.Protocols() {
		for _, p := range splitTables(outcomeMarkdown(t, protocol)) {
			if p.table == nil {
				continue
			}
			heads, cells := p.table.widths()
			over := func(i int) int { return heads[i] - max(cells[i], 1) }
			for w := 40; w <= 200; w += 2 {
				k, legend := p.table.keyed(w)
				if legend == "" {
					continue
				}
				keyedSome = true
				most := 0
				for i := range heads {
					if k.head[i] != p.table.head[i] {
						most = max(most, over(i))
					}
				}
				for i := range heads {
					if k.head[i] == p.table.head[i] && over(i) > 0 && 2*over(i) >= most {
						t.Errorf("%s at %d: %q kept whole beside lettered heads: %q", protocol, w, p.table.head[i], k.head)
					}
				}
			}
		}
	}
	if !keyedSome {
		t.Fatal("no recorded document has a table whose heads give way: the test checks nothing")
	}
}
