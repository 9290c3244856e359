package termshot

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/cellbuf"
)

// The picture's geometry, in pixels: a cell is 0.6 of the font's size
// wide (a monospaced font's advance) and 1.2 of it high.
const (
	FontSize   = 14.0
	CellWidth  = 8.4
	CellHeight = 17.0
	Left       = 16.0 // the window's margin
	Top        = 40.0 // under the window's title bar
	Bottom     = 16.0
	baseline   = 13.0 // from a row's top
)

// fonts are the monospaced fonts a viewer may have, the first found
// drawing the text; none is embedded (a renderer may ignore it).
const fonts = `'JetBrains Mono', 'SF Mono', Menlo, Consolas, 'DejaVu Sans Mono', 'Liberation Mono', monospace`

// X is where column col starts; Y where row row's top is.
func X(col int) float64 { return Left + float64(col)*CellWidth }
func Y(row int) float64 { return Top + float64(row)*CellHeight }

// SVG draws the screen in a window: the cells' backgrounds, then their
// text, each character at its column, then the characters drawn as
// shapes (Drawn), which fonts draw unevenly or not at all.
func SVG(s Screen, pl Palette) []byte {
	w := 2*Left + float64(s.Width)*CellWidth
	h := Top + float64(len(s.Rows))*CellHeight + Bottom
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="%s" height="%s" viewBox="0 0 %s %s">`+"\n", num(w), num(h), num(w), num(h))
	fmt.Fprintf(&b, `<rect width="%s" height="%s" rx="8" fill="%s"/>`+"\n", num(w), num(h), pl.Background)
	for i, c := range []string{"#ff5f57", "#febc2e", "#28c840"} {
		fmt.Fprintf(&b, `<circle cx="%d" cy="20" r="6" fill="%s"/>`+"\n", 24+20*i, c)
	}
	b.WriteString("<defs>\n")
	for _, g := range usedGlyphs(s) {
		fmt.Fprintf(&b, `<g id="%s">%s</g>`+"\n", glyphID(g), drawn[g])
	}
	b.WriteString("</defs>\n")
	for y, row := range s.Rows {
		backgrounds(&b, pl, y, row)
	}
	fmt.Fprintf(&b, `<g font-family="%s" font-size="%s" fill="%s">`+"\n", fonts, num(FontSize), pl.Foreground)
	for y, row := range s.Rows {
		text(&b, pl, y, row)
	}
	b.WriteString("</g>\n")
	for y, row := range s.Rows {
		for x, c := range row {
			if _, ok := drawn[c.Text]; ok {
				fg, _ := pl.Colours(c.Style)
				fmt.Fprintf(&b, `<use xlink:href="#%s" x="%s" y="%s" color="%s"%s/>`+"\n",
					glyphID(c.Text), num(X(x)), num(Y(y)), fg, faint(c.Style))
			}
		}
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// backgrounds paints the runs of cells with a background of their own.
func backgrounds(b *strings.Builder, pl Palette, y int, row []Cell) {
	for x := 0; x < len(row); {
		_, bg := pl.Colours(row[x].Style)
		end := x + 1
		for end < len(row) {
			if _, next := pl.Colours(row[end].Style); next != bg {
				break
			}
			end++
		}
		if bg != "" {
			fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n",
				num(X(x)), num(Y(y)), num(float64(end-x)*CellWidth), num(CellHeight), bg)
		}
		x = end
	}
}

// text writes a row's text: a run of cells of one style, between blanks,
// is a tspan whose characters each have their column's x.
func text(b *strings.Builder, pl Palette, y int, row []Cell) {
	var line strings.Builder
	for x := 0; x < len(row); {
		if !written(row[x]) {
			x++
			continue
		}
		st := row[x].Style
		var xs []string
		var chars strings.Builder
		for ; x < len(row) && (row[x].Text == "" || written(row[x]) && row[x].Style.Equal(&st)); x++ {
			if row[x].Text == "" { // the second column of a wide character
				continue
			}
			// An x for each character: a cell holding several (an
			// accent, a joined emoji) takes as many, all at its column.
			for range utf8.RuneCountInString(row[x].Text) {
				xs = append(xs, num(X(x)))
			}
			chars.WriteString(escape(row[x].Text))
		}
		fmt.Fprintf(&line, `<tspan x="%s"%s>%s</tspan>`, strings.Join(xs, " "), attrs(pl, st), chars.String())
	}
	if line.Len() > 0 {
		fmt.Fprintf(b, `<text y="%s">%s</text>`+"\n", num(Y(y)+baseline), line.String())
	}
}

// written says whether the cell is drawn as text: not a blank, not a
// character drawn as a shape, not the rest of a wide one.
func written(c Cell) bool {
	_, shape := drawn[c.Text]
	return c.Text != "" && c.Text != " " && !shape
}

// attrs are a tspan's colour and weight, those of the whole text left out.
func attrs(pl Palette, st cellbuf.Style) string {
	var a strings.Builder
	if fg, _ := pl.Colours(st); fg != pl.Foreground {
		fmt.Fprintf(&a, ` fill="%s"`, fg)
	}
	if st.Attrs&cellbuf.BoldAttr != 0 {
		a.WriteString(` font-weight="bold"`)
	}
	if st.Attrs&cellbuf.ItalicAttr != 0 {
		a.WriteString(` font-style="italic"`)
	}
	var deco []string
	if st.UlStyle != cellbuf.NoUnderline {
		deco = append(deco, "underline")
	}
	if st.Attrs&cellbuf.StrikethroughAttr != 0 {
		deco = append(deco, "line-through")
	}
	if len(deco) > 0 {
		fmt.Fprintf(&a, ` text-decoration="%s"`, strings.Join(deco, " "))
	}
	a.WriteString(faint(st))
	return a.String()
}

// faint is how a faint cell is drawn: half seen.
func faint(st cellbuf.Style) string {
	if st.Attrs&cellbuf.FaintAttr != 0 {
		return ` opacity="0.5"`
	}
	return ""
}

func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// num writes a length with at most two decimals.
func num(f float64) string {
	s := strings.TrimRight(fmt.Sprintf("%.2f", f), "0")
	return strings.TrimSuffix(s, ".")
}
