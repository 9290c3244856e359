package trust

import (
	"bytes"
	"encoding/json"
	"io"
	"math/bits"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/clipperhouse/uax29/v2/graphemes"
)

// Cleaner turns the raw bytes a CLI writes to a terminal into plain text:
// escape sequences (CSI, OSC, DCS and friends) are removed, CRLF becomes LF,
// a lone CR becomes LF, other control characters except tab are dropped,
// invalid UTF-8 becomes U+FFFD and C1 control code points are dropped. The
// characters that reorder or hide text without being seen (see
// Invisible) are shown as escapes, <U+202E>, so that what a reader sees
// is what the text says; a byte-order mark that begins the text is
// dropped (it is how some editors begin a file, and says nothing).
//
// It is stateful because a read can end in the middle of an escape
// sequence, a CRLF pair or a multi-byte character; the rest arrives with the
// next read. Model text is untrusted: a reply that embeds escape sequences
// must not be able to drive the user's terminal, so the decoded text of
// every format goes through a cleaner too.
type Cleaner struct {
	state  escState
	strLen int  // bytes inside the current OSC/DCS string
	pendCR bool // a CR was seen; LF or not decides what it becomes
	begun  bool // a character has come out (or was dropped): a BOM now is no longer leading
	// base is the last character that came out, emoji modifiers and the
	// joiners, selectors and tags kept with an emoji aside: what decides
	// whether an invisible character that follows belongs to an emoji.
	base    rune
	carry   []byte
	scratch []byte
}

type escState uint8

const (
	stGround   escState = iota
	stEsc               // after ESC
	stEscInter          // ESC followed by intermediate bytes
	stCSI               // after ESC [
	stStr               // inside OSC/DCS/SOS/PM/APC, until BEL or ST
	stStrEsc            // ESC seen inside a string: ST is ESC \
)

// maxStrLen bounds an unterminated OSC/DCS string: past it the cleaner
// gives up and returns to plain text rather than swallowing the rest of an
// agent's output.
const maxStrLen = 4096

// Write cleans p and returns the text that is complete so far. The result
// is p itself when there is nothing to clean, or aliases an internal buffer
// valid until the next call.
func (c *Cleaner) Write(p []byte) []byte {
	if c.state == stGround && !c.pendCR && len(c.carry) == 0 && isClean(p) {
		// The usual case, for a model's text and for every JSON stream:
		// nothing to remove, so nothing to copy. (Copying every read
		// into the scratch buffer, twice per byte for the JSON formats,
		// is what this saves.)
		c.passed(p)
		return p
	}
	out := c.scratch[:0]
	for i := 0; i < len(p); {
		// Most output is plain text: copy whole runs of it at once and
		// only step byte by byte through controls and escape sequences.
		if c.state == stGround && !c.pendCR {
			j := i
			for j < len(p) && isPlain(p[j]) {
				j++
			}
			if j > i {
				out = append(out, p[i:j]...)
				i = j
				continue
			}
		}
		out = c.step(out, p[i])
		i++
	}
	text := c.utf8(out, false)
	c.scratch = out
	return text
}

// isPlain is a byte that passes through as it is (UTF-8 is checked later).
func isPlain(b byte) bool {
	return b >= 0x20 && b != 0x7f || b == '\n' || b == '\t'
}

// Flush returns whatever is held back at the end of the stream.
func (c *Cleaner) Flush() []byte {
	out := c.scratch[:0]
	if c.pendCR {
		out = append(out, '\n')
		c.pendCR = false
	}
	c.state = stGround
	return c.utf8(out, true)
}

func (c *Cleaner) step(out []byte, b byte) []byte {
	switch c.state {
	case stEsc:
		return c.afterEsc(out, b)
	case stEscInter:
		if b >= 0x20 && b <= 0x2f {
			return out
		}
		c.state = stGround
		return out
	case stCSI:
		if b >= 0x20 && b <= 0x3f {
			return out
		}
		// A final byte ends the sequence; anything else aborts it.
		c.state = stGround
		return out
	case stStr:
		return c.inString(out, b)
	case stStrEsc:
		if b == '\\' {
			c.state = stGround
			return out
		}
		c.state = stEsc
		return c.afterEsc(out, b)
	}
	return c.ground(out, b)
}

