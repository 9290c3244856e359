package mcpserver

import (
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine/doc"
)

// A long outcome document leaves out its longest parts until it fits: the
// sections that restate the seats' replies first, with their subsections,
// then the last ones; a short one is whole.
func TestBoundContent(t *testing.T) {
	t.Parallel()
	short := &doc.Document{Title: "Debate outcome", Sections: []doc.Section{{Heading: "Options"}}}
	if d, cut := boundContent(short); d != short || cut {
		t.Fatalf("a short document: cut %v", cut)
	}
	if d, cut := boundContent(nil); d != nil || cut {
		t.Fatal("no document: something")
	}
	reply := strings.Repeat("a reply that streamed. ", 600) // 13.8 KiB
	long := &doc.Document{Title: "Judging outcome", Result: "consensus", Sections: []doc.Section{
		{Heading: "Consensus Scores", Blocks: []doc.Block{doc.Para("the scores")}},
		{Heading: "Report of Judge 1", Restates: &doc.Restates{Seats: []string{"Judge 1"}}},
		{Heading: "analysis", Depth: 1, Blocks: []doc.Block{doc.Para(reply)}},
		{Heading: "Report of Judge 2", Restates: &doc.Restates{Seats: []string{"Judge 2"}}},
		{Heading: "analysis", Depth: 1, Blocks: []doc.Block{doc.Para(reply)}},
		{Heading: "Report of Judge 3", Restates: &doc.Restates{Seats: []string{"Judge 3"}}},
		{Heading: "analysis", Depth: 1, Blocks: []doc.Block{doc.Para(reply)}},
		{Heading: "Report of Judge 4", Restates: &doc.Restates{Seats: []string{"Judge 4"}}},
		{Heading: "analysis", Depth: 1, Blocks: []doc.Block{doc.Para(reply)}},
		{Heading: "What each agent cost", ID: doc.SectionCosts, Blocks: []doc.Block{doc.Para("the costs")}},
	}}
	d, cut := boundContent(long)
	if !cut || jsonSize(d) > maxContent || len(long.Sections) != 10 {
		t.Fatalf("cut %v, %d bytes; the original has %d sections", cut, jsonSize(d), len(long.Sections))
	}
	var heads []string
	for _, s := range d.Sections {
		heads = append(heads, s.Heading)
	}
	if got := strings.Join(heads, ", "); got != "Consensus Scores, Report of Judge 1, analysis, Report of Judge 2, analysis, Report of Judge 3, analysis, What each agent cost" {
		t.Fatalf("kept %s", got)
	}
	huge := &doc.Document{Title: "x", Summary: "s", Facts: []doc.Fact{{Name: "Topic", Value: strings.Repeat("t", maxContent)}}}
	if d, cut := boundContent(huge); !cut || len(d.Facts) != 0 || d.Summary != "s" {
		t.Fatalf("a document too long without its sections: %+v", d)
	}
}
