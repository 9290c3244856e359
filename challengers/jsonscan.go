package challengers

import (
	"encoding/binary"
	"math/bits"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// A fast path for reading the few fields the decoders want from one JSON
// event. encoding/json's Unmarshal into the event structs ran at 54 MB/s
// on gemini's 16-byte deltas (2.2 µs an event) and 110-135 MB/s on claude's
// events of any size, while `cat` moves 100-115 MiB/s through a pty: the
// decoder alone was slower than the pipe. This reads the line once,
// validating it as encoding/json's scanner does, records where each wanted
// value is (strings are decoded only when used, and only if they hold an
// escape or invalid UTF-8), and skips the rest.
//
// It decides only what it can decide exactly as json.Unmarshal would. A
// line that is not valid JSON is rejected (jInvalid), and ignored, as the
// decoders ignore a line Unmarshal rejects. A key that is not byte for
// byte a wanted name but matches one the way encoding/json matches names
// (case-insensitively, with Unicode folding), a key holding an escape or a
// byte >= 0x80, a wanted key given twice, a value of the wrong type, a
// number that is not an int64, or nesting deeper than encoding/json
// allows, all make it give up (jFallback), and the caller decodes the line
// with encoding/json instead. FuzzJSONFastPath and the tests beside it
// check that the two agree, field by field.

// jwant is what a wanted field holds in the Go struct it stands for.
type jwant uint8

const (
	wantString jwant = iota // string or *string; null leaves it unset
	wantBool                // bool; null leaves it unset
	wantInt                 // int64; null leaves it unset
	wantRaw                 // json.RawMessage: any value
	wantObject              // *struct: an object (its fields in child) or null
	wantArray               // []struct: an array of objects (or nulls), or null
)

// jfield is one wanted field: its JSON name (lowercase ASCII, as the
// struct tags are), what it holds, and the slot of the values array it is
// recorded in. An object's fields, or an array's elements' fields, are in
// child, with slots of their own.
type jfield struct {
	name  string
	want  jwant
	slot  int
	child []jfield
}

// jkind is what a recorded value is.
type jkind uint8

const (
	jAbsent jkind = iota
	jString
	jNull
	jTrue
	jFalse
	jNumber
	jObject
	jArray
)

// jval is where a value is in the line: for a string the bytes between
// the quotes, still escaped (esc: they hold a backslash; high: a byte >=
// 0x80, which may be invalid UTF-8); for anything else the value's bytes.
type jval struct {
	raw       []byte
	kind      jkind
	esc, high bool
}

type jstatus uint8

const (
	jOK       jstatus = iota
	jInvalid          // not valid JSON: encoding/json rejects it too
	jFallback         // valid or not, leave it to encoding/json
)

// maxJSONDepth is encoding/json's nesting limit (scanner.go): deeper
// input is left to it.
const maxJSONDepth = 10000

// jscan reads one JSON document.
type jscan struct {
	b      []byte
	i      int
	depth  int
	status jstatus
}

// decodeFast reads the object that is line (already trimmed of space)
// into vals, one slot per wanted field of fields and their children.
// Slots of absent fields are left as they were: callers pass zeroed vals.
func decodeFast(line []byte, fields []jfield, vals []jval) jstatus {
	s := jscan{b: line}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		s.skip() // not an object: the decoders never get here, but keep the rule
		if s.status == jOK {
			return jFallback
		}
		return s.status
	}
	s.object(fields, vals)
	if s.status != jOK {
		return s.status
	}
	s.ws()
	if s.i != len(s.b) {
		return jInvalid // data after the top-level value
	}
	return jOK
}

func (s *jscan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *jscan) fail(st jstatus) {
	if s.status == jOK {
		s.status = st
	}
}

