package challengers

import "testing"

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
