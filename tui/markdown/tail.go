package markdown

// tailState is the rest of a Stream laid out: the pieces completed, as
// segments, the lines of those rendered stacked for good, and the piece
// being written.
type tailState struct {
	laidMD   string   // the rest as last laid out
	frozenMD string   // the start of the rest that segs hold
	segs     []seg    // pieces, and parts of pieces, waiting to be fixed
	fixed    []string // the lines of the segments rendered, in order, stacked
	started  bool     // fixed has lines (gap says whether a blank line goes above)
	gap      bool     // a blank line between the blocks above and the first line
	open     []string // the lines of segs[nFixed:] and of the piece being written, a blank line above when one goes between them and fixed
	nextGap  bool     // the piece after the last cut follows a blank line
	cutter   cutter   // where the rest is cut into pieces
	cuts     []cut    // (kept for the next frame's)
	w        writing
}

// seg is a piece of the rest, or a part of one, rendered on its own.
type seg struct {
	md     string   // its Markdown
	lines  []string // its rendering
	ready  bool     // lines is its rendering (until then it shows as text)
	blanks int      // code: blank lines it starts with, which glamour drops
	gap    bool     // a blank line before it
}

func newTail() tailState {
	t := tailState{nextGap: true}
	t.cutter.reset()
	return t
}

func (t *tailState) add(sg seg) { t.segs = append(t.segs, sg) }

// fix stacks the rendered segments at the head of the queue for good,
// and lets them go.
func (t *tailState) fix() {
	n := 0
	for n < len(t.segs) && t.segs[n].ready {
		t.fixed = t.put(t.fixed, t.segs[n].lines, t.segs[n].gap)
		n++
	}
	if n > 0 {
		t.segs = append(t.segs[:0], t.segs[n:]...)
	}
}

// put appends lines to dst, a blank line before when gap and something
// is above: the rest's first lines say instead whether a blank line goes
// between them and the blocks above.
func (t *tailState) put(dst, lines []string, gap bool) []string {
	if len(lines) == 0 {
		return dst
	}
	if !t.started {
		t.started, t.gap = true, gap
		return append(dst, lines...)
	}
	if gap {
		dst = append(dst, "")
	}
	return append(dst, lines...)
}

// build lays out the lines after fixed: segments waiting for their
// rendering (as plain text) and the piece being written.
func (t *tailState) build(width int) {
	started, gap := t.started, t.gap
	t.open = t.open[:0]
	for _, sg := range t.segs {
		lines := sg.lines
		if !sg.ready {
			lines = plainLines(sg.md, width)
		}
		t.open = t.put(t.open, lines, sg.gap)
	}
	t.open = t.put(t.open, t.w.shown(), t.w.restGap())
	if started { // fixed's first lines say whether a blank line goes above
		t.gap = gap
	}
	t.started = started
}

func (t *tailState) len() int { return len(t.fixed) + len(t.open) }

func (t *tailState) line(i int) string {
	if i < len(t.fixed) {
		return t.fixed[i]
	}
	return t.open[i-len(t.fixed)]
}

// lines is what the rest shows, stacked.
func (t *tailState) lines() []string {
	return append(t.fixed[:len(t.fixed):len(t.fixed)], t.open...)
}
