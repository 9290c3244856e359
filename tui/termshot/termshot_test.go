package termshot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/cellbuf"
)

var update = flag.Bool("update", false, "draw docs/screen.svg again from docs/screen.ansi")

// The README's picture is drawn from its capture, a real run's screen
// (scripts/screenshot): the two are committed together, and the picture
// is exactly what SVG draws of the capture (go test ./tui/termshot
// -update draws it again).
func TestTheREADMEPictureIsItsCapture(t *testing.T) {
	docs := filepath.Join("..", "..", "docs")
	capture, err := os.ReadFile(filepath.Join(docs, "screen.ansi"))
	if err != nil {
		t.Fatal(err)
	}
	s := Parse(string(capture))
	if s.Width != 120 || len(s.Rows) != 34 {
		t.Fatalf("the capture is %d×%d, not the 120×34 scripts/screenshot makes", s.Width, len(s.Rows))
	}
	svg := SVG(s, Dark)
	path := filepath.Join(docs, "screen.svg")
	if *update {
		if err := os.WriteFile(path, svg, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	committed, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, svg) {
		t.Fatal("docs/screen.svg is not the picture of docs/screen.ansi: run scripts/screenshot (or go test ./tui/termshot -update)")
	}
	if err := drawnAsScreen(committed, s, Dark); err != nil {
		t.Fatal(err)
	}
}

// Every cell of the picture is drawn as the captured screen has it: its
// character at its column, in its colour and weight, on its background.
// The picture freeze drew painted the text of every wrapped line in its
// pane's border colour: it took "default colour" (39) for no change
// (issue 40, item 3).
func TestEveryCellKeepsItsColour(t *testing.T) {
	const capture = "\x1b[38;2;167;139;250m┃\x1b[39m text after a border \x1b[38;2;63;69;81m│\n" +
		"\x1b[38;2;63;69;81m│\x1b[39m \x1b[1mBold:\x1b[0m\x1b[39m\x1b[49m plain, then \x1b[2;38;5;208mfaint\x1b[0m & <escaped>\n" +
		"\x1b[48;2;167;139;250m \x1b[1;38;2;17;24;39mARENA\x1b[0m ⏸ paused ⠙ 表 \x1b[7mreversed\x1b[27m \x1b]0;title\x07end\n" +
		"\x1b[31mred carried\n" +
		"on to the next line\x1b[m ╭─╮ ┏━┓\n"
	s := Parse(capture)
	if err := drawnAsScreen(SVG(s, Dark), s, Dark); err != nil {
		t.Fatal(err)
	}
	// What the parser must make of it, the way a terminal does.
	for _, c := range []struct {
		row, col int
		text     string
		fg       string
		attrs    cellbuf.AttrMask
	}{
		{0, 0, "┃", "#a78bfa", 0},
		{0, 2, "t", "", 0}, // 39: the default colour, not the border's
		{1, 2, "B", "", cellbuf.BoldAttr},
		{1, 8, "p", "", 0},
		{2, 1, "A", "#111827", cellbuf.BoldAttr},
		{2, 21, "r", "", cellbuf.ReverseAttr},
		{3, 0, "r", "#800000", 0},
		{4, 0, "o", "#800000", 0}, // a style holds across the end of a line
	} {
		got := s.Rows[c.row][c.col]
		if got.Text != c.text || hex(got.Style.Fg) != c.fg || got.Style.Attrs != c.attrs {
			t.Errorf("row %d col %d is %q %q %v, want %q %q %v", c.row, c.col, got.Text, hex(got.Style.Fg), got.Style.Attrs, c.text, c.fg, c.attrs)
		}
	}
	if row := s.Rows[2]; row[18].Text != "表" || row[19].Text != "" || row[20].Text != " " {
		t.Errorf("a wide character does not take two columns: %q %q %q", row[18].Text, row[19].Text, row[20].Text)
	}
	if got := rowText(s.Rows[2]); !strings.HasSuffix(strings.TrimRight(got, " "), "reversed end") {
		t.Errorf("an OSC sequence left text behind: %q", got)
	}
}

func rowText(row []Cell) string {
	var b strings.Builder
	for _, c := range row {
		b.WriteString(c.Text)
	}
	return b.String()
}

// drawn is one cell as the picture draws it.
type drawnCell struct {
	text, fg, bg string
	bold, faint  bool
}

// drawnAsScreen reads the picture back, cell by cell, from its elements
// (text at its x and y, shapes at theirs, backgrounds over their cells),
// and says where it differs from the screen.
func drawnAsScreen(svg []byte, s Screen, pl Palette) error {
	got, err := readPicture(svg)
	if err != nil {
		return err
	}
	var errs []error
	for y, row := range s.Rows {
		for x, c := range row {
			fg, bg := pl.Colours(c.Style)
			want := drawnCell{bg: bg}
			if c.Text != " " && c.Text != "" {
				want.text, want.fg = c.Text, fg
				_, shape := drawn[c.Text]
				want.bold = c.Style.Attrs&cellbuf.BoldAttr != 0 && !shape
				want.faint = c.Style.Attrs&cellbuf.FaintAttr != 0
			}
			if g := got[[2]int{y, x}]; g != want {
				errs = append(errs, fmt.Errorf("row %d col %d (%q) is drawn %+v, want %+v", y, x, c.Text, g, want))
			}
		}
	}
	for at := range got {
		if at[0] >= len(s.Rows) || at[1] >= s.Width {
			errs = append(errs, fmt.Errorf("the picture draws %+v off the screen, at %v", got[at], at))
		}
	}
	if len(errs) > 10 {
		errs = append(errs[:10], fmt.Errorf("and %d more", len(errs)-10))
	}
	return errors.Join(errs...)
}

// picture is what a picture draws in each cell, as read back.
type picture struct {
	cells  map[[2]int]drawnCell
	glyphs map[string]string // a shape's id: the character it draws
	// The tspan being read: its characters' x, and its attributes with
	// those it inherits.
	xs    []float64
	attrs map[string]string
}

// readPicture maps the picture's cells to what is drawn in each.
func readPicture(svg []byte) (map[[2]int]drawnCell, error) {
	p := &picture{cells: map[[2]int]drawnCell{}, glyphs: map[string]string{}}
	for g := range drawn {
		p.glyphs[glyphID(g)] = g
	}
	d := xml.NewDecoder(bytes.NewReader(svg))
	var open []map[string]string // the attributes of the open elements
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return p.cells, nil
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			attrs, own := inherit(open), map[string]string{}
			for _, a := range tok.Attr {
				own[a.Name.Local], attrs[a.Name.Local] = a.Value, a.Value
			}
			inDefinition := len(open) > 0 && open[len(open)-1]["id"] != ""
			open = append(open, attrs)
			if !inDefinition {
				err = p.element(tok.Name.Local, own, attrs)
			}
		case xml.CharData:
			if len(open) > 0 && open[len(open)-1]["x"] != "" {
				err = p.chars([]rune(string(tok)))
			}
		case xml.EndElement:
			open = open[:len(open)-1]
		}
		if err != nil {
			return nil, err
		}
	}
}

