package markdown

import "strings"

// cut is where a piece of the rest ends: its text is md[:end], and the
// next piece starts at next, after a blank line (gap) or not.
type cut struct {
	end, next int
	gap       bool
}

// maxPiece is how long the rest of a piece being written may grow before
// it is cut at a line break or a space where it cannot be laid out a
// line at a time (writing.go): the rest is rendered every frame, and
// this bounds what that costs.
const maxPiece = 512

// cuts finds where md, the rest of a document outside any code block,
// can be cut into pieces rendered apart: before a paragraph that follows
// a blank line, before an item of a list, before a code block's opening
// fence and after its closing one. The last piece, after the last cut,
// is the one still being written.
func cuts(md string) []cut {
	var c cutter
	c.reset()
	return c.scan(md, nil)
}

// cutter finds the cuts of a text that grows: it reads each line that
// is complete once, keeping where it stands, and the line being written
// every time (an item's marker cuts as soon as it is written).
type cutter struct {
	off       int    // where the first line not read for good starts
	fence     string // the fence of the code block open there
	blankFrom int    // where the blank lines before it start, or -1
	inList    bool   // the piece it is in is a list's item
}

func (c *cutter) reset() { *c = cutter{blankFrom: -1} }

// scan appends to out the cuts of md (which starts with what scan read
// before) after those it found before.
func (c *cutter) scan(md string, out []cut) []cut {
	for c.off < len(md) {
		end := strings.IndexByte(md[c.off:], '\n')
		if end < 0 {
			last := *c // the line being written: read again next time
			return last.line(md, len(md), out)
		}
		out = c.line(md, c.off+end+1, out)
	}
	return out
}

// line reads the line from c.off to next.
func (c *cutter) line(md string, next int, out []cut) []cut {
	off := c.off
	c.off = next
	ln := strings.TrimSuffix(md[off:next], "\n")
	t := strings.TrimLeft(ln, " ")
	switch {
	case c.fence != "":
		if closesFence(ln, c.fence) {
			c.fence = ""
			out = append(out, cut{end: next, next: next, gap: true})
		}
	case strings.TrimSpace(ln) == "":
		if c.blankFrom < 0 {
			c.blankFrom = off
		}
	default:
		opens := len(ln)-len(t) < 4 && FenceOf(t) != ""
		item := len(ln)-len(t) < 2 && isItem(t)
		if ct, ok := cutBefore(off, c.blankFrom, opens, item); ok {
			ct.gap = ct.gap || item && !c.inList // glamour sets a list apart from a paragraph above
			out = append(out, ct)
			c.inList = item
		} else if off == 0 {
			c.inList = item
		}
		c.blankFrom = -1
		if opens {
			c.fence = FenceOf(t)
		}
	}
	return out
}

// cutBefore is the cut before a line at off that holds something: after
// the blank lines from blankFrom (≥ 0), or before a fence that opens
// (glamour sets a code block apart with a blank line) or a list's item.
func cutBefore(off, blankFrom int, fence, item bool) (cut, bool) {
	switch {
	case off == 0:
		return cut{}, false
	case blankFrom >= 0:
		return cut{end: blankFrom, next: off, gap: true}, true
	case fence:
		return cut{end: off, next: off, gap: true}, true
	case item:
		return cut{end: off, next: off}, true
	}
	return cut{}, false
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
