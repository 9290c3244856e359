// Package termshot draws a terminal's screen, captured as text with its
// SGR sequences (tmux capture-pane -e), as an SVG picture: the README's
// picture of the live screen (scripts/screenshot makes it from a real
// run).
//
// It reads the capture as a terminal does: a style holds until a sequence
// changes it, across the end of a line too, and "default colour" (39, 49)
// is a change like any other. Every cell is drawn where the terminal
// draws it, each character at its own column (an x coordinate each), so
// the picture holds whatever font the viewer has: no font is embedded,
// and a font without a character, or with other widths, shifts nothing.
package termshot

import (
	"fmt"
	"image/color"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/cellbuf"
)

// Cell is one column of the screen.
type Cell struct {
	Text  string // the character drawn there; "" continues a wide one, " " is blank
	Style cellbuf.Style
}

// Screen is a captured screen, a row of cells per line, every row Width
// cells.
type Screen struct {
	Width int
	Rows  [][]Cell
}

// Parse reads a capture: lines of text and SGR sequences, the style
// carried from one line to the next. Other sequences and control
// characters are dropped; lines are padded to the widest with blank
// cells of no style.
func Parse(capture string) Screen {
	p := ansi.NewParser()
	var pen cellbuf.Style
	var s Screen
	for _, line := range strings.Split(strings.TrimSuffix(capture, "\n"), "\n") {
		var row []Cell
		var state byte
		for len(line) > 0 {
			seq, w, n, next := ansi.DecodeSequence(line, state, p)
			state, line = next, line[n:]
			switch {
			case w > 0:
				row = append(row, Cell{Text: seq, Style: pen})
				for range w - 1 {
					row = append(row, Cell{Style: pen})
				}
			case ansi.HasCsiPrefix(seq) && ansi.Cmd(p.Command()).Final() == 'm' && ansi.Cmd(p.Command()).Prefix() == 0:
				cellbuf.ReadStyle(p.Params(), &pen)
			}
		}
		s.Rows = append(s.Rows, row)
		s.Width = max(s.Width, len(row))
	}
	for i, row := range s.Rows {
		for len(row) < s.Width {
			row = append(row, Cell{Text: " "})
		}
		s.Rows[i] = row
	}
	return s
}

// Palette is the terminal's own colours: what "default" is.
type Palette struct {
	Foreground, Background string // "#rrggbb"
}

// Dark is a dark terminal's palette.
var Dark = Palette{Foreground: "#d4d4d8", Background: "#171717"}

// Colours is how a cell is painted: its text's colour and its
// background's, reverse video applied; "" is the palette's own.
func (pl Palette) Colours(st cellbuf.Style) (fg, bg string) {
	fg, bg = hex(st.Fg), hex(st.Bg)
	if st.Attrs&cellbuf.ReverseAttr != 0 {
		fg, bg = bg, fg
		if fg == "" {
			fg = pl.Background
		}
		if bg == "" {
			bg = pl.Foreground
		}
	}
	if fg == "" {
		fg = pl.Foreground
	}
	return fg, bg
}

// hex writes a colour as "#rrggbb", "" for none (the default).
func hex(c color.Color) string {
	if c == nil {
		return ""
	}
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}
