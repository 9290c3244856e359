// Package layout renders a model's reply (a JSON object, often inside a
// ```json fence, sometimes with prose around it) as readable Markdown, both
// when the reply is complete and while it is still streaming in.
//
// It exists so that a pane reads the same during streaming as when the
// reply is done: before it, a pane showed the raw JSON while an agent
// wrote, and only turned it into Markdown once the reply could be parsed.
// Here one incremental reader (Stream) builds a tree of the reply as the
// bytes arrive, tolerant of a half-written key, an open string, a cut
// escape or rune and missing closing brackets; a declarative Layout says
// how each field of a shape reads; and Render is defined as what a Stream
// shows after reading the whole text, so the last streaming frame and the
// finished rendering cannot differ.
//
// What is read as JSON: at the start of a line or anywhere in prose, a "{"
// followed (after optional white space) by a quote opens an object; it ends
// at its matching "}". A fence line (```, ```json ...) right before such an
// object, and a bare ``` right after it, are dropped; every other fence
// stays, and no object is looked for inside a fenced code block of the
// prose. Prose around objects is kept as prose. The reader is lenient the
// way models are: keys in any case or spelling ("Objection Strength",
// objectionStrength and objection_strength are one key), raw newlines in
// strings, trailing or missing commas, bare words (True, NaN) as values.
// A byte that cannot continue the object ends it: the fields read so far
// stay, and the rest of the text from the field in progress on reads as
// prose. Of a key given twice, the first is shown.
//
// The package uses the standard library only.
package layout

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Layout says how the fields of one reply shape read, in order. Keys of
// the reply that the layout does not name are shown after the laid-out
// ones, in the order they came, read generically: a string as
// "**Humanized key:** text", an array as a bulleted list, an object as a
// bulleted list of its fields, numbers and booleans as text. A zero Layout
// therefore still reads as prose, never as JSON.
type Layout struct {
	Fields []Field `json:"fields"`
}

// Field says how one key reads.
type Field struct {
	// Key is the JSON key. It matches regardless of case and of the
	// spelling of word breaks ("open_questions", "openQuestions",
	// "Open Questions").
	Key string `json:"key"`
	// Label is the bold label; empty means the humanized key
	// ("open_questions" reads "Open questions").
	Label string `json:"label,omitempty"`
	// Style is how the value reads; see the Style constants.
	Style Style `json:"style"`
	// Format, if not empty, is a fmt format with one %s applied to the
	// value (to each item, for a list of strings): "%s objection",
	// "choose if %s", "%s/5".
	Format string `json:"format,omitempty"`
	// Sep is put before a Line field's value (default " · "), or before
	// the value of the field following a Heading.
	Sep string `json:"sep,omitempty"`
	// Upper upper-cases the value (after Values, before Format).
	Upper bool `json:"upper,omitempty"`
	// Bare leaves the label out: a Text field reads as its value alone, a
	// list as its items alone.
	Bare bool `json:"bare,omitempty"`
	// Values replaces whole values, matched case-insensitively, before
	// anything else: {"partial": "partially accept"}.
	Values map[string]string `json:"values,omitempty"`
	// Item says how each object of an array of objects (or an object
	// value) reads. Nil reads them generically.
	Item *Layout `json:"item,omitempty"`
}

// Style is how a field's value reads.
type Style int

const (
	// Text reads "**Label:** value". An array value reads as a bulleted
	// list under the label, an object value as a bulleted list of its
	// fields.
	Text Style = iota
	// Upper is Text with the value upper-cased.
	Upper
	// Bullets reads "**Label:**" then "- item" lines. An item that is an
	// object reads its first field on the bullet's line and the others
	// as bullets nested under it.
	Bullets
	// Numbered is Bullets with "1. ", "2. " ... markers.
	Numbered
	// Line joins the value onto the previous field's line, after Sep
	// (default " · "): "**Verdict:** DISAGREE · strong objection".
	Line
	// Heading reads the value alone in bold ("**Option A**"); Line fields
	// after it follow on its line.
	Heading
	// Label makes the value (with the Line fields after it) the bold label
	// of the next field: "**To codex — ACCEPT:** explanation", "**MAINTAIN:**
	// explanation". The next field is read without its own label.
	Label
	// Paragraphs reads an array of objects as one paragraph per item
	// (blank lines between items), under the label unless Bare; the
	// item's fields are joined by line breaks.
	Paragraphs
)

