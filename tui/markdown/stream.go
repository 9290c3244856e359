package markdown

import (
	"strings"

	xansi "github.com/charmbracelet/x/ansi"
)

// Stream is a document that grows while it is shown: a reply streaming
// into a pane. It is given finished blocks (Add: they never change) and
// the unfinished rest (SetTail: it grows with every chunk), and lays out
// only what changed, so that what a frame costs does not grow with the
// reply:
//
//   - each finished block is rendered once per width, whole, so that the
//     finished reply looks exactly as glamour draws it;
//   - the rest is cut into pieces where Markdown has a boundary (a blank
//     line before a paragraph, a list's item, the end of a code block),
//     each rendered once another follows it;
//   - of the piece being written, what can no longer change is laid out
//     once: a paragraph's wrapped lines before the one being written
//     (wrapping is greedy, so appending text never changes an earlier
//     line while no emphasis or code span is open across it), a code
//     block's completed lines (while no comment or string is open across
//     them). Each frame renders what follows them.
//
// What a frame shows stays as it is, but for the line being written: the
// lines laid out for good are those the whole piece renders to; emphasis
// and code spans open across a line break are opened again for the lines
// after it; and the text being written is rendered with the emphasis and
// code spans it opened closed, so it reads as it will once the model
// closes them (the tests stream replies and compare every frame's lines
// with the finished rendering). Where a piece cannot be laid out a line
// at a time (a link, whose address renders as another word; a quote; an
// item of a list) its rest is cut at a line's end or a space once it
// grows past maxPiece: an early line break, until the block is finished
// and rendered whole.
//
// Rendering is glamour's, which a model's text can make slow: a Stream
// made by NewAsyncStream renders nothing itself. It shows plain text
// where a rendering is missing, asks for it (Wants), and lays out again
// when it is handed back (Rendered), so the caller can render off the
// loop that draws the screen. A Stream is not safe for concurrent use.
type Stream struct {
	sync  *Renderer // renders at once; nil: asks (Wants)
	width int

	blocks  []string   // finished blocks
	done    []string   // the lines of blocks[:nDone], at width
	nDone   int        // blocks rendered into done
	standIn [][]string // what shows of blocks[nDone:] until rendered
	pend    []string   // standIn stacked, a blank line before if done has lines
	prev    prevLayout // the finished blocks at the width before

	tail string
	t    tailState
	laid bool // tail and blocks are laid out at width, with the renders there are

	cache renderCache
}

type prevLayout struct {
	width, n int
	lines    []string
}

// NewStream returns an empty Stream rendered by r, at once.
func NewStream(r *Renderer) *Stream { return &Stream{sync: r, t: newTail()} }

// NewAsyncStream returns an empty Stream that asks for its renders
// (Wants) and is handed them back (Rendered).
func NewAsyncStream() *Stream { return &Stream{t: newTail()} }

// SetRenderer renders everything again with r (new styles); nil asks for
// the renders again.
func (s *Stream) SetRenderer(r *Renderer) {
	s.sync = r
	s.resetBlocks()
	s.prev = prevLayout{}
	s.t, s.laid = newTail(), false
	s.cache.reset(s.width)
}

func (s *Stream) resetBlocks() {
	s.done, s.nDone = nil, 0
	s.standIn = make([][]string, len(s.blocks))
}

// Add appends finished blocks. A block that the rest was showing the
// start of shows those lines until it is rendered whole.
func (s *Stream) Add(blocks ...string) {
	for _, b := range blocks {
		if strings.TrimSpace(b) == "" {
			continue
		}
		var shown []string
		if s.laid && s.width > 0 && s.tail != "" && strings.HasPrefix(b, s.tail) {
			shown = s.t.lines()
		}
		s.blocks = append(s.blocks, b)
		s.standIn = append(s.standIn, shown)
		s.laid = false
	}
}

// SetTail sets the unfinished rest ("" once there is none).
func (s *Stream) SetTail(md string) {
	if md != s.tail {
		s.tail, s.laid = md, false
	}
}

// Markdown is the document so far: its blocks and its rest, a blank line
// between.
func (s *Stream) Markdown() string {
	all := s.blocks
	if strings.TrimSpace(s.tail) != "" {
		all = append(all[:len(all):len(all)], s.tail)
	}
	return strings.Join(all, "\n\n")
}

// Layout lays out what is not laid out yet at width.
func (s *Stream) Layout(width int) {
	if width != s.width {
		s.newWidth(width)
	}
	if s.laid || width <= 0 {
		return
	}
	s.laid = true
	s.cache.begin()
	s.layBlocks()
	s.layTail()
	s.cache.end()
}

// newWidth starts laying out at width: the finished blocks as they were
// at it just before (a pane zoomed and back), or again.
func (s *Stream) newWidth(width int) {
	cur := prevLayout{width: s.width, n: s.nDone, lines: s.done}
	s.resetBlocks()
	if s.prev.width == width && s.prev.lines != nil {
		s.done, s.nDone = s.prev.lines, s.prev.n
		s.standIn = s.standIn[:len(s.blocks)-s.nDone]
	}
	s.prev, s.width = cur, width
	s.t, s.laid = newTail(), false
	s.cache.reset(width)
}

