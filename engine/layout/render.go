package layout

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Markdown returns the rendering of the reply so far. Once the whole
// reply has been written it equals Render(reply, l). Between two Writes it
// is computed once: further calls return the same string.
func (s *Stream) Markdown() string {
	if !s.dirty {
		return s.md
	}
	s.dirty = false
	s.finalize()
	tail := s.tail()
	if len(tail) == 0 {
		s.md = s.finalText.String()
		return s.md
	}
	var b strings.Builder
	n := s.finalText.Len()
	for _, t := range tail {
		n += len(t) + 2
	}
	b.Grow(n)
	b.WriteString(s.finalText.String())
	for _, t := range tail {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(t)
	}
	s.md = b.String()
	return s.md
}

// Completed returns the blocks of the rendering that became final since
// the last call: prose segments once an object (or the end of an object
// that failed) follows them, and the fields of an object once they and
// every laid-out field before them are complete, or once the object ends.
// A returned block never changes and never moves: the rendering always
// starts with every block Completed ever returned, in order. So
//
//	strings.Join(append(allCompleted, rest), "\n\n")
//
// with rest = Rest() (left out when empty) equals Markdown(), and at the
// end of the reply Render(reply, l). Blocks are never empty.
func (s *Stream) Completed() []string {
	s.finalize()
	out := append([]string(nil), s.final[s.emitted:]...)
	s.emitted = len(s.final)
	return out
}

// Rest returns the rendering of what Completed has not returned yet (""
// when nothing): what a line printer prints once the reply has ended.
//
// While a string field or prose is being written and nothing else
// changes, the rest is kept and grown by what the field gained: it costs
// what the new text does, not the length of the field (a reply that
// writes one long paragraph would otherwise cost a copy of it a frame).
func (s *Stream) Rest() string {
	s.finalize()
	if r, ok := s.grow.extend(s); ok {
		return r
	}
	r := strings.Join(append(append([]string(nil), s.final[s.emitted:]...), s.tail()...), "\n\n")
	s.grow.note(s, r)
	return r
}

func (s *Stream) addFinal(block string) {
	if block == "" {
		return
	}
	if s.finalText.Len() > 0 {
		s.finalText.WriteString("\n\n")
	}
	s.finalText.WriteString(block)
	s.final = append(s.final, block)
}

// finalize moves the blocks that can no longer change into s.final.
func (s *Stream) finalize() {
	for s.doneSegs < len(s.segs) {
		seg := s.segs[s.doneSegs]
		if seg.obj == nil {
			if !seg.closed {
				return
			}
			s.addFinal(proseBlock(seg.prose, false))
			s.doneSegs++
			continue
		}
		p, n := s.plan, seg.obj
		for s.units < len(p.blocks) {
			if !seg.closed && !blockDone(n, p, p.blocks[s.units]) {
				return
			}
			s.addFinal(renderBlock(n, p, p.blocks[s.units]))
			s.units++
		}
		for s.extraAt < len(n.members) {
			m := n.members[s.extraAt]
			if _, laid := p.index[m.key]; m.dup || laid {
				s.extraAt++
				continue
			}
			if !seg.closed && (m.val == nil || !m.val.done) {
				return
			}
			s.addFinal(renderExtra(m))
			s.extraAt++
		}
		if !seg.closed {
			return
		}
		s.doneSegs++
		s.units, s.extraAt = 0, 0
	}
}

