package challengers

import (
	"math/rand/v2"
	"testing"
)

// A stream's flush returns what the decoder still held plus what the
// cleaner held back, both intact.
func TestTextStreamFlushKeepsBothHalves(t *testing.T) {
	s := newTextStream(FormatGeminiStreamJSON, DefaultOutputCap)
	got := string(s.feed([]byte(`{"type":"message","role":"assistant","content":"abc\r","delta":true}`)))
	got += string(s.flush())
	if got != "abc\n" {
		t.Fatalf("got %q", got)
	}
}

// eachSpanInput (a copy of engine/trust's, for jsonscan_test.go until
// jsonscan.go goes) calls fn with inputs for the word-at-a-time scans: every
// byte value at every position of a 20-byte run, with and without a byte
// >= 0x80 beside it, and random mixes of the bytes that matter.
func eachSpanInput(fn func([]byte)) {
	base := []byte("abcdefghijklmnopqrst")
	for c := range 256 {
		for pos := range 19 {
			p := append([]byte(nil), base...)
			p[pos] = byte(c)
			fn(p)
			p[pos+1] = 0xc3
			fn(p)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	special := []byte{'\n', '\t', '\r', 0, 0x1b, 0x7f, 0x80, 0xc2, 0xff, '"', '\\', ' ', 'a', 0x1f, 0x20}
	for range 20000 {
		p := make([]byte, r.IntN(40))
		for i := range p {
			if r.IntN(4) == 0 {
				p[i] = special[r.IntN(len(special))]
			} else {
				p[i] = 'a' + byte(r.IntN(26))
			}
		}
		fn(p)
	}
}
