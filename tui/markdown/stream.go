package markdown

import "strings"

// Stream is a document that grows while it is shown: a reply streaming
// into a pane. It is given finished blocks (Add: they never change) and
// the unfinished rest (SetTail: it grows with every chunk), and renders
// what changed only: each finished block once per width, and of the rest
// each paragraph or list item once another follows it, and the one being
// written on every frame. So what a frame costs follows the paragraph
// being written, not the length of the reply.
//
// The pieces are rendered apart and stacked, a blank line between
// paragraphs and none between the items of a list: while a reply streams
// it reads as it will, up to details (a loose list's spacing, a list's
// numbering restarting) that the finished reply, rendered whole, puts
// right.
//
// A Stream is not safe for concurrent use.
type Stream struct {
	r     *Renderer
	width int

	blocks []string   // finished blocks
	done   []string   // the lines of blocks[:nDone] at width
	nDone  int        // blocks rendered into done
	prev   prevLayout // the finished blocks at the width before

	tail       string // the unfinished rest
	frozenMD   string // the start of the rest that parts[:frozen] hold
	frozenOpen string // the fence line of the code block frozenMD ends in
	frozen     int    // parts that another piece followed
	parts      []part // the rest in pieces; past frozen, the one being written
	nextGap    bool   // the piece after the frozen ones follows a blank line
	laidTail   bool   // parts are the rendering of tail at width
}

// part is a piece of the rest.
type part struct {
	md    string
	lines []string
	gap   bool // a blank line before it
}

type prevLayout struct {
	width, n int
	lines    []string
}

// NewStream returns an empty Stream rendered by r.
func NewStream(r *Renderer) *Stream { return &Stream{r: r, nextGap: true} }

// SetRenderer renders everything again with r (new styles).
func (s *Stream) SetRenderer(r *Renderer) {
	s.r = r
	s.done, s.nDone, s.prev = nil, 0, prevLayout{}
	s.resetTail()
}

func (s *Stream) resetTail() {
	s.frozenMD, s.frozenOpen, s.frozen, s.parts, s.nextGap, s.laidTail = "", "", 0, nil, true, false
}

// Add appends finished blocks.
func (s *Stream) Add(blocks ...string) {
	for _, b := range blocks {
		if strings.TrimSpace(b) == "" {
			continue
		}
		if s.nDone == len(s.blocks) && s.laidTail && s.width > 0 && len(s.parts) == 1 && s.parts[0].md == b {
			// The paragraph that was streaming, now final: its lines
			// are those shown already.
			s.done = stack(s.done, s.parts[0].lines)
			s.nDone++
		}
		s.blocks = append(s.blocks, b)
	}
}

// SetTail sets the unfinished rest ("" once there is none).
func (s *Stream) SetTail(md string) {
	if md != s.tail {
		s.tail, s.laidTail = md, false
	}
}

// Layout renders what is not rendered yet at width.
func (s *Stream) Layout(width int) {
	if width != s.width {
		cur := prevLayout{width: s.width, n: s.nDone, lines: s.done}
		if s.prev.width == width && s.prev.lines != nil {
			// Back to the width before (a pane zoomed and back).
			s.done, s.nDone = s.prev.lines, s.prev.n
		} else {
			s.done, s.nDone = nil, 0
		}
		s.prev, s.width = cur, width
		s.resetTail()
	}
	for ; s.nDone < len(s.blocks); s.nDone++ {
		s.done = stack(s.done, s.r.Render(s.blocks[s.nDone], width))
	}
	if !s.laidTail {
		s.laidTail = true
		s.layTail()
	}
}

// layTail renders the pieces of the rest completed since the last frame,
// and the one being written.
func (s *Stream) layTail() {
	if !strings.HasPrefix(s.tail, s.frozenMD) {
		// The rest changed before its end: another block's.
		s.frozenMD, s.frozenOpen, s.frozen, s.parts, s.nextGap = "", "", 0, nil, true
	}
	s.parts = s.parts[:s.frozen]
	base := len(s.frozenMD)
	off, open := base, s.frozenOpen
	for _, c := range cuts(s.tail[base:], open) {
		if md := piece(open, s.tail[off:base+c.end], c.open); strings.TrimSpace(md) != "" {
			s.parts = append(s.parts, part{md: md, lines: s.r.Render(md, s.width), gap: s.nextGap})
		}
		s.nextGap, open = c.gap, c.open
		off = base + c.next
	}
	s.frozen, s.frozenMD, s.frozenOpen = len(s.parts), s.tail[:off], open
	if md := piece(open, s.tail[off:], ""); strings.TrimSpace(s.tail[off:]) != "" {
		s.parts = append(s.parts, part{md: md, lines: s.r.Render(md, s.width), gap: s.nextGap})
	}
}

