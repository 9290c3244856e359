package layout

import (
	"testing"
)

// FuzzStreamCuts writes a reply to a Stream cut at fuzzer-chosen points
// (and the fuzzer may change the reply too), checking that nothing
// panics, that the completed blocks always open the rendering, that the
// final rendering equals Render, and that a valid reply never shows JSON
// punctuation on the way.
func FuzzStreamCuts(f *testing.F) {
	for i, sd := range seeds {
		f.Add(uint8(i), sd.text, []byte{3, 17, 1, 8})
	}
	f.Fuzz(func(t *testing.T, which uint8, text string, cuts []byte) {
		l := seeds[int(which)%len(seeds)].layout
		s, done := feedCuts(t, l, text, cuts)
		checkFinal(t, s, done, l, text)
	})
}
