package challengers

import (
	"unicode/utf8"
)

// cleaner turns the raw bytes a CLI writes to a terminal into plain text:
// escape sequences (CSI, OSC, DCS and friends) are removed, CRLF becomes LF,
// a lone CR becomes LF, other control characters except tab are dropped,
// invalid UTF-8 becomes U+FFFD and C1 control code points are dropped.
//
// It is stateful because a read can end in the middle of an escape
// sequence, a CRLF pair or a multi-byte character; the rest arrives with the
// next read. Model text is untrusted: a reply that embeds escape sequences
// must not be able to drive the user's terminal, so the decoded text of
// every format goes through a cleaner too.
type cleaner struct {
	state   escState
	strLen  int  // bytes inside the current OSC/DCS string
	pendCR  bool // a CR was seen; LF or not decides what it becomes
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
// aliases an internal buffer valid until the next call.
func (c *cleaner) Write(p []byte) []byte {
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
func (c *cleaner) Flush() []byte {
	out := c.scratch[:0]
	if c.pendCR {
		out = append(out, '\n')
		c.pendCR = false
	}
	c.state = stGround
	return c.utf8(out, true)
}

func (c *cleaner) step(out []byte, b byte) []byte {
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

func (c *cleaner) ground(out []byte, b byte) []byte {
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

func (c *cleaner) afterEsc(out []byte, b byte) []byte {
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

func (c *cleaner) inString(out []byte, b byte) []byte {
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
// holding back an incomplete trailing sequence unless final is set.
func (c *cleaner) utf8(out []byte, final bool) []byte {
	if len(c.carry) > 0 {
		out = append(c.carry, out...)
		c.carry = nil
	}
	if isCleanASCII(out) || (utf8.Valid(out) && !hasC1(out)) {
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
			i++
			continue
		}
		if r >= 0x80 && r <= 0x9f {
			i += size // C1 controls (8-bit CSI and friends)
			continue
		}
		res = append(res, out[i:i+size]...)
		i += size
	}
	return res
}

// hasC1 reports whether p holds a C1 control (U+0080-U+009F, encoded as
// 0xC2 0x80-0x9F).
func hasC1(p []byte) bool {
	for i := 0; i+1 < len(p); i++ {
		if p[i] == 0xC2 && p[i+1] >= 0x80 && p[i+1] <= 0x9F {
			return true
		}
	}
	return false
}

func isCleanASCII(p []byte) bool {
	for _, b := range p {
		if b >= 0x80 {
			return false
		}
	}
	return true
}

// CleanText strips escape sequences and control characters from a complete
// piece of text in one go.
func CleanText(s string) string {
	var c cleaner
	out := append([]byte(nil), c.Write([]byte(s))...)
	out = append(out, c.Flush()...)
	return string(out)
}
