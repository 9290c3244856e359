// Package doc is a run's outcome document as data: its title and result,
// the notices a reader must see first, the facts under them, and sections
// of prose, lists, tables and findings. Each protocol builds its document
// once; arena adds its own sections to it as data (what each agent cost,
// the budget, the resume, the moderator's notes, the seats); and each
// medium renders it its own way: the Markdown file (Markdown, here), the
// live screen and the printed run (package tui), and JSON (the --json
// outcome event and MCP's structuredContent), whose JSON Schema Schema
// returns. Nothing edits a rendered document.
//
// Every text field holds Markdown inline text (emphasis, code spans) as a
// protocol wrote it; a Markdown renderer prints it as it is, a plain one
// may drop the marks.
package doc

// Document is an outcome document.
type Document struct {
	// Title and Result head the document: "Debate outcome" and
	// "consensus" read "Debate outcome: consensus".
	Title  string `json:"title" jsonschema:"what the run was: Debate outcome, Comparison, Verdict"`
	Result string `json:"result,omitempty" jsonschema:"how it ended, in the title's words: consensus, Kafka recommended, interrupted"`
	// Summary is the outcome in one line, as the outcome event says it.
	Summary string `json:"summary,omitempty" jsonschema:"the outcome in one line"`
	// Notices are what a reader must see before the rest: the run was
	// stopped (and how to carry it on), the judges need a human.
	Notices []Notice `json:"notices,omitempty" jsonschema:"what a reader must see first: a stopped run and how to carry it on, a human review needed"`
	// Facts are the run's particulars under the title: its topic, the
	// options, the final position.
	Facts    []Fact    `json:"facts,omitempty" jsonschema:"the run's particulars: its topic, its options, the final position"`
	Sections []Section `json:"sections,omitempty" jsonschema:"the document's sections, in order; a section deeper than the one before it belongs to it"`
}

// Notice is a callout: "Over budget: …", "⚠ Human review needed: …".
type Notice struct {
	Label   string `json:"label"`
	Text    string `json:"text"`
	Warning bool   `json:"warning,omitempty" jsonschema:"a warning: drawn with a warning sign"`
}

// Fact is one particular of the run: "Topic: …".
type Fact struct {
	Name     string    `json:"name"`
	Value    string    `json:"value"`
	Restates *Restates `json:"restates,omitempty" jsonschema:"what of the run's event stream this fact repeats"`
}

// Section IDs of the sections arena adds to every protocol's document,
// for a consumer to find them without reading headings.
const (
	SectionSeats     = "seats"
	SectionModerator = "moderator"
	SectionCosts     = "costs"
	SectionBudget    = "budget"
	SectionResume    = "resume"
	SectionHistory   = "history"
	// SectionFindings holds what the judges found in the work, each
	// with its place (verdict and rank): SARIF is drawn from it.
	SectionFindings = "findings"
)

// Section is a part of the document: a heading and its blocks.
// Sections are a flat list, each with its depth (0: a part of the
// document, 1: a part of the part above it, …), as the document's
// outline reads.
type Section struct {
	// ID names the section for a program ("costs", "ledger"), where
	// its heading is for a person.
	ID      string `json:"id,omitempty" jsonschema:"a stable name for programs: costs, budget, resume, moderator, seats, ledger, trail..."`
	Heading string `json:"heading"`
	Depth   int    `json:"depth,omitempty" jsonschema:"0 for a part of the document, 1 for a part of the section above it, and so on"`
	// Folded, when set, is the line a medium that can fold shows in
	// place of the section's body (and of its subsections'): the audit
	// trail, closed until opened.
	Folded string `json:"folded,omitempty" jsonschema:"drawn closed under this line where the medium can fold: the audit trail"`
	// Restates says what of the run's stream the section says again: a
	// front end that has just shown the stream may leave it out.
	Restates *Restates `json:"restates,omitempty" jsonschema:"what of the run's event stream this section repeats: a front end that showed the stream may leave it out"`
	Blocks   []Block   `json:"blocks,omitempty"`
}

// Restates is what of the run's stream a section or a fact says again:
// the tables of those titles (a title's beginning: "Order receipts" for
// "Order receipts (2 orders)"), the replies of those seats, the run's
// notes, what its start said (its topic, its settings).
type Restates struct {
	Start  bool     `json:"start,omitempty" jsonschema:"it repeats what the run's start said: its topic, its settings"`
	Tables []string `json:"tables,omitempty" jsonschema:"the titles of the run's tables it repeats (their beginnings)"`
	Seats  []string `json:"seats,omitempty" jsonschema:"the seats whose replies it repeats"`
	Notes  bool     `json:"notes,omitempty" jsonschema:"it repeats the run's notes (its warnings)"`
}

