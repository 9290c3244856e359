package markdown

// renderCache holds, for a Stream laid out at one width, the renders it
// was handed (Rendered) or made already, and what it asked for.
type renderCache struct {
	width int
	ready map[string][]string // renders to hand out, by their Markdown
	seen  map[string]bool     // those handed out in the layout going on
	asked map[string]bool     // asked for (Wants), not handed back yet
	wants []string            // to ask for
}

func (c *renderCache) reset(width int) { *c = renderCache{width: width} }

// begin starts a layout: what it does not look up goes at its end.
func (c *renderCache) begin() { clear(c.seen) }

// end lets go the renders the layout did not use, and forgets to ask for
// those it no longer needs (the text being written a frame ago, while a
// render of the pane was under way).
func (c *renderCache) end() {
	for md := range c.ready {
		if !c.seen[md] {
			delete(c.ready, md)
		}
	}
	keep := c.wants[:0]
	for _, md := range c.wants {
		if c.seen[md] {
			keep = append(keep, md)
		} else {
			delete(c.asked, md)
		}
	}
	c.wants = keep
}

// get hands out the rendering of md, asking for it when it has none and
// ask is set.
func (c *renderCache) get(md string, ask bool) ([]string, bool) {
	if lines, ok := c.ready[md]; ok {
		c.mark(md)
		return lines, true
	}
	if !ask {
		return nil, false
	}
	c.mark(md)
	if !c.asked[md] {
		if c.asked == nil {
			c.asked = map[string]bool{}
		}
		c.asked[md] = true
		c.wants = append(c.wants, md)
	}
	return nil, false
}

func (c *renderCache) mark(md string) {
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	c.seen[md] = true
}

// put keeps a render handed back, reporting whether it is of this width.
func (c *renderCache) put(md string, width int, lines []string) bool {
	if width != c.width {
		return false
	}
	delete(c.asked, md)
	c.keep(md, lines)
	return true
}

// prefill keeps a render the layout has, for as long as layouts use it:
// one it made, or one it knows already (the lines of a paragraph's rest,
// from the rendering of the paragraph).
func (c *renderCache) prefill(md string, lines []string) {
	c.keep(md, lines)
	c.mark(md)
}

func (c *renderCache) keep(md string, lines []string) {
	if c.ready == nil {
		c.ready = map[string][]string{}
	}
	c.ready[md] = lines
}

// take returns what to ask for, once.
func (c *renderCache) take() []string {
	w := c.wants
	c.wants = nil
	return w
}