// object reads the object at s.i, recording the wanted fields in vals.
func (s *jscan) object(fields []jfield, vals []jval) {
	if s.depth++; s.depth > maxJSONDepth {
		s.fail(jFallback)
		return
	}
	s.i++ // {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		s.depth--
		return
	}
	for s.status == jOK {
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			s.fail(jInvalid)
			return
		}
		key, esc, high := s.str()
		if s.status != jOK {
			return
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			s.fail(jInvalid)
			return
		}
		s.i++
		s.ws()
		var f *jfield
		if len(fields) > 0 {
			f = matchField(fields, key, esc || high)
		}
		switch {
		case f == nil:
			s.skip()
		case f.want == wantFallback:
			s.fail(jFallback)
			return
		default:
			if vals[f.slot].kind != jAbsent {
				s.fail(jFallback) // given twice: encoding/json's last-one-wins, and merging, are its business
				return
			}
			s.value(f, vals)
		}
		if s.status != jOK {
			return
		}
		s.ws()
		if s.i >= len(s.b) {
			s.fail(jInvalid)
			return
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.ws()
		case '}':
			s.i++
			s.depth--
			return
		default:
			s.fail(jInvalid)
			return
		}
	}
}

// wantFallback marks a key the fast path must not decide (see matchField).
const wantFallback jwant = 255

var fallbackField = &jfield{want: wantFallback}

// matchField finds the field a key stands for: nil for none, or
// fallbackField when encoding/json might match it to a field in a way
// this does not (a key holding an escape or a byte >= 0x80, or one that
// is equal to a field's name only case-insensitively).
func matchField(fields []jfield, key []byte, unusual bool) *jfield {
	if unusual {
		return fallbackField
	}
	for i := range fields {
		if string(key) == fields[i].name {
			return &fields[i]
		}
	}
	upper := false
	for _, c := range key {
		if 'A' <= c && c <= 'Z' {
			upper = true
			break
		}
	}
	if upper {
		for i := range fields {
			if foldEqualASCII(key, fields[i].name) {
				return fallbackField
			}
		}
	}
	return nil
}

// foldEqualASCII reports whether an ASCII key equals a lowercase ASCII
// name but for case. (Keys with other bytes never get here: the Unicode
// folds encoding/json also applies, such as U+017F to S and U+212A to K,
// are left to it.)
func foldEqualASCII(key []byte, name string) bool {
	if len(key) != len(name) {
		return false
	}
	for i, c := range key {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != name[i] {
			return false
		}
	}
	return true
}

// value reads the value of a wanted field.
func (s *jscan) value(f *jfield, vals []jval) {
	if s.i >= len(s.b) {
		s.fail(jInvalid)
		return
	}
	start := s.i
	v := &vals[f.slot]
	c := s.b[s.i]
	switch {
	case c == '"':
		raw, esc, high := s.str()
		*v = jval{raw: raw, kind: jString, esc: esc, high: high}
	case c == '{':
		if f.want == wantObject {
			s.object(f.child, vals)
		} else {
			s.skip()
		}
		*v = jval{raw: s.b[start:s.i], kind: jObject}
	case c == '[':
		if f.want == wantArray {
			s.array(f.child, vals)
		} else {
			s.skipArray()
		}
		*v = jval{raw: s.b[start:s.i], kind: jArray}
	case c == 'n':
		s.literal("null")
		*v = jval{raw: s.b[start:s.i], kind: jNull}
	case c == 't':
		s.literal("true")
		*v = jval{raw: s.b[start:s.i], kind: jTrue}
	case c == 'f':
		s.literal("false")
		*v = jval{raw: s.b[start:s.i], kind: jFalse}
	default:
		s.number()
		*v = jval{raw: s.b[start:s.i], kind: jNumber}
	}
	if s.status != jOK {
		return
	}
	if f.want == wantRaw {
		v.raw = s.b[start:s.i] // a json.RawMessage is the whole value
	}
	if !fits(f.want, v) {
		s.fail(jFallback) // encoding/json reports a type error: it decides what that means
	}
}

// fits reports whether encoding/json stores v in a field of kind want
// without an error.
func fits(want jwant, v *jval) bool {
	if v.kind == jNull {
		return true
	}
	switch want {
	case wantString:
		return v.kind == jString
	case wantBool:
		return v.kind == jTrue || v.kind == jFalse
	case wantInt:
		_, ok := parseInt64(v)
		return ok
	case wantObject:
		return v.kind == jObject
	case wantArray:
		return v.kind == jArray
	}
	return true // wantRaw
}