// tail renders the blocks not in s.final: those of the segment in
// progress, which is the last one.
func (s *Stream) tail() []string {
	if s.doneSegs >= len(s.segs) {
		return nil
	}
	seg := s.segs[s.doneSegs]
	if seg.obj == nil {
		if t := proseBlock(seg.prose[:s.visible()], true); t != "" {
			return []string{t}
		}
		return nil
	}
	var out []string
	p, n := s.plan, seg.obj
	for _, b := range p.blocks[s.units:] {
		if t := renderBlock(n, p, b); t != "" {
			out = append(out, t)
		}
	}
	for _, m := range n.members[s.extraAt:] {
		if isExtra(m, p) {
			if t := renderExtra(m); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

// visible is how much of the prose in progress shows: a fence line that
// may yet turn out to open an object does not.
func (s *Stream) visible() int {
	seg := s.cur()
	switch {
	case s.pst == pFence && !s.codeOpen:
		return s.lineOff
	case s.fenceAt >= 0:
		return s.fenceAt
	}
	return len(seg.prose)
}

func proseBlock(b []byte, open bool) string {
	if open {
		b = trimPartialRune(b)
	}
	return strings.TrimSpace(string(b))
}

// trimPartialRune drops an incomplete UTF-8 sequence ending b: the rest of
// the rune is still to come.
func trimPartialRune(b []byte) []byte {
	for i := 1; i <= 3 && i <= len(b); i++ {
		c := b[len(b)-i]
		if utf8.RuneStart(c) {
			if c >= utf8.RuneSelf && !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}

func isExtra(m member, p *plan) bool {
	if m.dup || m.val == nil {
		return false
	}
	_, laid := p.index[m.key]
	return !laid
}

// get returns the value of key in object n, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kObj {
		return nil
	}
	if i, ok := n.index[key]; ok {
		return n.members[i].val
	}
	return nil
}

// blockDone reports whether every field of block b is in n and complete.
func blockDone(n *node, p *plan, b pblock) bool {
	for _, g := range b.groups {
		for _, fi := range g {
			if v := n.get(p.keys[fi]); v == nil || !v.done {
				return false
			}
		}
	}
	return true
}

// objectBlocks renders every block of object n.
func objectBlocks(n *node, p *plan) []string {
	var out []string
	for _, b := range p.blocks {
		if t := renderBlock(n, p, b); t != "" {
			out = append(out, t)
		}
	}
	for _, m := range n.members {
		if isExtra(m, p) {
			if t := renderExtra(m); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

func renderExtra(m member) string {
	return renderField(Field{}, humanize(m.key), nil, m.val, "")
}

func renderBlock(n *node, p *plan, b pblock) string {
	g := b.groups[0]
	if p.fields[g[0]].Style != Label {
		f := p.fields[g[0]]
		return renderField(f, labelOf(f, p.keys[g[0]]), p.items[g[0]], n.get(p.keys[g[0]]), lineParts(n, p, g[1:], false))
	}
	label := lineParts(n, p, g, true)
	if len(b.groups) == 1 {
		if label == "" {
			return ""
		}
		return "**" + label + ":**"
	}
	g = b.groups[1]
	f := p.fields[g[0]]
	f.Bare = label == ""
	return renderField(f, label, p.items[g[0]], n.get(p.keys[g[0]]), lineParts(n, p, g[1:], false))
}

func labelOf(f Field, key string) string {
	if f.Label != "" {
		return f.Label
	}
	return humanize(key)
}

// lineParts renders fields g on one line, each after its separator; with
// first, the first part goes without one.
func lineParts(n *node, p *plan, g []int, first bool) string {
	var b strings.Builder
	for _, fi := range g {
		f := p.fields[fi]
		t := inline(f, n.get(p.keys[fi]))
		if t == "" {
			continue
		}
		if !first || b.Len() > 0 {
			sep := f.Sep
			if sep == "" {
				sep = " · "
			}
			b.WriteString(sep)
		}
		b.WriteString(t)
	}
	return b.String()
}

// renderField renders value v of field f under label, followed on the
// same line by rest (Line fields, each already after its separator).
func renderField(f Field, label string, item *plan, v *node, rest string) string {
	bare := f.Bare || label == ""
	if v != nil && (v.kind == kArr || v.kind == kObj) && f.Style != Heading && f.Style != Line && f.Style != Label {
		body := renderList(f, item, v)
		if body == "" {
			return ""
		}
		if bare {
			return body
		}
		head := "**" + label + ":**"
		if rest != "" {
			head += " " + strings.TrimPrefix(rest, " ")
		}
		if f.Style == Paragraphs {
			return head + "\n\n" + body
		}
		return head + "\n" + body
	}
	t := inline(f, v)
	if f.Style == Heading && t != "" {
		t = "**" + t + "**"
	}
	if t == "" {
		t = strings.TrimLeft(rest, " ·—-–")
	} else {
		t += rest
	}
	if t == "" {
		return ""
	}
	if bare || f.Style == Heading {
		return t
	}
	return "**" + label + ":** " + t
}

// renderList renders an array (or an object) as a list, or as paragraphs.
func renderList(f Field, item *plan, v *node) string {
	if item == nil {
		item = generic
	}
	var out []string
	marker := func() string {
		if f.Style == Numbered {
			return fmt.Sprintf("%d. ", len(out)+1)
		}
		return "- "
	}
	if v.kind == kObj {
		blocks := objectBlocks(v, item)
		if f.Style == Paragraphs {
			return joinItem(blocks)
		}
		for _, b := range blocks {
			out = append(out, listItem(marker(), []string{b}))
		}
		return strings.Join(out, "\n")
	}
	for _, it := range v.items {
		switch it.kind {
		case kObj:
			blocks := objectBlocks(it, item)
			if len(blocks) == 0 {
				continue
			}
			if f.Style == Paragraphs {
				out = append(out, joinItem(blocks))
			} else {
				out = append(out, listItem(marker(), blocks))
			}
		case kArr:
			if t := renderList(Field{Style: f.Style, Item: f.Item}, item, it); t != "" {
				out = append(out, listItem(marker(), []string{t}))
			}
		default:
			if t := transform(f, scalarText(it)); t != "" {
				out = append(out, listItem(marker(), []string{t}))
			}
		}
	}
	if f.Style == Paragraphs {
		return strings.Join(out, "\n\n")
	}
	return strings.Join(out, "\n")
}

// joinItem joins the blocks of one paragraph item: a list goes right
// under the line before it, other blocks after a blank line.
func joinItem(blocks []string) string {
	var b strings.Builder
	for i, blk := range blocks {
		if i > 0 {
			if isListLine(blk) {
				b.WriteString("\n")
			} else {
				b.WriteString("\n\n")
			}
		}
		b.WriteString(blk)
	}
	return b.String()
}

func isListLine(s string) bool {
	if strings.HasPrefix(s, "- ") {
		return true
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && strings.HasPrefix(s[i:], ". ")
}

// listItem renders one list item: the first block on the marker's line,
// the others as items nested under it; continuation lines are indented
// under the item's text.
func listItem(marker string, blocks []string) string {
	pad := strings.Repeat(" ", len(marker))
	var b strings.Builder
	for i, blk := range blocks {
		lines := strings.Split(blk, "\n")
		in := pad
		if i == 0 {
			b.WriteString(marker)
		} else {
			b.WriteString("\n" + pad + "- ")
			in = pad + "  "
		}
		b.WriteString(lines[0])
		for _, l := range lines[1:] {
			b.WriteString("\n")
			if l != "" {
				b.WriteString(in + l)
			}
		}
	}
	return b.String()
}

// inline renders v on one line: a scalar as its text, an array as its
// items joined by commas, an object as "Key: value" pairs.
func inline(f Field, v *node) string {
	if v == nil {
		return ""
	}
	switch v.kind {
	case kArr:
		var parts []string
		for _, it := range v.items {
			if t := inline(f, it); t != "" {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, ", ")
	case kObj:
		var parts []string
		for _, m := range v.members {
			if m.dup {
				continue
			}
			if t := inline(Field{}, m.val); t != "" {
				parts = append(parts, humanize(m.key)+": "+t)
			}
		}
		return strings.Join(parts, "; ")
	}
	return transform(f, scalarText(v))
}

// scalarText is the text of a string or bare word so far.
func scalarText(v *node) string {
	if v == nil {
		return ""
	}
	switch v.kind {
	case kStr:
		b := v.text
		if !v.done {
			b = trimPartialRune(b)
		}
		return strings.TrimSpace(string(b))
	case kLit:
		if string(v.text) == "null" {
			return ""
		}
		return string(v.text)
	}
	return ""
}

// transform applies Values, Upper and Format to a value.
func transform(f Field, t string) string {
	if t == "" {
		return ""
	}
	if len(f.Values) > 0 {
		if r, ok := f.Values[t]; ok {
			t = r
		} else {
			for k, r := range f.Values {
				if strings.EqualFold(k, t) {
					t = r
					break
				}
			}
		}
	}
	if f.Upper || f.Style == Upper {
		t = strings.ToUpper(t)
	}
	if f.Format != "" {
		t = fmt.Sprintf(f.Format, t)
	}
	return t
}