// piece is the Markdown of a piece of the rest: body, inside the fenced
// code block that open opens when it is not "", and closing the one that
// end opens when that is not "" (a long code block is rendered in parts,
// each a code block of its own).
func piece(open, body, end string) string {
	if open != "" {
		body = open + "\n" + body
	}
	if end != "" {
		body = strings.TrimSuffix(body, "\n") + "\n" + FenceOf(strings.TrimLeft(end, " "))
	}
	return body
}

// stack appends lines under dst, a blank line between them.
func stack(dst, lines []string) []string {
	if len(lines) == 0 {
		return dst
	}
	if len(dst) > 0 {
		dst = append(dst, "")
	}
	return append(dst, lines...)
}

// Len is the number of lines.
func (s *Stream) Len() int {
	n := len(s.done)
	for _, p := range s.parts {
		if len(p.lines) == 0 {
			continue
		}
		if n > 0 && p.gap {
			n++
		}
		n += len(p.lines)
	}
	return n
}

// Line returns line i (0 ≤ i < Len()).
func (s *Stream) Line(i int) string {
	if i < len(s.done) {
		return s.done[i]
	}
	before := len(s.done) > 0
	i -= len(s.done)
	for _, p := range s.parts {
		if len(p.lines) == 0 {
			continue
		}
		if before && p.gap {
			if i == 0 {
				return ""
			}
			i--
		}
		before = true
		if i < len(p.lines) {
			return p.lines[i]
		}
		i -= len(p.lines)
	}
	return ""
}

// cut is where a piece of the rest ends: its text is md[:end], the next
// piece starts at next, after a blank line (gap) or not, and inside the
// fenced code block opened by the line open ("" outside any).
type cut struct {
	end, next int
	gap       bool
	open      string
}

// maxPiece is how long a piece of the rest may grow before it is cut at
// a line break even where Markdown has no boundary: inside a long
// paragraph (where the cut shows as an early line break until the reply
// is rendered whole) or a long code block. A piece being written is
// rendered every frame; this bounds what that costs.
const maxPiece = 512

// cuts finds where md can be cut into pieces rendered apart: before a
// paragraph that follows a blank line, before an item of a list, and
// before a line of a piece grown past maxPiece. md starts inside the
// fenced code block opened by the line open, or outside any when open is
// "". The last piece, after the last cut, is the one still being written.
func cuts(md, open string) []cut {
	var out []cut
	fence := ""
	if open != "" {
		fence = FenceOf(strings.TrimLeft(open, " "))
	}
	blankFrom := -1 // where the blank lines before this line start
	start := 0      // where the piece being scanned starts
	for off := 0; off < len(md); {
		end := strings.IndexByte(md[off:], '\n')
		next := len(md)
		if end >= 0 {
			next = off + end + 1
		}
		ln := strings.TrimSuffix(md[off:next], "\n")
		t := strings.TrimLeft(ln, " ")
		indent := len(ln) - len(t)
		long := off-start > maxPiece
		switch {
		case fence != "":
			if closesFence(ln, fence) {
				fence, open = "", ""
			} else if long {
				out = append(out, cut{end: off, next: off, open: open})
				start = off
			}
		case strings.TrimSpace(ln) == "":
			if blankFrom < 0 {
				blankFrom = off
			}
		default:
			c := cut{end: off, next: off}
			switch {
			case off == 0:
				c.next = -1
			case blankFrom >= 0:
				c.end, c.gap = blankFrom, true
			case indent < 2 && isItem(t), long:
			default:
				c.next = -1
			}
			if c.next >= 0 {
				out = append(out, c)
				start = off
			}
			blankFrom = -1
			if f := FenceOf(t); f != "" && indent < 4 {
				fence, open = f, ln
			}
		}
		off = next
	}
	return out
}

// isItem says whether a line (its indent trimmed) opens a list item.
func isItem(t string) bool {
	if len(t) >= 2 && strings.ContainsRune("-*+", rune(t[0])) && t[1] == ' ' {
		return true
	}
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' '
}

// closesFence says whether line ln closes the fenced code block that
// fence opened: the same characters, at least as many, nothing after but
// spaces, indented less than four columns.
func closesFence(ln, fence string) bool {
	t := strings.TrimLeft(ln, " ")
	return len(ln)-len(t) < 4 && strings.HasPrefix(t, fence) && strings.Trim(strings.TrimSpace(t), fence[:1]) == ""
}

// FenceOf is the fence a line opens ("```", "~~~~"), or "". A line of
// backticks whose info string holds another backtick opens none
// (CommonMark: it is inline code), so what follows is measured as prose.
func FenceOf(t string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 && (c == '~' || !strings.Contains(t[n:], "`")) {
			return t[:n]
		}
	}
	return ""
}