// element reads a cell's background, a shape drawn in a cell, or the
// start of a run of text.
func (p *picture) element(name string, own, attrs map[string]string) error {
	switch name {
	case "rect":
		if own["height"] != num(CellHeight) {
			return nil // the window
		}
		for i := 0; float64(i) < math.Round(float(own["width"])/CellWidth); i++ {
			c, err := cellAt(float(own["x"])+float64(i)*CellWidth, float(own["y"]))
			if err != nil {
				return err
			}
			dc := p.cells[c]
			dc.bg = own["fill"]
			p.cells[c] = dc
		}
	case "use":
		g, ok := p.glyphs[strings.TrimPrefix(own["href"], "#")]
		if !ok {
			return fmt.Errorf("a shape of no character: %s", own["href"])
		}
		c, err := cellAt(float(own["x"]), float(own["y"]))
		if err != nil {
			return err
		}
		dc := p.cells[c]
		dc.text, dc.fg, dc.faint = g, own["color"], own["opacity"] != ""
		p.cells[c] = dc
	case "tspan":
		p.xs, p.attrs = nil, attrs
		for _, f := range strings.Fields(own["x"]) {
			p.xs = append(p.xs, float(f))
		}
	}
	return nil
}

// chars reads the characters of a run of text into their cells.
func (p *picture) chars(runes []rune) error {
	if len(runes) != len(p.xs) {
		return fmt.Errorf("%q has %d characters and %d x", string(runes), len(runes), len(p.xs))
	}
	for i, r := range runes {
		c, err := cellAt(p.xs[i], float(p.attrs["y"])-baseline)
		if err != nil {
			return err
		}
		dc := p.cells[c]
		dc.text += string(r) // a mark joined to a character shares its x
		dc.fg = p.attrs["fill"]
		dc.bold = p.attrs["font-weight"] == "bold"
		dc.faint = p.attrs["opacity"] != ""
		p.cells[c] = dc
	}
	return nil
}

// cellAt is the cell whose top left corner is at x, y.
func cellAt(x, y float64) ([2]int, error) {
	col, row := (x-Left)/CellWidth, (y-Top)/CellHeight
	if math.Abs(col-math.Round(col)) > 0.01 || math.Abs(row-math.Round(row)) > 0.01 {
		return [2]int{}, fmt.Errorf("%v, %v is not a cell's corner", x, y)
	}
	return [2]int{int(math.Round(row)), int(math.Round(col))}, nil
}

// inherit is the attributes an element inherits: the innermost open
// element's, but those of its own place and name.
func inherit(open []map[string]string) map[string]string {
	out := map[string]string{}
	if len(open) == 0 {
		return out
	}
	for k, v := range open[len(open)-1] {
		if k != "id" && k != "x" && k != "width" && k != "height" {
			out[k] = v
		}
	}
	return out
}

func float(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return f
}
