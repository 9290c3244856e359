package tui

import (
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
)

// lineKind says how a line of a pane is drawn.
type lineKind uint8

const (
	kindRaw     lineKind = iota // text as the model streams it (usually JSON)
	kindText                    // the readable reply
	kindHeading                 // a Markdown heading of the reply
	kindQuote                   // a Markdown quote
	kindCode                    // a code block or a table row
	kindSection                 // "round 2 · opening"
	kindFail                    // what went wrong
	kindRetry                   // what went wrong, and it will be retried
	kindNote                    // a remark of ours ("earlier text trimmed")
	kindStyled                  // painted already (a reply glamour drew)
)

// line is one visual line of a pane: plain text no wider than the pane.
type line struct {
	text string
	kind lineKind
}

// maxWrapLines bounds the lines one wrapper keeps; past it the oldest
// quarter goes. A model stuck in a loop can stream megabytes.
const maxWrapLines = 4000

// wrapper breaks text into lines of at most width cells as the text
// arrives. It is incremental: appending n bytes costs O(n), whatever came
// before, because only the open last line is ever revisited. (Re-wrapping
// the whole reply on every chunk is what makes streaming UIs flicker.)
type wrapper struct {
	width int
	kind  lineKind // kind given to the lines written from now on
	lines []line   // finished lines
	cur   []byte   // the open line
	curW  int      // its width in cells
	brk   int      // offset in cur just after the last space; -1 if none
	brkW  int      // width of cur[:brk]
	text  bool     // cur holds something other than spaces
}

// reset empties the wrapper and sets its width.
func (w *wrapper) reset(width int) {
	clear(w.lines)
	*w = wrapper{width: width, brk: -1, lines: w.lines[:0]}
}

// count is the number of lines, the open one included.
func (w *wrapper) count() int {
	if len(w.cur) > 0 {
		return len(w.lines) + 1
	}
	return len(w.lines)
}

// at returns line i (0 ≤ i < count()).
func (w *wrapper) at(i int) line {
	if i < len(w.lines) {
		return w.lines[i]
	}
	return line{text: string(w.cur), kind: w.kind}
}

// write appends text. Control characters are dropped and tabs become two
// spaces: the engine already stripped escape sequences.
func (w *wrapper) write(s string) {
	for _, r := range s {
		switch {
		case r == '\n':
			w.newline()
		case r == '\t':
			w.space()
			w.space()
		case r == ' ':
			w.space()
		case r < 0x20 || r == 0x7f || r == utf8.RuneError:
			// dropped
		default:
			w.glyph(r)
		}
	}
}

// newline ends the open line, even if it is empty.
func (w *wrapper) newline() {
	w.emit(len(w.cur))
}

func (w *wrapper) space() {
	if w.curW+1 > w.width {
		w.emit(len(w.cur)) // the space is the break; it is not drawn
		return
	}
	w.cur = append(w.cur, ' ')
	w.curW++
	if w.text {
		w.brk, w.brkW = len(w.cur), w.curW
	}
}

func (w *wrapper) glyph(r rune) {
	rw := 1
	if r >= utf8.RuneSelf {
		// As x/ansi measures (what lipgloss and the borders use), and
		// not by the locale, so goldens do not depend on LANG.
		rw = displaywidth.Rune(r)
	}
	if w.curW+rw > w.width && w.curW > 0 {
		if w.brk > 0 && w.curW-w.brkW+rw <= w.width {
			// Carry the word in progress over to a new line.
			wordW := w.curW - w.brkW
			w.emit(w.brk)
			w.curW = wordW
		} else {
			w.emit(len(w.cur)) // a word longer than the line: cut it
		}
	}
	w.cur = utf8.AppendRune(w.cur, r)
	w.curW += rw
	w.text = true
}

// emit finishes cur[:n] as a line (trailing spaces trimmed) and keeps
// cur[n:] as the start of the next one; the caller sets its width.
func (w *wrapper) emit(n int) {
	end := n
	for end > 0 && w.cur[end-1] == ' ' {
		end--
	}
	w.lines = append(w.lines, line{text: string(w.cur[:end]), kind: w.kind})
	rest := copy(w.cur, w.cur[n:])
	w.cur = w.cur[:rest]
	w.curW, w.brk, w.brkW, w.text = 0, -1, 0, rest > 0
	if len(w.lines) > maxWrapLines {
		drop := maxWrapLines / 4
		w.lines = append(w.lines[:0], w.lines[drop:]...)
	}
}
