package layout

import (
	"strings"
	"unicode/utf8"
)

// Stream renders one reply while it streams in. Write it each chunk as it
// arrives (cut anywhere: mid-key, mid-string, mid-escape, mid-rune); ask it
// for Markdown at most once a frame; a line printer asks it for Completed
// blocks instead. A Stream is not safe for concurrent use.
//
// Write costs O(len(p)) amortized: every byte moves a small state machine
// one step and is appended to the tree once; nothing is re-read. Markdown
// costs what the rendering of the fields still in progress costs (the
// finished prefix of the rendering is kept, not rebuilt) and is cached
// until the next Write.
//
// The rendering is a list of blocks joined by blank lines ("\n\n"): one
// block per prose segment (trimmed; empty ones left out) and, for each
// object, one per laid-out field (with the Line fields joined to it, and a
// Label field with the field it labels), then one per other key.
type Stream struct {
	plan *plan
	segs []*segment

	// The prose reader.
	pst       pstate
	lineOff   int  // where the current line starts in the prose segment
	fenceAt   int  // start of a fence line that may open a JSON object, or -1
	braceAt   int  // where the "{" that may open an object is
	infoBlank bool // the fence line being read has no info string so far
	codeOpen  bool // inside a fenced code block of the prose
	afterObj  bool // only white space since an object ended
	objFenced bool // the last object was opened right after a fence line

	// The JSON reader.
	stack    []*node
	jst      jstate
	str      strDec
	key      []byte
	raw      []byte // the top-level object's text since memberAt
	memberAt int

	// Rendering.
	grow      restGrowth // the rest, kept growing while only its end grows
	dirty     bool
	md        string
	final     []string // rendered blocks that can no longer change
	finalText strings.Builder
	emitted   int // blocks handed out by Completed
	doneSegs  int // segments whose blocks are all in final
	units     int // units of segs[doneSegs] that are in final
	extraAt   int // next member of segs[doneSegs] to look at for extras
}

// A segment is a stretch of prose or one JSON object.
type segment struct {
	prose  []byte
	obj    *node // nil for prose
	closed bool
	cutAt  int // times prose lost its end (a fence that closed an object)
}

type kind uint8

const (
	kStr kind = iota
	kLit
	kObj
	kArr
)

// node is one JSON value, as much of it as has arrived.
type node struct {
	kind    kind
	done    bool
	text    []byte   // kStr: decoded text; kLit: the bare word
	members []member // kObj
	index   map[string]int
	items   []*node // kArr
}

type member struct {
	key string // normalized
	val *node  // nil until the value starts
	dup bool   // a key given before: not shown
}

type pstate uint8

const (
	pLineStart pstate = iota // at the start of a line (after its indentation)
	pText                    // inside a line
	pTicks                   // backticks at the start of a line
	pFence                   // the rest of a fence line
	pBrace                   // after a "{" that may open an object
	pJSON                    // reading an object
)

type jstate uint8

const (
	jKey    jstate = iota // expecting a key or "}"
	jKeyStr               // inside a key
	jColon                // after a key
	jValue                // expecting a value (or "]")
	jAfter                // after a value
	jStr                  // inside a string value
	jLit                  // inside a bare word
)

// maxDepth bounds nesting; deeper text ends the object, as an error does.
const maxDepth = 64

// NewStream returns a Stream that renders with layout l.
func NewStream(l Layout) *Stream {
	s := &Stream{plan: compile(&l, map[*Layout]*plan{}), fenceAt: -1}
	s.segs = []*segment{{}}
	return s
}

// Write reads the next chunk of the reply. It never fails; the int is
// len(p), so that a Stream is an io.Writer.
func (s *Stream) Write(p []byte) (int, error) {
	write(s, p)
	return len(p), nil
}

// WriteString is Write for a string.
func (s *Stream) WriteString(p string) (int, error) {
	write(s, p)
	return len(p), nil
}