// layBlocks renders the finished blocks not rendered yet, in order.
func (s *Stream) layBlocks() {
	for i := s.nDone; i < len(s.blocks); i++ {
		lines, ok := s.render(s.blocks[i])
		if ok && i == s.nDone {
			s.done = stack(s.done, lines)
			s.nDone++
			s.standIn = s.standIn[1:]
		}
	}
	s.pend = s.pend[:0]
	for i, shown := range s.standIn {
		if shown == nil {
			shown = plainLines(s.blocks[s.nDone+i], s.width)
			s.standIn[i] = shown
		}
		if len(s.done) > 0 || i > 0 {
			s.pend = append(s.pend, "")
		}
		s.pend = append(s.pend, shown...)
	}
}

// layTail lays out the pieces of the rest completed since the last
// frame, and the one being written.
func (s *Stream) layTail() {
	t := &s.t
	if !strings.HasPrefix(s.tail, t.laidMD) {
		s.t = newTail() // the rest changed before its end: another block's
		t = &s.t
	}
	t.laidMD = s.tail
	off := len(t.frozenMD)
	for _, c := range t.cutter.scan(s.tail, t.cuts[:0]) {
		if c.next <= off { // found already, while its line was being written
			continue
		}
		s.complete(s.tail[off:c.end], off == len(t.frozenMD))
		t.nextGap = c.gap
		off = c.next
	}
	t.frozenMD = s.tail[:off]
	s.write(s.tail[off:])
	s.renderSegs()
	t.fix()
	t.build(s.width)
}

// complete takes a piece of the rest that another follows: the piece
// being written, its rest now final, or one that arrived whole.
func (s *Stream) complete(md string, current bool) {
	t := &s.t
	w := &t.w
	if current && w.active {
		rest := w.finalMD(md)
		sg := seg{md: rest, gap: w.restGap()}
		if rest == w.shownMD {
			sg.lines, sg.ready = w.lines, w.rendered
		}
		t.add(sg)
	} else if strings.TrimSpace(md) != "" {
		t.add(seg{md: md, gap: t.nextGap})
	}
	*w = writing{}
}

// renderSegs renders the segments waiting for it.
func (s *Stream) renderSegs() {
	for i := range s.t.segs {
		sg := &s.t.segs[i]
		if sg.ready {
			continue
		}
		if strings.TrimSpace(sg.md) == "" {
			sg.ready = true
			continue
		}
		sg.lines, sg.ready = s.render(sg.md)
		sg.lines = blankLines(sg.lines, sg.blanks)
	}
}

// render is the rendering of md at the width: at once, or delivered
// (ok false until then: it is asked for).
func (s *Stream) render(md string) ([]string, bool) {
	if lines, ok := s.cache.get(md, s.sync == nil); ok || s.sync == nil {
		return lines, ok
	}
	lines := s.sync.Render(md, s.width)
	s.cache.prefill(md, lines) // kept while a layout uses it: the text being written may not change
	return lines, true
}

// Wants returns the Markdown documents the Stream needs rendered at
// Width() and has not asked for yet: render each (Renderer.Render) and
// hand it back with Rendered.
func (s *Stream) Wants() []string { return s.cache.take() }

// Width is the width the Stream is laid out at.
func (s *Stream) Width() int { return s.width }

// Rendered hands back the rendering of md at width, as Wants asked.
func (s *Stream) Rendered(md string, width int, lines []string) {
	if s.cache.put(md, width, lines) {
		s.laid = false
	}
}

// Len is the number of lines.
func (s *Stream) Len() int {
	n := len(s.done) + len(s.pend)
	if tl := s.t.len(); tl > 0 {
		if n > 0 && s.t.gap {
			n++
		}
		n += tl
	}
	return n
}

// Line returns line i (0 ≤ i < Len()).
func (s *Stream) Line(i int) string {
	if i < len(s.done) {
		return s.done[i]
	}
	i -= len(s.done)
	if i < len(s.pend) {
		return s.pend[i]
	}
	i -= len(s.pend)
	if len(s.done)+len(s.pend) > 0 && s.t.gap {
		if i == 0 {
			return ""
		}
		i--
	}
	return s.t.line(i)
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

// plainLines is md as plain text wrapped at width: what shows of it until
// its rendering is ready.
func plainLines(md string, width int) []string {
	md = strings.TrimSpace(Clean(md))
	if md == "" {
		return nil
	}
	var out []string
	for ln := range strings.Lines(md) {
		out = append(out, strings.Split(xansi.Wrap(strings.TrimRight(ln, "\n"), width, ""), "\n")...)
	}
	return out
}

// AddShown appends a finished block that shows as shown, lines laid out
// at Width(), until it is rendered.
func (s *Stream) AddShown(block string, shown []string) {
	s.Add(block)
	if len(s.blocks) > 0 && s.blocks[len(s.blocks)-1] == block && shown != nil {
		s.standIn[len(s.standIn)-1] = shown
	}
}

// Lines is every line, as Line gives them.
func (s *Stream) Lines() []string {
	out := make([]string, s.Len())
	for i := range out {
		out[i] = s.Line(i)
	}
	return out
}