// Block is one block of a section: exactly one of its fields is set.
type Block struct {
	Text     string    `json:"text,omitempty" jsonschema:"a paragraph"`
	Notice   *Notice   `json:"notice,omitempty" jsonschema:"a callout"`
	List     *List     `json:"list,omitempty"`
	Table    *Table    `json:"table,omitempty"`
	Findings *Findings `json:"findings,omitempty" jsonschema:"quoted evidence, with the file and line it was found at"`
	Code     string    `json:"code,omitempty" jsonschema:"preformatted text"`
}

// List is a list of items, after a line that introduces it ("Choose
// Kafka if:").
type List struct {
	Intro   string `json:"intro,omitempty"`
	Ordered bool   `json:"ordered,omitempty"`
	Items   []Item `json:"items"`
}

// Item is a list's item: its text after a label ("From gemini: …"), and
// the items under it.
type Item struct {
	Label string   `json:"label,omitempty"`
	Text  string   `json:"text"`
	Items []string `json:"items,omitempty"`
}

// Table is a table: its columns, then its rows of cells.
type Table struct {
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
}

// Findings are quotes a model gave as evidence, as arena checked them.
type Findings struct {
	Intro string    `json:"intro,omitempty"`
	Items []Finding `json:"items"`
}

// Finding is one quote, or one thing a judge found in the work: what it
// bears on, what is wrong or asked for (Issue), where arena found it
// (File and Line; none when it was not found), how much it weighs, the
// judges who raised it, and what arena flags about it. SARIF (package
// tui/sarif) is drawn from these.
type Finding struct {
	About string `json:"about,omitempty" jsonschema:"what the quote bears on: a criterion"`
	Issue string `json:"issue,omitempty" jsonschema:"what a judge found wrong or asks to improve"`
	Quote string `json:"quote"`
	File  string `json:"file,omitempty" jsonschema:"the file the quote was found in"`
	Line  int    `json:"line,omitempty" jsonschema:"the line it begins on, from 1"`
	// Level is how much the finding weighs: LevelError, LevelWarning or
	// LevelNote ("" for a quote given as evidence alone).
	Level string   `json:"level,omitempty" jsonschema:"how much it weighs: error (the judge rejects), warning (it asks for improvement), note"`
	By    []string `json:"by,omitempty" jsonschema:"the judges who raised it"`
	Flag  string   `json:"flag,omitempty" jsonschema:"what arena found wrong with it: not found in the solution"`
}

// The levels of a finding, SARIF's words.
const (
	LevelError   = "error"
	LevelWarning = "warning"
	LevelNote    = "note"
)

// Para is a paragraph.
func Para(text string) Block { return Block{Text: text} }

// Warn is a warning callout.
func Warn(label, text string) Block {
	return Block{Notice: &Notice{Label: label, Text: text, Warning: true}}
}

// Bullets is a list of plain items, after intro ("" for none).
func Bullets(intro string, items ...string) Block {
	l := &List{Intro: intro, Items: []Item{}}
	for _, it := range items {
		l.Items = append(l.Items, Item{Text: it})
	}
	return Block{List: l}
}

// ListOf is a list of items, after intro ("" for none).
func ListOf(intro string, items ...Item) Block {
	if items == nil {
		items = []Item{}
	}
	return Block{List: &List{Intro: intro, Items: items}}
}

// Numbered is an ordered list of items.
func Numbered(items ...Item) Block {
	if items == nil {
		items = []Item{}
	}
	return Block{List: &List{Ordered: true, Items: items}}
}

// TableOf is a table.
func TableOf(columns []string, rows [][]string) Block {
	if rows == nil {
		rows = [][]string{}
	}
	return Block{Table: &Table{Columns: columns, Rows: rows}}
}

// Add appends a section of those blocks at depth 0 of the document.
func (d *Document) Add(heading string, blocks ...Block) {
	d.Sections = append(d.Sections, Section{Heading: heading, Blocks: blocks})
}

// Fact adds a particular of the run.
func (d *Document) Fact(name, value string) {
	d.Facts = append(d.Facts, Fact{Name: name, Value: value})
}

// Started adds a particular of the run that its start said already (its
// topic, a setting).
func (d *Document) Started(name, value string) {
	d.Facts = append(d.Facts, Fact{Name: name, Value: value, Restates: &Restates{Start: true}})
}

// Section returns the document's first section with that ID, or nil.
func (d *Document) Section(id string) *Section {
	for i := range d.Sections {
		if d.Sections[i].ID == id {
			return &d.Sections[i]
		}
	}
	return nil
}

// Under returns sections at depth levels below their own: a report's
// sections, put in a document as the parts of its section.
func Under(sections []Section, levels int) []Section {
	out := make([]Section, len(sections))
	for i, s := range sections {
		s.Depth += levels
		out[i] = s
	}
	return out
}