// array reads an array whose elements are decoded with fields: objects or
// nulls. The elements' fields are checked here; callers that want them
// read the array again with each (see eachElement).
func (s *jscan) array(fields []jfield, vals []jval) {
	if s.depth++; s.depth > maxJSONDepth {
		s.fail(jFallback)
		return
	}
	s.i++ // [
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		s.depth--
		return
	}
	for s.status == jOK {
		if s.i >= len(s.b) {
			s.fail(jInvalid)
			return
		}
		switch s.b[s.i] {
		case '{':
			clearSlots(fields, vals)
			s.object(fields, vals)
		case 'n':
			s.literal("null")
		default:
			s.skip()
			s.fail(jFallback) // an element encoding/json cannot store in a struct
		}
		if s.status != jOK {
			return
		}
		s.ws()
		if s.i >= len(s.b) {
			s.fail(jInvalid)
			return
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.ws()
		case ']':
			s.i++
			s.depth--
			return
		default:
			s.fail(jInvalid)
			return
		}
	}
}

// clearSlots resets the slots of fields and their children.
func clearSlots(fields []jfield, vals []jval) {
	for _, f := range fields {
		vals[f.slot] = jval{}
		clearSlots(f.child, vals)
	}
}

// eachElement calls fn with the fields of each object element of an
// array that decodeFast has read (so it is valid and of the right shape),
// and with cleared slots for a null element, as encoding/json leaves a
// zero struct for it.
func eachElement(arr jval, fields []jfield, vals []jval, fn func()) {
	if arr.kind != jArray {
		return
	}
	s := jscan{b: arr.raw, i: 1}
	for {
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] == ']' {
			return
		}
		clearSlots(fields, vals)
		if s.b[s.i] == '{' {
			s.object(fields, vals)
		} else {
			s.literal("null")
		}
		if s.status != jOK {
			return // cannot happen: decodeFast read the same bytes
		}
		fn()
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == ',' {
			s.i++
		}
	}
}

// skip reads any value, checking that it is valid JSON.
func (s *jscan) skip() {
	if s.i >= len(s.b) {
		s.fail(jInvalid)
		return
	}
	switch s.b[s.i] {
	case '"':
		s.str()
	case '{':
		s.object(nil, nil)
	case '[':
		s.skipArray()
	case 'n':
		s.literal("null")
	case 't':
		s.literal("true")
	case 'f':
		s.literal("false")
	default:
		s.number()
	}
}

// skipArray reads any array, checking that it is valid JSON.
func (s *jscan) skipArray() {
	if s.depth++; s.depth > maxJSONDepth {
		s.fail(jFallback)
		return
	}
	s.i++ // [
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		s.depth--
		return
	}
	for s.status == jOK {
		s.skip()
		if s.status != jOK {
			return
		}
		s.ws()
		if s.i >= len(s.b) {
			s.fail(jInvalid)
			return
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.ws()
		case ']':
			s.i++
			s.depth--
			return
		default:
			s.fail(jInvalid)
			return
		}
	}
}

func (s *jscan) literal(lit string) {
	if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
		s.fail(jInvalid)
		return
	}
	s.i += len(lit)
}

// number reads a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *jscan) number() {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i++; i < len(b) && isDigit(b[i]); i++ {
		}
	default:
		s.fail(jInvalid)
		return
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			s.fail(jInvalid)
			return
		}
		for ; i < len(b) && isDigit(b[i]); i++ {
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			s.fail(jInvalid)
			return
		}
		for ; i < len(b) && isDigit(b[i]); i++ {
		}
	}
	s.i = i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// parseInt64 reads a number value as encoding/json stores it in an int64:
