package page

import (
	"bytes"
	"html"
	"html/template"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine/doc"
)

// The outcome section renders the run's document (package doc) as data:
// its title, notices and facts, then its sections nested by depth, each
// block as the element it is. Its text fields hold Markdown inline text
// (emphasis, code spans, links), which goes through the same renderer as
// the replies: no raw HTML, safe links, cleaned text. Nothing renders
// the document's Markdown file a second time.

// part is a section of the document as the page nests it: its heading's
// level (h3 for a part of the document, down to h6), whether it is drawn
// closed (a folded section, or one that says again what the run above
// shows), and the sections under it.
type part struct {
	doc.Section
	Level int
	// Closed is the line shown on a closed section beside its heading
	// ("" when it is drawn open).
	Closed string
	Parts  []*part
}

// restatedWords is what a closed section that repeats the run says
// beside its heading.
const restatedWords = "as the run above shows it"

// outline nests a document's flat sections by depth: a section deeper
// than the one before it belongs to it.
func outline(ss []doc.Section) []*part {
	var top []*part
	var open []*part // the chain of parts the next one may belong to, innermost last
	for _, s := range ss {
		p := &part{Section: s, Closed: closedLine(s)}
		for len(open) > 0 && open[len(open)-1].Depth >= s.Depth {
			open = open[:len(open)-1]
		}
		if len(open) == 0 {
			top = append(top, p)
		} else {
			parent := open[len(open)-1]
			parent.Parts = append(parent.Parts, p)
		}
		p.Level = min(3+len(open), 6)
		open = append(open, p)
	}
	return top
}

// closedLine is the line a section is drawn closed under: its fold's, or
// restatedWords for one that repeats the stream; "" for one drawn open.
func closedLine(s doc.Section) string {
	switch {
	case s.Folded != "":
		return s.Folded
	case s.Restates != nil:
		return restatedWords
	}
	return ""
}

// shownFacts are the document's facts the page's header does not show
// already (those restating the start: the topic, the settings).
func shownFacts(fs []doc.Fact) []doc.Fact {
	var out []doc.Fact
	for _, f := range fs {
		if f.Restates == nil || !f.Restates.Start {
			out = append(out, f)
		}
	}
	return out
}

// inlineConverter reads Markdown inline text alone: every block is a
// paragraph (a "# " or "- " that opens a cell is the text it is), with
// the replies' safe renderers.
var inlineConverter = goldmark.New(
	goldmark.WithParser(parser.NewParser(
		parser.WithBlockParsers(util.Prioritized(parser.NewParagraphParser(), 1000)),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)),
	goldmark.WithExtensions(extension.Strikethrough, extension.Linkify),
	goldmark.WithRendererOptions(
		ghtml.WithWriter(cleanWriter{}),
		renderer.WithNodeRenderers(util.Prioritized(safeNodes{}, 100)),
	),
)

// Inline renders Markdown inline text (a document's heading, cell, fact
// or item) as inert HTML without a paragraph around it.
func Inline(md string) template.HTML {
	md = strings.Join(strings.Fields(md), " ")
	var b bytes.Buffer
	if err := inlineConverter.Convert([]byte(trust.Text(md)), &b); err != nil {
		return template.HTML(html.EscapeString(trust.Text(md))) //nolint:gosec // escaped
	}
	out := strings.TrimSpace(b.String())
	out = strings.TrimSuffix(strings.TrimPrefix(out, "<p>"), "</p>")
	return template.HTML(out) //nolint:gosec // goldmark without raw HTML, through cleanWriter; the rest escaped
}

// findingPlace is where arena found a quote: "main.go:3", "main.go", or
// "".
func findingPlace(f doc.Finding) string {
	if f.File == "" {
		return ""
	}
	if f.Line > 0 {
		return f.File + ":" + strconv.Itoa(f.Line)
	}
	return f.File
}