func (c *Cleaner) ground(out []byte, b byte) []byte {
	if c.pendCR {
		if b == '\r' {
			return out // CR CR LF is what a pty makes of CRLF
		}
		c.pendCR = false
		out = append(out, '\n')
		if b == '\n' {
			return out
		}
	}
	switch {
	case b == 0x1b:
		c.state = stEsc
	case b == '\r':
		c.pendCR = true
	case b == '\n' || b == '\t':
		out = append(out, b)
	case b < 0x20 || b == 0x7f:
		// other C0 controls: bell, backspace, NUL... never text
	default:
		out = append(out, b)
	}
	return out
}

func (c *Cleaner) afterEsc(out []byte, b byte) []byte {
	switch {
	case b == '[':
		c.state = stCSI
	case b == ']' || b == 'P' || b == 'X' || b == '^' || b == '_':
		c.state = stStr
		c.strLen = 0
	case b >= 0x20 && b <= 0x2f:
		c.state = stEscInter
	case b == 0x1b:
		c.state = stEsc
	default:
		c.state = stGround
	}
	return out
}

func (c *Cleaner) inString(out []byte, b byte) []byte {
	switch b {
	case 0x07:
		c.state = stGround
	case 0x1b:
		c.state = stStrEsc
	default:
		c.strLen++
		if c.strLen > maxStrLen {
			c.state = stGround
		}
	}
	return out
}

// utf8 validates out (prefixed by bytes carried from the last call),
// holding back an incomplete trailing sequence unless final is set, and
// what an invisible character's fate waits on (the character after a
// zero-width joiner).
func (c *Cleaner) utf8(out []byte, final bool) []byte {
	if len(c.carry) > 0 {
		out = append(c.carry, out...)
		c.carry = nil
	}
	if isCleanASCII(out) || (utf8.Valid(out) && !hasSpecial(out)) {
		c.passed(out)
		return out
	}
	res := make([]byte, 0, len(out))
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRune(out[i:])
		if r == utf8.RuneError && size <= 1 {
			if !final && !utf8.FullRune(out[i:]) {
				c.carry = append([]byte(nil), out[i:]...)
				break
			}
			res = append(res, "\uFFFD"...)
			c.begun, c.base = true, utf8.RuneError
			i++
			continue
		}
		switch {
		case r >= 0x80 && r <= 0x9f:
			// C1 controls (8-bit CSI and friends)
		case r == bom && !c.begun:
		case Invisible(r):
			n, wait := c.inEmoji(r, out[i:], final)
			if wait {
				c.carry = append([]byte(nil), out[i:]...)
				return res
			}
			if n > 0 {
				res = append(res, out[i:i+n]...)
				size = n
				break
			}
			res = appendEscape(res, r)
			c.base = '>'
		default:
			res = append(res, out[i:i+size]...)
			if !skinTone(r) {
				c.base = r
			}
		}
		c.begun = true
		i += size
	}
	return res
}

// passed notes text that came out as it was: its last character (emoji
// modifiers aside, as in utf8) is the base an invisible character in the
// next piece may belong to.
func (c *Cleaner) passed(p []byte) {
	if len(p) == 0 {
		return
	}
	c.begun = true
	if b := p[len(p)-1]; b < utf8.RuneSelf {
		c.base = rune(b)
		return
	}
	for len(p) > 0 {
		r, n := utf8.DecodeLastRune(p)
		if !skinTone(r) {
			c.base = r
			return
		}
		p = p[:len(p)-n]
	}
}

// bom is the byte-order mark, which is also the zero-width no-break space.
const bom = 0xFEFF

