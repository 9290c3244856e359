package termshot

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// drawn are the characters the picture draws as shapes, in a cell's
// coordinates, in the cell's colour (currentColor), as a terminal draws
// them itself: the panes' borders (a font's box-drawing characters,
// often from another font than its letters, leave gaps between the cells
// or miss the corners), the spinners' braille and the pause sign (fonts
// without them drew empty boxes).
var drawn = map[string]string{}

func init() {
	// Box drawing: the directions a character's lines go from the
	// cell's centre, and how heavy they are.
	type box struct {
		up, down, left, right bool
		heavy, round          bool
	}
	for r, bx := range map[rune]box{
		'─': {left: true, right: true}, '━': {left: true, right: true, heavy: true},
		'│': {up: true, down: true}, '┃': {up: true, down: true, heavy: true},
		'┌': {down: true, right: true}, '┐': {down: true, left: true},
		'└': {up: true, right: true}, '┘': {up: true, left: true},
		'┏': {down: true, right: true, heavy: true}, '┓': {down: true, left: true, heavy: true},
		'┗': {up: true, right: true, heavy: true}, '┛': {up: true, left: true, heavy: true},
		'╭': {down: true, right: true, round: true}, '╮': {down: true, left: true, round: true},
		'╰': {up: true, right: true, round: true}, '╯': {up: true, left: true, round: true},
		'├': {up: true, down: true, right: true}, '┤': {up: true, down: true, left: true},
		'┬': {down: true, left: true, right: true}, '┴': {up: true, left: true, right: true},
		'┼': {up: true, down: true, left: true, right: true},
	} {
		drawn[string(r)] = boxPath(bx.up, bx.down, bx.left, bx.right, bx.heavy, bx.round)
	}
	// The pause sign: two bars.
	drawn["⏸"] = `<rect x="1.9" y="3.5" width="1.8" height="9.5" fill="currentColor"/>` +
		`<rect x="4.9" y="3.5" width="1.8" height="9.5" fill="currentColor"/>`
	// Braille: its raised dots, two columns of four.
	for r := rune(0x2801); r <= 0x28FF; r++ {
		var dots strings.Builder
		for bit, at := range [8][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {0, 3}, {1, 3}} {
			if (r-0x2800)&(1<<bit) != 0 {
				fmt.Fprintf(&dots, `<circle cx="%s" cy="%s" r="1" fill="currentColor"/>`,
					num(2.6+3.2*float64(at[0])), num(3.6+3.3*float64(at[1])))
			}
		}
		drawn[string(r)] = dots.String()
	}
}

// boxPath is a box-drawing character's lines: from the cell's centre to
// the edges it names, a little past them so that neighbours join without
// a seam; a round corner is a curve.
func boxPath(up, down, left, right, heavy, round bool) string {
	const over = 0.5
	cx, cy := CellWidth/2, CellHeight/2
	ends := map[string][2]float64{
		"up": {cx, -over}, "down": {cx, CellHeight + over},
		"left": {-over, cy}, "right": {CellWidth + over, cy},
	}
	var d string
	switch {
	case round: // a corner: one vertical and one horizontal end
		v, h := ends["up"], ends["left"]
		if down {
			v = ends["down"]
		}
		if right {
			h = ends["right"]
		}
		d = fmt.Sprintf("M%s %sQ%s %s %s %s", num(h[0]), num(h[1]), num(cx), num(cy), num(v[0]), num(v[1]))
	case (up || down) && (left || right) && !(up && down) && !(left && right): // a square corner
		v, h := ends["up"], ends["left"]
		if down {
			v = ends["down"]
		}
		if right {
			h = ends["right"]
		}
		d = fmt.Sprintf("M%s %sL%s %sL%s %s", num(h[0]), num(h[1]), num(cx), num(cy), num(v[0]), num(v[1]))
	default: // lines through, and branches from the centre
		seg := func(a, b [2]float64) string {
			return fmt.Sprintf("M%s %sL%s %s", num(a[0]), num(a[1]), num(b[0]), num(b[1]))
		}
		centre := [2]float64{cx, cy}
		switch {
		case up && down:
			d += seg(ends["up"], ends["down"])
		case up:
			d += seg(ends["up"], centre)
		case down:
			d += seg(centre, ends["down"])
		}
		switch {
		case left && right:
			d += seg(ends["left"], ends["right"])
		case left:
			d += seg(ends["left"], centre)
		case right:
			d += seg(centre, ends["right"])
		}
	}
	width := 1.2
	if heavy {
		width = 2.4
	}
	return fmt.Sprintf(`<path d="%s" fill="none" stroke="currentColor" stroke-width="%s"/>`, d, num(width))
}

// usedGlyphs are the drawn characters the screen holds, in order.
func usedGlyphs(s Screen) []string {
	seen := map[string]bool{}
	for _, row := range s.Rows {
		for _, c := range row {
			if _, ok := drawn[c.Text]; ok {
				seen[c.Text] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for g := range seen {
		out = append(out, g)
	}
	slices.Sort(out)
	return out
}

// glyphID names a drawn character's shape: "u2500".
func glyphID(g string) string {
	r, _ := utf8.DecodeRuneInString(g)
	return fmt.Sprintf("u%04x", r)
}
