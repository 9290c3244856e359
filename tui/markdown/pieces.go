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
	var out []cut
	fence := ""
	blankFrom := -1 // where the blank lines before this line start
	inList := false // the piece being scanned is a list's item
	for off := 0; off < len(md); {
		next := len(md)
		if end := strings.IndexByte(md[off:], '\n'); end >= 0 {
			next = off + end + 1
		}
		ln := strings.TrimSuffix(md[off:next], "\n")
		t := strings.TrimLeft(ln, " ")
		switch {
		case fence != "":
			if closesFence(ln, fence) {
				fence = ""
				out = append(out, cut{end: next, next: next, gap: true})
			}
		case strings.TrimSpace(ln) == "":
			if blankFrom < 0 {
				blankFrom = off
			}
		default:
			opens := len(ln)-len(t) < 4 && FenceOf(t) != ""
			item := len(ln)-len(t) < 2 && isItem(t)
			if c, ok := cutBefore(off, blankFrom, opens, item); ok {
				c.gap = c.gap || item && !inList // glamour sets a list apart from a paragraph above
				out = append(out, c)
				inList = item
			} else if off == 0 {
				inList = item
			}
			blankFrom = -1
			if opens {
				fence = FenceOf(t)
			}
		}
		off = next
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