// Invisible reports whether r is a character a person cannot see that
// can change how the text around it reads, or hide a difference, or
// carry words a model reads and a person does not (ASCII smuggled in
// Unicode tag characters): every format character (Unicode's Cf: the
// bidirectional controls of "Trojan Source", CVE-2021-42574, the
// zero-width characters, the soft hyphen, the tags U+E0000–U+E007F), every
// default-ignorable code point (the Hangul fillers, U+034F, the variation
// selectors, the unassigned ones reserved as such), and the line and
// paragraph separators U+2028 and U+2029, all from the unicode package's
// tables. The prepended concatenation marks, which Cf counts but which
// show (the Arabic number sign), are not. The cleaner shows each as
// <U+XXXX>, except where it is part of an emoji (Cleaner.inEmoji).
func Invisible(r rune) bool {
	if r < 0xAD {
		return false
	}
	return unicode.In(r, invisibleTables...) && !unicode.Is(unicode.Prepended_Concatenation_Mark, r)
}

// invisibleTables are the properties of Invisible.
var invisibleTables = []*unicode.RangeTable{
	unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector, unicode.Zl, unicode.Zp,
}

// Emoji are written with invisible characters: a zero-width joiner makes
// one of two (a family of three is three emoji and two joiners), U+FE0F
// asks for an emoji's colourful form (and U+FE0E for its plain one), and
// the flags of England, Scotland and Wales are a black flag and tags.
// There the characters show as what they make, so the cleaner keeps them.
const (
	zwj      = 0x200D
	textVS   = 0xFE0E
	emojiVS  = 0xFE0F
	blackFlg = 0x1F3F4
	keycap   = 0x20E3
)

// flagTags are the tag sequences that follow a black flag in the only
// flags written with tags (Unicode's recommended emoji): gbeng, gbsct,
// gbwls, each ended by the cancel tag.
var flagTags = [][]byte{tagSequence("gbeng"), tagSequence("gbsct"), tagSequence("gbwls")}

func tagSequence(s string) []byte {
	var b []byte
	for _, r := range s {
		b = utf8.AppendRune(b, 0xE0000+r)
	}
	return utf8.AppendRune(b, 0xE007F)
}

// inEmoji says how many bytes of p, which starts with the invisible
// character r, are part of an emoji and pass as they are (0: r is shown
// as an escape), or that what follows r is needed to tell (wait; never
// when final): a zero-width joiner between two emoji, a variation
// selector after an emoji (or U+FE0F in a keycap, 1️⃣), the tags of a
// flag after a black flag.
func (c *Cleaner) inEmoji(r rune, p []byte, final bool) (n int, wait bool) {
	size := utf8.RuneLen(r)
	next := func() (rune, bool) {
		rest := p[size:]
		if !utf8.FullRune(rest) {
			return 0, !final
		}
		nr, _ := utf8.DecodeRune(rest)
		return nr, false
	}
	switch {
	case r == zwj && emoji(c.base):
		nr, wait := next()
		if wait || !emoji(nr) {
			return 0, wait
		}
		return size, false
	case (r == emojiVS || r == textVS) && emoji(c.base):
		return size, false
	case r == emojiVS && (c.base >= '0' && c.base <= '9' || c.base == '#' || c.base == '*'):
		nr, wait := next()
		if wait || nr != keycap {
			return 0, wait
		}
		return size, false
	case r >= 0xE0020 && r <= 0xE007E && c.base == blackFlg:
		for _, seq := range flagTags {
			switch {
			case bytes.HasPrefix(p, seq):
				return len(seq), false
			case !final && len(p) < len(seq) && bytes.HasPrefix(seq, p):
				return 0, true
			}
		}
	}
	return 0, false
}

// emoji reports whether r is an emoji as Unicode's grapheme cluster rules
// see one (Extended_Pictographic): one a zero-width joiner joins to the
// emoji after it into one character (UAX #29, rule GB11).
func emoji(r rune) bool {
	if r < 0xA9 {
		return false
	}
	var b [utf8.UTFMax + 7]byte
	n := utf8.EncodeRune(b[:], r)
	n += copy(b[n:], "\u200d\U0001F600")
	g := graphemes.FromBytes(b[:n])
	return g.Next() && len(g.Value()) == n
}