func write[T string | []byte](s *Stream, p T) {
	for i := 0; i < len(p); {
		if s.pst == pJSON && s.jst == jStr && s.str.esc == 0 && s.str.high == 0 {
			// The plain run of a string goes in at once.
			j := i
			for j < len(p) && p[j] != '"' && p[j] != '\\' {
				j++
			}
			if j > i {
				n := s.stack[len(s.stack)-1].lastValue()
				n.text = append(n.text, p[i:j]...)
				s.raw = append(s.raw, p[i:j]...)
				i = j
				continue
			}
		}
		s.feed(p[i])
		i++
	}
	if len(p) > 0 {
		s.dirty = true
	}
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

func (s *Stream) cur() *segment { return s.segs[len(s.segs)-1] }

func (s *Stream) feed(b byte) {
	if s.pst == pJSON {
		s.feedJSON(b)
		return
	}
	seg := s.cur()
	if !isSpace(b) && s.pst != pTicks && s.pst != pFence {
		if !(s.pst == pLineStart && b == '`') {
			s.afterObj = false
		}
		if s.fenceAt >= 0 && b != '{' && !(s.pst == pBrace && b == '"') {
			// What follows the fence line is not an object: it opens code.
			s.fenceAt = -1
			s.codeOpen = true
		}
	}
	switch s.pst {
	case pLineStart:
		s.lineStart(b, seg)
	case pText:
		s.text(b)
	case pTicks:
		s.ticks(b, seg)
	case pFence:
		s.fenceLine(b, seg)
	case pBrace:
		s.afterBrace(b, seg)
	}
}

// lineStart reads a byte at the start of a line of prose, where a fence
// may open.
func (s *Stream) lineStart(b byte, seg *segment) {
	switch {
	case b == ' ' || b == '\t' || b == '\r' || b == '\n':
		seg.prose = append(seg.prose, b)
		if b == '\n' {
			s.lineOff = len(seg.prose)
		}
		return
	case b == '`':
		seg.prose = append(seg.prose, b)
		s.pst = pTicks
		return
	}
	s.pst = pText
	s.text(b)
}

// ticks reads a byte after backticks opening a line: the third makes a
// fence, anything else makes them text.
func (s *Stream) ticks(b byte, seg *segment) {
	seg.prose = append(seg.prose, b)
	switch {
	case b == '`' && len(seg.prose)-s.lineOff-countIndent(seg.prose[s.lineOff:]) == 3:
		s.pst, s.infoBlank = pFence, true
	case b == '`':
	default:
		seg.prose = seg.prose[:len(seg.prose)-1]
		s.afterObj = false
		if s.fenceAt >= 0 {
			s.fenceAt, s.codeOpen = -1, true
		}
		s.pst = pText
		s.text(b)
	}
}

// fenceLine reads a byte of a fence's line: its end closes the object the
// fence opened, or code, or opens what follows; a brace on it may open an
// object.
func (s *Stream) fenceLine(b byte, seg *segment) {
	switch {
	case b == '\n':
		seg.prose = append(seg.prose, b)
		switch {
		case s.afterObj && s.objFenced && s.infoBlank && !s.codeOpen:
			seg.prose = seg.prose[:s.lineOff] // the fence closing the object
			seg.cutAt++
			s.afterObj = false
		case s.codeOpen:
			s.codeOpen = false
		default:
			s.fenceAt = s.lineOff
		}
		s.pst, s.lineOff = pLineStart, len(seg.prose)
	case b == '{' && !s.codeOpen:
		seg.prose = append(seg.prose, b)
		s.fenceAt, s.braceAt, s.pst = s.lineOff, len(seg.prose)-1, pBrace
	default:
		seg.prose = append(seg.prose, b)
		if !isSpace(b) {
			s.infoBlank = false
		}
	}
}

// afterBrace reads a byte after a "{": a quote opens an object.
func (s *Stream) afterBrace(b byte, seg *segment) {
	switch {
	case b == '"':
		s.open(b)
	case isSpace(b):
		seg.prose = append(seg.prose, b)
		if b == '\n' {
			s.lineOff = len(seg.prose)
		}
	default:
		s.fenceAt = -1
		s.pst = pText
		s.text(b)
	}
}

// countIndent counts the spaces and tabs opening line.
func countIndent(line []byte) int {
	n := 0
	for n < len(line) && (line[n] == ' ' || line[n] == '\t' || line[n] == '\r') {
		n++
	}
	return n
}

// text reads a byte in the middle of a line of prose.
func (s *Stream) text(b byte) {
	seg := s.cur()
	seg.prose = append(seg.prose, b)
	switch {
	case b == '\n':
		s.pst, s.lineOff = pLineStart, len(seg.prose)
	case b == '{' && !s.codeOpen:
		s.braceAt, s.pst = len(seg.prose)-1, pBrace
	}
}

// open starts an object at the "{" seen last; b is the quote after it.
func (s *Stream) open(b byte) {
	seg := s.cur()
	cut := s.braceAt
	s.objFenced = s.fenceAt >= 0
	if s.objFenced {
		cut = s.fenceAt
	}
	s.raw = append(s.raw[:0], seg.prose[s.braceAt:]...)
	s.memberAt = 1
	seg.prose = seg.prose[:cut]
	seg.closed = true
	root := &node{kind: kObj}
	s.segs = append(s.segs, &segment{obj: root})
	s.stack = append(s.stack[:0], root)
	s.fenceAt, s.pst, s.jst = -1, pJSON, jKey
	s.feedJSON(b)
}

// feedJSON reads a byte of an object, in the state the bytes before it
// left.
func (s *Stream) feedJSON(b byte) {
	if s.memberAt == len(s.raw) {
		s.raw, s.memberAt = s.raw[:0], 0
	}
	s.raw = append(s.raw, b)
	top := s.stack[len(s.stack)-1]
	switch s.jst {
	case jKey:
		s.beforeKey(b)
	case jKeyStr:
		s.inKey(b, top)
	case jColon:
		switch {
		case isSpace(b):
		case b == ':':
			s.jst = jValue
		default:
			s.fail()
		}
	case jValue:
		switch {
		case isSpace(b):
		case b == ',' && top.kind == kArr:
		case b == ']' && top.kind == kArr:
			s.close()
		default:
			s.value(b)
		}
	case jAfter:
		s.afterValue(b, top)
	case jStr:
		n := top.lastValue()
		var closed bool
		n.text, closed = s.str.feed(n.text, b)
		if closed {
			n.done = true
			s.valueDone(len(s.raw))
		}
	case jLit:
		s.inLiteral(b, top)
	}
}

// beforeKey reads a byte where a key may start.
func (s *Stream) beforeKey(b byte) {
	switch {
	case isSpace(b) || b == ',':
		if len(s.stack) == 1 {
			s.memberAt = len(s.raw) // the next field starts after this
		}
	case b == '"':
		s.key = s.key[:0]
		s.str = strDec{}
		s.jst = jKeyStr
	case b == '}':
		s.close()
	default:
		s.fail()
	}
}

// inKey reads a byte of a key; a closed key becomes a member of top (a
// repeated key is marked so).
func (s *Stream) inKey(b byte, top *node) {
	var closed bool
	s.key, closed = s.str.feed(s.key, b)
	if !closed {
		return
	}
	k := NormKey(string(s.key))
	m := member{key: k}
	if _, dup := top.index[k]; dup {
		m.dup = true
	} else {
		if top.index == nil {
			top.index = map[string]int{}
		}
		top.index[k] = len(top.members)
	}
	top.members = append(top.members, m)
	s.jst = jColon
}

// afterValue reads a byte after a value: a comma, the end of top, or what
// a model wrote instead of a comma.
func (s *Stream) afterValue(b byte, top *node) {
	switch {
	case isSpace(b):
	case b == ',':
		if top.kind == kObj {
			if len(s.stack) == 1 {
				s.memberAt = len(s.raw)
			}
			s.jst = jKey
		} else {
			s.jst = jValue
		}
	case b == '}' && top.kind == kObj, b == ']' && top.kind == kArr:
		s.close()
	case b == '"' && top.kind == kObj: // a missing comma
		s.jst = jKey
		s.feedJSON2(b)
	case top.kind == kArr && (b == '"' || b == '{' || b == '['):
		s.value(b)
	default:
		s.fail()
	}
}

// inLiteral reads a byte of a number, true, false or null: a byte that
// cannot be part of one ends it and is read again.
func (s *Stream) inLiteral(b byte, top *node) {
	if isWord(b) {
		n := top.lastValue()
		n.text = append(n.text, b)
		return
	}
	top.lastValue().done = true
	s.valueDone(len(s.raw) - 1)
	s.raw = s.raw[:len(s.raw)-1]
	s.feedJSON(b)
}

// feedJSON2 re-reads the byte just read, in the new state.
func (s *Stream) feedJSON2(b byte) {
	s.raw = s.raw[:len(s.raw)-1]
	s.feedJSON(b)
}

func isWord(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '.' || b == '+' || b == '-' || b == '_'
}

// lastValue is the value being read in container n.
func (n *node) lastValue() *node {
	if n.kind == kObj {
		return n.members[len(n.members)-1].val
	}
	return n.items[len(n.items)-1]
}

// value starts a value with byte b.
func (s *Stream) value(b byte) {
	var n *node
	switch {
	case b == '"':
		n = &node{kind: kStr}
		s.str = strDec{}
		s.jst = jStr
	case b == '{':
		n = &node{kind: kObj}
		s.jst = jKey
	case b == '[':
		n = &node{kind: kArr}
		s.jst = jValue
	case isWord(b):
		n = &node{kind: kLit, text: []byte{b}}
		s.jst = jLit
	default:
		s.fail()
		return
	}
	top := s.stack[len(s.stack)-1]
	if top.kind == kObj {
		top.members[len(top.members)-1].val = n
	} else {
		top.items = append(top.items, n)
	}
	if n.kind == kObj || n.kind == kArr {
		if len(s.stack) >= maxDepth {
			s.fail()
			return
		}
		s.stack = append(s.stack, n)
	}
}

// close ends the container on top of the stack.
func (s *Stream) close() {
	n := s.stack[len(s.stack)-1]
	n.done = true
	s.stack = s.stack[:len(s.stack)-1]
	if len(s.stack) > 0 {
		s.valueDone(len(s.raw))
		return
	}
	// The object is complete: back to prose.
	s.cur().closed = true
	s.segs = append(s.segs, &segment{})
	s.pst, s.afterObj, s.lineOff = pText, true, 0
	s.raw = s.raw[:0]
}

// valueDone notes that a value ended at raw offset end.
func (s *Stream) valueDone(end int) {
	if len(s.stack) == 1 {
		s.memberAt = end
	}
	s.jst = jAfter
}

// fail ends the object at a byte that cannot continue it: the fields read
// so far stay, the field in progress goes, and its text (up to and with
// this byte) reads as prose.
func (s *Stream) fail() {
	root := s.stack[0]
	if n := len(root.members); n > 0 {
		if m := root.members[n-1]; m.val == nil || !m.val.done {
			root.members = root.members[:n-1]
			if !m.dup {
				delete(root.index, m.key)
			}
		}
	}
	root.done = true
	s.cur().closed = true
	from := s.memberAt
	if len(root.members) == 0 {
		from = 0 // nothing of it read as an object: all of it is prose
	}
	s.segs = append(s.segs, &segment{prose: append([]byte(nil), s.raw[from:]...)})
	s.stack = s.stack[:0]
	s.raw = s.raw[:0]
	s.pst, s.afterObj, s.lineOff = pText, false, 0
}

// strDec decodes a JSON string a byte at a time.
type strDec struct {
	esc  int8 // 0: none; 1: after "\"; 2..5: reading the hex digits of \u
	u    rune // the \u code so far
	high rune // a high surrogate waiting for its low half, or 0
}

// feed decodes byte b into dst; closed reports the closing quote.
func (d *strDec) feed(dst []byte, b byte) (out []byte, closed bool) {
	switch {
	case d.esc == 1:
		d.esc = 0
		if b == 'u' {
			d.esc, d.u = 2, 0
			return dst, false
		}
		dst = d.flushHigh(dst)
		switch b {
		case 'n':
			b = '\n'
		case 't':
			b = '\t'
		case 'r':
			b = '\r'
		case 'b', 'f':
			return dst, false
		}
		return append(dst, b), false
	case d.esc >= 2:
		h := hexVal(b)
		if h < 0 {
			d.esc = 0
			dst = d.flushHigh(dst)
			dst = utf8.AppendRune(dst, utf8.RuneError)
			return d.feed(dst, b)
		}
		d.u = d.u<<4 | rune(h)
		if d.esc++; d.esc < 6 {
			return dst, false
		}
		d.esc = 0
		r := d.u
		switch {
		case d.high != 0 && r >= 0xDC00 && r <= 0xDFFF:
			r = 0x10000 + (d.high-0xD800)<<10 + (r - 0xDC00)
			d.high = 0
		case r >= 0xD800 && r <= 0xDBFF:
			dst = d.flushHigh(dst)
			d.high = r
			return dst, false
		default:
			dst = d.flushHigh(dst)
		}
		return utf8.AppendRune(dst, r), false
	case b == '\\':
		d.esc = 1
		return dst, false
	}
	dst = d.flushHigh(dst)
	if b == '"' {
		return dst, true
	}
	return append(dst, b), false
}

// flushHigh writes a high surrogate left without its low half.
func (d *strDec) flushHigh(dst []byte) []byte {
	if d.high != 0 {
		d.high = 0
		dst = utf8.AppendRune(dst, utf8.RuneError)
	}
	return dst
}

func hexVal(b byte) int {
	switch {
	case b >= '0' && b <= '9':
		return int(b - '0')
	case b >= 'a' && b <= 'f':
		return int(b-'a') + 10
	case b >= 'A' && b <= 'F':
		return int(b-'A') + 10
	}
	return -1
}

// SawObject reports whether a JSON object has begun in what was written: a
// caller can tell a reply that is prose only (and stream it as text) from
// one whose fields are on their way.
func (s *Stream) SawObject() bool {
	if s.pst == pJSON {
		return true
	}
	for _, sg := range s.segs {
		if sg.obj != nil {
			return true
		}
	}
	return false
}