var styleNames = []string{"text", "upper", "bullets", "numbered", "line", "heading", "label", "paragraphs"}

// MarshalText writes a style by name ("bullets"), so a layout saved in a
// log reads the same whatever the constants' order.
func (s Style) MarshalText() ([]byte, error) {
	if s < 0 || int(s) >= len(styleNames) {
		return nil, fmt.Errorf("layout: no style %d", int(s))
	}
	return []byte(styleNames[s]), nil
}

// UnmarshalText reads a style's name; an unknown one (from a newer arena)
// reads as Text.
func (s *Style) UnmarshalText(b []byte) error {
	*s = Text
	for i, n := range styleNames {
		if n == string(b) {
			*s = Style(i)
		}
	}
	return nil
}

// Render renders a complete reply (the model's raw text) as Markdown. It
// is exactly what a Stream shows once it has been written the whole text,
// so it also renders a truncated reply as well as it can. Text without a
// JSON object renders as itself (its outer white space trimmed).
func Render(text string, l Layout) string {
	s := NewStream(l)
	s.WriteString(text)
	return s.Markdown()
}

// --- the compiled layout -------------------------------------------------

// plan is a Layout compiled for rendering: its fields grouped into blocks
// (a block is what reads as one paragraph at the top level) and a key
// index.
type plan struct {
	fields []Field
	keys   []string // normalized keys of fields
	blocks []pblock
	index  map[string]int // normalized key -> field index
	items  []*plan        // per field: compiled Item, or nil
}

// pblock is one block: one group (a head field and the Line fields after
// it), or two when the first group's head is a Label (its label group and
// the group it labels).
type pblock struct {
	groups [][]int
}

func compile(l *Layout, seen map[*Layout]*plan) *plan {
	if l == nil {
		l = &Layout{}
	}
	if p, ok := seen[l]; ok {
		return p
	}
	p := &plan{fields: l.Fields, index: map[string]int{}}
	seen[l] = p
	for i, f := range l.Fields {
		k := NormKey(f.Key)
		p.keys = append(p.keys, k)
		if _, dup := p.index[k]; !dup {
			p.index[k] = i
		}
		var it *plan
		if f.Item != nil {
			it = compile(f.Item, seen)
		}
		p.items = append(p.items, it)
	}
	for i, f := range l.Fields {
		if _, ok := p.index[p.keys[i]]; !ok || p.index[p.keys[i]] != i {
			continue // a key laid out twice reads once
		}
		n := len(p.blocks)
		switch {
		case f.Style == Line && n > 0:
			g := p.blocks[n-1].groups
			g[len(g)-1] = append(g[len(g)-1], i)
		case n > 0 && len(p.blocks[n-1].groups) == 1 && p.fields[p.blocks[n-1].groups[0][0]].Style == Label:
			p.blocks[n-1].groups = append(p.blocks[n-1].groups, []int{i})
		default:
			p.blocks = append(p.blocks, pblock{groups: [][]int{{i}}})
		}
	}
	return p
}

// generic is the plan of the zero Layout.
var generic = compile(nil, map[*Layout]*plan{})

// NormKey makes "Objection Strength", "objection-strength" and
// "objectionStrength" all "objection_strength" (and "VERDICT" "verdict"):
// a key as a layout and the engine's parser match it.
func NormKey(k string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range strings.TrimSpace(k) {
		lower := (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9')
		switch {
		case r == ' ' || r == '-':
			r = '_'
		case r >= 'A' && r <= 'Z':
			if prevLower {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
		prevLower = lower
	}
	return b.String()
}

// humanize makes a normalized key a label: "open_questions" reads "Open
// questions".
func humanize(k string) string {
	k = strings.TrimSpace(strings.ReplaceAll(k, "_", " "))
	r, n := utf8.DecodeRuneInString(k)
	if n == 0 {
		return ""
	}
	return string(unicode.ToUpper(r)) + k[n:]
}