// skinTone is an emoji modifier (U+1F3FB–U+1F3FF): it colours the emoji
// before it, which stays the base.
func skinTone(r rune) bool { return r >= 0x1F3FB && r <= 0x1F3FF }

// appendEscape appends r as <U+XXXX> (five or six hex digits beyond the
// first plane: <U+E0041>).
func appendEscape(b []byte, r rune) []byte {
	const hex = "0123456789ABCDEF"
	b = append(b, '<', 'U', '+')
	digits := 4
	for r>>(4*digits) != 0 {
		digits++
	}
	for i := digits - 1; i >= 0; i-- {
		b = append(b, hex[r>>(4*i)&15])
	}
	return append(b, '>')
}

// isClean reports whether the cleaner would pass p through unchanged
// from its ground state: no control character but newline and tab, no
// DEL, valid UTF-8 ending on a whole character, no C1 control and no
// invisible character.
func isClean(p []byte) bool {
	i, high := plainSpan(p)
	return i == len(p) && (!high || utf8.Valid(p) && !hasSpecial(p))
}

// isCleanString is isClean for a string.
func isCleanString(s string) bool {
	i, high := plainSpan(s)
	return i == len(s) && (!high || utf8.ValidString(s) && !hasSpecial(s))
}

// plainSpan returns the index of the first byte of p that is a control
// character other than newline and tab, or DEL (len(p) if none), and
// whether a byte before it is >= 0x80. Sixteen bytes at a time, with a
// quick test that only newlines and tabs (and what plainSpan looks for)
// fail, and an exact one for the words that do.
func plainSpan[T string | []byte](p T) (int, bool) {
	var high uint64
	i := 0
	for ; i+16 <= len(p); i += 16 {
		x, y := word(p, i), word(p, i+8)
		if anyCtl(x)|anyCtl(y) != 0 {
			if m := ctlMask(x); m != 0 {
				k := bits.TrailingZeros64(m) / 8
				return i + k, (high|x&(1<<(8*k)-1))&msbs != 0
			}
			if m := ctlMask(y); m != 0 {
				k := bits.TrailingZeros64(m) / 8
				return i + 8 + k, (high|x|y&(1<<(8*k)-1))&msbs != 0
			}
		}
		high |= x | y
	}
	h := high&msbs != 0
	for ; i < len(p); i++ {
		if !isPlain(p[i]) {
			return i, h
		}
		h = h || p[i] >= utf8.RuneSelf
	}
	return i, h
}

// anyCtl is non-zero when a byte of x is below 0x20 or DEL (exact as a
// boolean, not as a mask: a borrow can mark a byte after one that is).
func anyCtl(x uint64) uint64 {
	return (x-lsbs*0x20)&^x&msbs | ((x^lsbs*0x7f)-lsbs)&^(x^lsbs*0x7f)&msbs
}

// ctlMask has the top bit of each byte of x set that is a control
// character other than newline and tab, or DEL: exactly those bytes.
func ctlMask(x uint64) uint64 {
	return ltMask(x, 0x20)&^(eqMask(x, '\n')|eqMask(x, '\t')) | eqMask(x, 0x7f)
}

// Constants for working on eight bytes at once, one per byte.
const (
	lsbs  = 0x0101010101010101
	msbs  = 0x8080808080808080
	low7s = 0x7f7f7f7f7f7f7f7f
)

// ltMask has the top bit of each byte of x set that is below n (n <=
// 0x80), and of no other: no carry crosses from one byte to the next.
func ltMask(x uint64, n byte) uint64 {
	return ^((x&low7s + lsbs*uint64(0x80-n)) | x) & msbs
}

// eqMask has the top bit of each byte of x set that equals c, and of no
// other.
func eqMask(x uint64, c byte) uint64 {
	y := x ^ lsbs*uint64(c)
	return ^((y&low7s + low7s) | y) & msbs
}

