package doc

import (
	"strconv"
	"strings"
)

// MarkdownOptions say how much of a document Markdown renders: a medium
// that shows the summary and some sections elsewhere leaves them out.
type MarkdownOptions struct {
	// NoSummary leaves the summary out (the screen's banner and the
	// printed run's last line say it).
	NoSummary bool
	// Skip leaves out the sections it returns true for, with their
	// subsections; SkipFact the facts.
	Skip     func(Section) bool
	SkipFact func(Fact) bool
}

// Markdown renders the document as the Markdown file arena saves: the
// title, the summary in bold, the notices as quotes, the facts, then each
// section under a heading of its depth (## for depth 0).
func Markdown(d Document) string { return MarkdownWith(d, MarkdownOptions{}) }

// MarkdownWith renders the document as o says.
func MarkdownWith(d Document, o MarkdownOptions) string {
	var w mdWriter
	title := d.Title
	if d.Result != "" {
		title += ": " + d.Result
	}
	w.block("# " + oneLine(title))
	if d.Summary != "" && !o.NoSummary {
		w.block("**" + sentence(oneLine(d.Summary)) + "**")
	}
	for _, n := range d.Notices {
		w.block(notice(n))
	}
	for _, f := range d.Facts {
		if o.SkipFact == nil || !o.SkipFact(f) {
			w.block("**" + f.Name + ":** " + f.Value)
		}
	}
	w.sections(d.Sections, 2, o.Skip)
	return w.String()
}

// Sections renders sections alone, depth 0 under a heading of level top
// (1: #): a judge's report, written to its own file as it grows.
func Sections(sections []Section, top int) string {
	var w mdWriter
	w.sections(sections, top, nil)
	return w.String()
}

// mdWriter writes Markdown blocks, a blank line between two.
type mdWriter struct {
	b      strings.Builder
	folded []int // the depths of the folded sections open, innermost last
}

func (w *mdWriter) String() string { return w.b.String() }

// block writes a block: its lines, after a blank line when one came
// before.
func (w *mdWriter) block(s string) {
	if w.b.Len() > 0 {
		w.b.WriteString("\n")
	}
	w.b.WriteString(strings.TrimRight(s, "\n") + "\n")
}

func (w *mdWriter) sections(ss []Section, top int, skip func(Section) bool) {
	skipping := -1 // the depth of the section left out, while its subsections follow
	for _, s := range ss {
		if skipping >= 0 && s.Depth > skipping {
			continue
		}
		skipping = -1
		if skip != nil && skip(s) {
			skipping = s.Depth
			continue
		}
		w.closeFolds(s.Depth)
		w.section(s, top)
	}
	w.closeFolds(-1)
}

// closeFolds ends the folded sections that a section at depth ends.
func (w *mdWriter) closeFolds(depth int) {
	for len(w.folded) > 0 && w.folded[len(w.folded)-1] >= depth {
		w.folded = w.folded[:len(w.folded)-1]
		w.block("</details>")
	}
}

func (w *mdWriter) section(s Section, top int) {
	level := min(top+s.Depth, 6)
	w.block(strings.Repeat("#", level) + " " + oneLine(s.Heading))
	if s.Folded != "" {
		w.block("<details>\n<summary>" + oneLine(s.Folded) + "</summary>")
		w.folded = append(w.folded, s.Depth)
	}
	for _, b := range s.Blocks {
		w.block(blockMarkdown(b))
	}
}

// blockMarkdown is a block's Markdown.
func blockMarkdown(b Block) string {
	switch {
	case b.Notice != nil:
		return notice(*b.Notice)
	case b.List != nil:
		return list(*b.List)
	case b.Table != nil:
		return table(*b.Table)
	case b.Findings != nil:
		return findings(*b.Findings)
	case b.Code != "":
		return code(b.Code)
	}
	return b.Text
}

func notice(n Notice) string {
	mark := ""
	if n.Warning {
		mark = "⚠ "
	}
	return quote(mark + "**" + n.Label + ":** " + n.Text)
}

// quote puts "> " before every line of s.
func quote(s string) string {
	return "> " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n> ")
}

func list(l List) string {
	var b strings.Builder
	if l.Intro != "" {
		b.WriteString(l.Intro + "\n")
	}
	for i, it := range l.Items {
		mark := "- "
		if l.Ordered {
			mark = strconv.Itoa(i+1) + ". "
		}
		b.WriteString(mark + indent(itemText(it), len(mark)) + "\n")
		for _, sub := range it.Items {
			b.WriteString(strings.Repeat(" ", len(mark)) + "- " + indent(sub, len(mark)+2) + "\n")
		}
	}
	return b.String()
}

// itemText is an item as a list shows it: "**Label:** text".
func itemText(it Item) string {
	if it.Label == "" {
		return it.Text
	}
	return strings.TrimRight("**"+it.Label+":** "+it.Text, " ")
}

// indent keeps a list item's later lines inside the item.
func indent(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	return strings.ReplaceAll(s, "\n", "\n"+strings.Repeat(" ", n))
}

func table(t Table) string {
	var b strings.Builder
	row := func(cells []string) {
		b.WriteString("|")
		for i := range t.Columns {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			b.WriteString(" " + cell(c) + " |")
		}
		b.WriteString("\n")
	}
	row(t.Columns)
	b.WriteString("|" + strings.Repeat("---|", len(t.Columns)) + "\n")
	for _, r := range t.Rows {
		row(r)
	}
	return b.String()
}

// cell makes text safe inside a Markdown table cell: one line, with its
// pipes escaped.
func cell(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
}

func findings(f Findings) string {
	var b strings.Builder
	if f.Intro != "" {
		b.WriteString(f.Intro + "\n")
	}
	for _, x := range f.Items {
		b.WriteString("- " + FindingWords(x) + "\n")
	}
	return b.String()
}

// FindingWords is a finding in a line: `correctness: “quote” (main.go:3)`,
// or, flagged, `“quote” — ⚠ **not found in the solution** (flagged by
// arena)`.
func FindingWords(x Finding) string {
	var parts []string
	if x.Issue != "" {
		parts = append(parts, oneLine(x.Issue))
	}
	if x.Quote != "" {
		parts = append(parts, "“"+oneLine(x.Quote)+"”")
	}
	s := strings.Join(parts, " — ")
	if x.About != "" {
		s = x.About + ": " + s
	}
	if x.File != "" {
		where := x.File
		if x.Line > 0 {
			where += ":" + strconv.Itoa(x.Line)
		}
		s += " (`" + where + "`)"
	}
	if len(x.By) > 0 {
		who := "from " + strings.Join(x.By, ", ")
		if x.Level != "" {
			who = x.Level + ", " + who
		}
		s += " (" + who + ")"
	}
	if x.Flag != "" {
		s += " — ⚠ **" + x.Flag + "** (flagged by arena)"
	}
	return s
}

// code fences text with more backticks than it holds in a row.
func code(s string) string {
	n, run := 3, 0
	for _, r := range s {
		if r == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", n)
	return fence + "\n" + strings.TrimRight(s, "\n") + "\n" + fence
}

// oneLine puts text on one line, white space collapsed.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// sentence ends s with a full stop unless it ends with punctuation.
func sentence(s string) string {
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".!?") {
		return s
	}
	return s + "."
}
