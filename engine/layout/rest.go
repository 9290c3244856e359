package layout

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// restGrowth keeps the rest of a Stream (Rest) while what is being
// written is the text at its end: prose, or a string field read as plain
// text. The rest is then its start (all before that text, which does not
// change while it grows) and that text, without the white space it
// starts with; it grows by the text's new bytes, appended to a
// strings.Builder, whose String shares its bytes rather than copying
// them. Anything else that changes (a field done, one more, an object
// opening, prose losing its end) makes Rest render the rest again.
type restGrowth struct {
	on    bool
	key   growthKey
	b     strings.Builder // the rest's start, then the text from its first non-space byte
	taken int             // bytes of the text read into b, or skipped as leading space
	text  bool            // b holds some of the text (its leading space is behind)
}

// growthKey is what must not change for the rest to grow: where the
// stream is, and which text grows.
type growthKey struct {
	segs, doneSegs, units, extraAt, emitted, members, depth, cutAt int
	seg                                                            *segment
	node                                                           *node
}

// growing is the text being written at the end of the rest, and the key
// it grows under; ok is false when what is being written is not text
// read as it is.
func (s *Stream) growing() (text []byte, k growthKey, ok bool) {
	seg := s.cur()
	k = growthKey{segs: len(s.segs), doneSegs: s.doneSegs, units: s.units, extraAt: s.extraAt,
		emitted: s.emitted, depth: len(s.stack), seg: seg, cutAt: seg.cutAt}
	if s.doneSegs != len(s.segs)-1 {
		return nil, k, false
	}
	if seg.obj == nil {
		if s.visible() != len(seg.prose) {
			return nil, k, false // a fence line that may open an object is hidden
		}
		return seg.prose, k, true
	}
	if s.pst != pJSON || s.jst != jStr || len(s.stack) != 1 {
		return nil, k, false
	}
	root := s.stack[0]
	m := root.members[len(root.members)-1]
	k.members, k.node = len(root.members), m.val
	return m.val.text, k, !m.dup && s.plainField(m.key)
}

// plainField says whether the field key reads as its text: no values
// replaced, no upper case, no format, and nothing after it on its line.
func (s *Stream) plainField(key string) bool {
	fi, laid := s.plan.index[key]
	if !laid {
		return true // read generically, as its text
	}
	f := s.plan.fields[fi]
	if len(f.Values) > 0 || f.Upper || f.Format != "" || f.Style == Upper {
		return false
	}
	for _, b := range s.plan.blocks {
		for _, g := range b.groups {
			if len(g) > 0 && g[0] == fi {
				return len(g) == 1
			}
		}
	}
	return true // a Line field: at the end of its line while it is written
}

// note keeps r, the rest just rendered, when it ends with the text being
// written (its white space trimmed), so the next Rest can grow it.
func (g *restGrowth) note(s *Stream, r string) {
	g.on = false
	text, k, ok := s.growing()
	if !ok {
		return
	}
	shown := strings.TrimSpace(string(trimPartialRune(text)))
	if shown == "" || !strings.HasSuffix(r, shown) {
		return // (a field with no text yet is not shown at all, label included)
	}
	*g = restGrowth{on: true, key: k}
	g.b.WriteString(r[:len(r)-len(shown)])
	g.add(text)
}

// add reads the text's new bytes into b, past the white space it starts
// with.
func (g *restGrowth) add(text []byte) {
	if !g.text {
		lead := len(text) - len(strings.TrimLeftFunc(string(text[g.taken:]), unicode.IsSpace)) - g.taken
		g.taken += lead
		if g.taken == len(text) {
			return
		}
		g.text = true
	}
	g.b.Write(text[g.taken:])
	g.taken = len(text)
}

// extend is the rest grown by the text's new bytes, when nothing else
// changed since note.
func (g *restGrowth) extend(s *Stream) (string, bool) {
	if !g.on {
		return "", false
	}
	text, k, ok := s.growing()
	if !ok || k != g.key || len(text) < g.taken {
		g.on = false
		return "", false
	}
	g.add(text)
	r := g.b.String()
	r = r[:len(r)-partialTail(r)]
	return strings.TrimRightFunc(r, unicode.IsSpace), true
}

// partialTail is how many bytes at the end of s are a rune not complete
// yet.
func partialTail(s string) int {
	for i := 1; i <= 3 && i <= len(s); i++ {
		c := s[len(s)-i]
		if utf8.RuneStart(c) {
			if c >= utf8.RuneSelf && !utf8.FullRuneInString(s[len(s)-i:]) {
				return i
			}
			return 0
		}
	}
	return 0
}
