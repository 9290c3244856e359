package page

import (
	"bufio"
	"bytes"
	"html"
	"html/template"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"

	"github.com/arenadebate/arena/challengers/trust"
)

// What a model writes is Markdown, and hostile: it is rendered to HTML by
// goldmark with no raw HTML (what looks like a tag is shown as the text it
// is), no attribute syntax, no heading IDs, no class from a code fence's
// info string, links only to http(s) and mailto (with rel="noopener
// noreferrer"; any other is its text), images never fetched (a link to
// the image, or its alt text), and every piece of text, the character
// references it spells included, cleaned as a terminal's (trust.Text:
// invisible and bidirectional characters shown as <U+…>) before it is
// escaped.

// maxMarkdown bounds the Markdown of one reply rendered to HTML; the rest
// is said to be in the log.
const maxMarkdown = 512 << 10

var converter = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify),
	goldmark.WithRendererOptions(
		ghtml.WithWriter(cleanWriter{}),
		renderer.WithNodeRenderers(util.Prioritized(safeNodes{}, 100)),
	),
)

// Markdown renders md, written by a model or read from a log, as inert
// HTML.
func Markdown(md string) template.HTML {
	kept, more := cut(md)
	var b bytes.Buffer
	if err := converter.Convert([]byte(trust.Text(kept)), &b); err != nil {
		b.Reset()
		b.WriteString("<pre>" + html.EscapeString(trust.Text(kept)) + "</pre>")
	}
	if more > 0 {
		b.WriteString(`<p class="note"><em>… ` + byteCount(more) + ` more, in the log</em></p>`)
	}
	return template.HTML(b.String()) //nolint:gosec // goldmark without raw HTML, through cleanWriter; the rest escaped
}

// cleanWriter writes text as goldmark would (backslash escapes and
// character references resolved), then cleaned with trust.Text and
// escaped: a reference such as &#x202E; spells a character the cleaner
// must see.
type cleanWriter struct{}

func (cleanWriter) Write(w util.BufWriter, source []byte) {
	var b bytes.Buffer
	bw := bufio.NewWriter(&b)
	ghtml.DefaultWriter.Write(bw, source)
	_ = bw.Flush()
	writeClean(w, html.UnescapeString(b.String()))
}

func (cleanWriter) RawWrite(w util.BufWriter, source []byte) { writeClean(w, string(source)) }

func (cleanWriter) SecureWrite(w util.BufWriter, source []byte) { writeClean(w, string(source)) }

func writeClean(w util.BufWriter, s string) {
	_, _ = w.WriteString(html.EscapeString(trust.Text(s)))
}

// safeNodes renders the nodes that could carry markup, a fetch or a
// script.
type safeNodes struct{}

func (safeNodes) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, rawAsText)
	reg.Register(ast.KindHTMLBlock, htmlBlockAsText)
	reg.Register(ast.KindLink, link)
	reg.Register(ast.KindAutoLink, autoLink)
	reg.Register(ast.KindImage, image)
	reg.Register(ast.KindHeading, heading)
	reg.Register(ast.KindFencedCodeBlock, codeBlock)
	reg.Register(east.KindTableCell, tableCell)
}

// rawAsText shows inline HTML as the text it is.
func rawAsText(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		n := node.(*ast.RawHTML)
		for i := 0; i < n.Segments.Len(); i++ {
			s := n.Segments.At(i)
			writeClean(w, string(s.Value(source)))
		}
	}
	return ast.WalkSkipChildren, nil
}

// htmlBlockAsText shows a block of HTML as the text it is, in a paragraph
// (as a paragraph of the same words would be).
func htmlBlockAsText(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.HTMLBlock)
	var b strings.Builder
	for i := 0; i < n.Lines().Len(); i++ {
		s := n.Lines().At(i)
		b.Write(s.Value(source))
	}
	if n.HasClosure() {
		b.Write(n.ClosureLine.Value(source))
	}
	_, _ = w.WriteString("<p>")
	writeClean(w, strings.TrimRight(b.String(), "\n"))
	_, _ = w.WriteString("</p>\n")
	return ast.WalkSkipChildren, nil
}

// safeURL is dest when it is an http(s) or mailto address, else "".
func safeURL(dest []byte) string {
	u := string(util.URLEscape(dest, true))
	lower := strings.ToLower(u)
	for _, scheme := range []string{"https://", "http://", "mailto:"} {
		if strings.HasPrefix(lower, scheme) && len(u) > len(scheme) {
			return u
		}
	}
	return ""
}

func openLink(w util.BufWriter, href string) {
	_, _ = w.WriteString(`<a href="` + html.EscapeString(href) + `" rel="noopener noreferrer">`)
}

// link is an <a> to an http(s) or mailto address, else its text.
func link(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	href := safeURL(node.(*ast.Link).Destination)
	switch {
	case href == "":
	case entering:
		openLink(w, href)
	default:
		_, _ = w.WriteString("</a>")
	}
	return ast.WalkContinue, nil
}

func autoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	url := n.URL(source)
	if n.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(url), []byte("mailto:")) {
		url = append([]byte("mailto:"), url...)
	}
	href := safeURL(url)
	if href != "" {
		openLink(w, href)
	}
	writeClean(w, string(n.Label(source)))
	if href != "" {
		_, _ = w.WriteString("</a>")
	}
	return ast.WalkContinue, nil
}

// image is never fetched: a link to it, named by its alt text.
func image(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	alt := strings.TrimSpace(string(plainText(n, source)))
	if alt == "" {
		alt = "image"
	}
	href := safeURL(n.Destination)
	if href != "" {
		openLink(w, href)
	}
	writeClean(w, "[image: "+alt+"]")
	if href != "" {
		_, _ = w.WriteString("</a>")
	}
	return ast.WalkSkipChildren, nil
}

// plainText is the text under n, without markup.
func plainText(n ast.Node, source []byte) []byte {
	var b []byte
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			b = append(b, t.Segment.Value(source)...)
		case *ast.String:
			b = append(b, t.Value...)
		default:
			b = append(b, plainText(c, source)...)
		}
	}
	return b
}

// heading is a reply's heading three levels down, under the page's own,
// with no id.
func heading(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	level := min(node.(*ast.Heading).Level+3, 6)
	tag := "h" + string(rune('0'+level))
	if entering {
		_, _ = w.WriteString("<" + tag + ">")
	} else {
		_, _ = w.WriteString("</" + tag + ">\n")
	}
	return ast.WalkContinue, nil
}

// codeBlock is a fenced block without the class its info string would
// give it.
func codeBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString("<pre><code>")
		lines := node.Lines()
		for i := 0; i < lines.Len(); i++ {
			s := lines.At(i)
			writeClean(w, string(s.Value(source)))
		}
	} else {
		_, _ = w.WriteString("</code></pre>\n")
	}
	return ast.WalkContinue, nil
}

// tableCell is a cell with no alignment attribute or style.
func tableCell(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	tag := "td"
	if _, ok := node.Parent().(*east.TableHeader); ok {
		tag = "th"
	}
	if entering {
		_, _ = w.WriteString("<" + tag + ">")
	} else {
		_, _ = w.WriteString("</" + tag + ">\n")
	}
	return ast.WalkContinue, nil
}