// an integer literal in range (1.0 and 1e3 are type errors there).
func parseInt64(v *jval) (int64, bool) {
	if v.kind != jNumber {
		return 0, false
	}
	b := v.raw
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 { // 18 digits never overflow; longer ones are left to encoding/json
		return 0, false
	}
	var n int64
	for _, c := range b {
		if !isDigit(c) {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// str reads the string at s.i (a quote) and returns the bytes between the
// quotes, and whether they hold a backslash, and a byte >= 0x80. It
// checks the escapes and rejects control characters, as encoding/json's
// scanner does; it accepts any other byte (invalid UTF-8 is replaced on
// decoding).
func (s *jscan) str() (raw []byte, esc, high bool) {
	b := s.b
	start := s.i + 1
	i := start
	for {
		j, h := strSpan(b, i)
		high = high || h
		i = j
		if i >= len(b) {
			s.fail(jInvalid)
			return nil, false, false
		}
		switch c := b[i]; {
		case c == '"':
			s.i = i + 1
			return b[start:i], esc, high
		case c == '\\':
			esc = true
			if i+1 >= len(b) {
				s.fail(jInvalid)
				return nil, false, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(b)-i < 6 || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					s.fail(jInvalid)
					return nil, false, false
				}
				i += 6
			default:
				s.fail(jInvalid)
				return nil, false, false
			}
		default: // a control character
			s.fail(jInvalid)
			return nil, false, false
		}
	}
}

func isHex(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// strSpan returns the index of the first byte at or after i that ends a
// run of plain string content (a quote, a backslash or a control
// character; len(b) if there is none), and whether the run holds a byte
// >= 0x80. Eight bytes at a time, with a quick test first: a 1 MiB event
// is one string.
func strSpan(b []byte, i int) (int, bool) {
	var high uint64
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		q, bs := x^lsbs*'"', x^lsbs*'\\'
		if ((x-lsbs*0x20)&^x|(q-lsbs)&^q|(bs-lsbs)&^bs)&msbs != 0 {
			if m := ltMask(x, 0x20) | eqMask(x, '"') | eqMask(x, '\\'); m != 0 {
				k := bits.TrailingZeros64(m) / 8
				return i + k, (high|x&(1<<(8*k)-1))&msbs != 0
			}
		}
		high |= x
	}
	h := high&msbs != 0
	for ; i < len(b); i++ {
		c := b[i]
		if c == '"' || c == '\\' || c < 0x20 {
			return i, h
		}
		h = h || c >= utf8.RuneSelf
	}
	return i, h
}

// escSpan returns the index of the first backslash or byte >= 0x80 at
// or after i, or len(b).
func escSpan(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if m := x&msbs | eqMask(x, '\\'); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '\\' || c >= utf8.RuneSelf {
			return i
		}
	}
	return i
}

// appendString appends the decoded value of a string jval to dst, as
// encoding/json decodes it: escapes resolved, invalid UTF-8 and unpaired
// surrogates as U+FFFD.
func appendString(dst []byte, v jval) []byte {
	if !v.esc && (!v.high || utf8.Valid(v.raw)) {
		return append(room(dst, len(v.raw)), v.raw...)
	}
	dst = room(dst, len(v.raw)) // decoded, it is no longer (but for invalid UTF-8)
	s := v.raw
	for r := 0; r < len(s); {
		// Plain ASCII runs go in one copy.
		j := escSpan(s, r)
		dst = append(dst, s[r:j]...)
		r = j
		if r >= len(s) {
			break
		}
		if s[r] != '\\' {
			rr, size := utf8.DecodeRune(s[r:])
			dst = utf8.AppendRune(dst, rr) // RuneError for a bad byte, as encoding/json
			r += size
			continue
		}
		switch c := s[r+1]; c { // the scanner checked every escape
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			rr := hex4(s[r+2:])
			r += 6
			if utf16.IsSurrogate(rr) {
				if len(s)-r >= 6 && s[r] == '\\' && s[r+1] == 'u' {
					if dec := utf16.DecodeRune(rr, hex4(s[r+2:])); dec != unicode.ReplacementChar {
						dst = utf8.AppendRune(dst, dec)
						r += 6
						continue
					}
				}
				rr = unicode.ReplacementChar
			}
			dst = utf8.AppendRune(dst, rr)
			continue
		default: // " \ /
			dst = append(dst, c)
		}
		r += 2
	}
	return dst
}

// hex4 reads four hex digits the scanner has checked.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c <= '9':
			c -= '0'
		case c <= 'F':
			c -= 'A' - 10
		default:
			c -= 'a' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// strOf is a string jval decoded into a new string ("" when it is absent
// or null).
func strOf(v jval) string {
	if v.kind != jString {
		return ""
	}
	if !v.esc && !v.high {
		return string(v.raw)
	}
	return string(appendString(nil, v))
}

// isStr reports whether a string jval decodes to want, without decoding
// it when it has no escapes.
func isStr(v jval, want string) bool {
	if v.kind != jString {
		return false
	}
	if !v.esc && !v.high {
		return string(v.raw) == want
	}
	return strOf(v) == want
}