// word reads eight bytes of p from i, little-endian (the compiler makes
// this one load, for strings as for slices).
func word[T string | []byte](p T, i int) uint64 {
	_ = p[i+7]
	return uint64(p[i]) | uint64(p[i+1])<<8 | uint64(p[i+2])<<16 | uint64(p[i+3])<<24 |
		uint64(p[i+4])<<32 | uint64(p[i+5])<<40 | uint64(p[i+6])<<48 | uint64(p[i+7])<<56
}

// hasC1 reports whether p holds a C1 control (U+0080-U+009F, encoded as
// 0xC2 0x80-0x9F).
func hasC1[T string | []byte](p T) bool {
	for i := 0; i+1 < len(p); i++ {
		if p[i] == 0xC2 && p[i+1] >= 0x80 && p[i+1] <= 0x9F {
			return true
		}
	}
	return false
}

// hasSpecial reports whether p may hold a C1 control or an Invisible
// character, by their UTF-8 encodings: a two-byte character's two bytes,
// a three-byte character's three, a four-byte character's first three
// are looked up in specials (so a character beside an invisible one in
// its block may be taken for one: the cleaner then looks closer).
func hasSpecial[T string | []byte](p T) bool {
	for i := 0; i+1 < len(p); i++ {
		b := p[i]
		if b < 0xC2 {
			continue // ASCII, or inside a character: no lead byte of one
		}
		b1 := p[i+1] & 0x3F
		switch {
		case b < 0xE0:
			if specials.two[b-0xC0]>>b1&1 != 0 {
				return true
			}
		case i+2 >= len(p):
		case b < 0xF0:
			if specials.three[int(b&0x0F)<<6|int(b1)]>>(p[i+2]&0x3F)&1 != 0 {
				return true
			}
		default:
			if specials.four[int(b&0x07)<<6|int(b1)]>>(p[i+2]&0x3F)&1 != 0 {
				return true
			}
		}
	}
	return false
}

// specials holds, for the lead bytes of each length of UTF-8 character,
// which continuation bytes begin an Invisible character or a C1 control:
// made once from Invisible's tables.
var specials = func() (t struct {
	two   [32]uint64      // by the lead byte (0xC0-0xDF), a bit per second byte
	three [16 * 64]uint64 // by the lead's low bits and the second byte, a bit per third byte
	four  [8 * 64]uint64  // as three, for the first three bytes of four
}) {
	mark := func(r rune) {
		var b [utf8.UTFMax]byte
		switch n := utf8.EncodeRune(b[:], r); n {
		case 2:
			t.two[b[0]-0xC0] |= 1 << (b[1] & 0x3F)
		case 3:
			t.three[int(b[0]&0x0F)<<6|int(b[1]&0x3F)] |= 1 << (b[2] & 0x3F)
		case 4:
			t.four[int(b[0]&0x07)<<6|int(b[1]&0x3F)] |= 1 << (b[2] & 0x3F)
		}
	}
	for r := rune(0x80); r <= 0x9F; r++ {
		mark(r)
	}
	for _, tab := range invisibleTables {
		for _, rg := range tab.R16 {
			for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
				if Invisible(r) {
					mark(r)
				}
			}
		}
		for _, rg := range tab.R32 {
			for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
				if Invisible(r) {
					mark(r)
				}
			}
		}
	}
	return t
}()

func isCleanASCII(p []byte) bool {
	for _, b := range p {
		if b >= 0x80 {
			return false
		}
	}
	return true
}

// Text makes a complete piece of text safe to show on a terminal or save
// in a document: escape sequences and control characters other than
// newline and tab are removed, CR and CRLF become LF, invalid UTF-8
// becomes U+FFFD, the invisible characters that reorder or hide text are
// shown as <U+XXXX> and a leading byte-order mark is dropped. Clean text
// is returned as it is, not copied. It is the one cleaner of text that
// came from outside: a model's reply, a log, a file or its name, an
// argument.
func Text(s string) string {
	if isCleanString(s) {
		return s
	}
	var c Cleaner
	out := append([]byte(nil), c.Write([]byte(s))...)
	out = append(out, c.Flush()...)
	return string(out)
}

// Writer cleans everything written through it with Text: for streams
// that must never carry an escape sequence (arena's stderr, a printer's
// output). Each Write is cleaned on its own; a sequence split across two
// writes loses its ESC, and what follows it is then harmless text.
type Writer struct{ W io.Writer }

func (w Writer) Write(p []byte) (int, error) {
	clean := p
	if !isClean(p) {
		clean = []byte(Text(string(p)))
	}
	if _, err := w.W.Write(clean); err != nil {
		return 0, err
	}
	return len(p), nil
}

// JSON is json.Marshal for JSON that arena writes to a file or a terminal
// (a log, a printer's lines, a report), cleaned by CleanJSON: no string in
// it holds an escape sequence, and no C1 control is written raw
// (encoding/json writes U+0080–U+009F, among them the 8-bit CSI, as they
// are, and a terminal showing the file may take one for the start of an
// escape sequence).
func JSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return CleanJSON(b), nil
}

// EscapeC1 writes the C1 controls in encoded JSON as \u escapes (in JSON
// they can only be inside strings, where the escape means the same).
func EscapeC1(b []byte) []byte {
	if !hasC1(b) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); i++ {
		if b[i] == 0xC2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9F {
			out = append(out, `\u00`...)
			out = append(out, "0123456789abcdef"[b[i+1]>>4], "0123456789abcdef"[b[i+1]&15])
			i++
			continue
		}
		out = append(out, b[i])
	}
	return out
}

// JSONWriter applies CleanJSON to encoded JSON on its way to W (the
// writer of a json.Encoder, which writes one whole value a call).
type JSONWriter struct{ W io.Writer }

func (w JSONWriter) Write(p []byte) (int, error) {
	if _, err := w.W.Write(CleanJSON(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// CleanJSON cleans every string in encoded JSON with Text, keeping
// everything else (the order of keys, numbers, spacing) as it is, and
// writes C1 controls as \u escapes. A JSON string can carry an escape
// sequence as "\u001b[2J"; whoever decodes arena's JSON (a log, the
// --json stream, a script) and prints a field must not print one.
// Invalid JSON comes back with only its raw controls removed.
func CleanJSON(b []byte) []byte {
	if !jsonNeedsCleaning(b) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			out = append(out, b[i])
			continue
		}
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if b[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(b) {
			return []byte(Text(string(b)))
		}
		lit := b[i : j+1]
		var s string
		if err := json.Unmarshal(lit, &s); err != nil {
			return []byte(Text(string(b)))
		}
		if c := Text(s); c != s {
			lit = marshalString(c)
		}
		out = append(out, lit...)
		i = j
	}
	return EscapeC1(out)
}

// marshalString is s as a JSON string, with <, > and & as they are (not
// \u003c): a person reading the log sees <U+202E> as the screen shows it.
func marshalString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// jsonNeedsCleaning: a raw byte that is a control character, a C1
// control or an Invisible character, or a \u escape of one.
func jsonNeedsCleaning(b []byte) bool {
	if hasSpecial(b) {
		return true
	}
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c < 0x20 && c != '\n' && c != '\t' && c != '\r', c == 0x7f:
			return true
		case c == '\\' && i+5 < len(b) && b[i+1] == 'u':
			r, ok := hex4(b[i+2 : i+6])
			if ok && utf16.IsSurrogate(r) && i+11 < len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
				// A character beyond the first plane, as JSON escapes
				// it: a tag character is \udb40\udc41.
				lo, _ := hex4(b[i+8 : i+12])
				r = utf16.DecodeRune(r, lo)
			}
			if ok && unsafeRune(r) {
				return true
			}
			i++ // past the escaped backslash's partner, whatever it is
		case c == '\\':
			i++
		}
	}
	return false
}

// hex4 is the character of the four hex digits of a \u escape.
func hex4(h []byte) (rune, bool) {
	var r rune
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			r = r<<4 | rune(c|0x20-'a'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// unsafeRune is a character Text removes or shows as an escape (a
// carriage return, which it turns into a newline, included).
func unsafeRune(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || Invisible(r)
}
