package layout

import (
	"fmt"
	"strings"
	"testing"
)

// benchReply is a realistic reply of about n bytes: a fenced judge reply
// whose arrays grow with n, with escapes and non-ASCII text.
func benchReply(n int) string {
	var b strings.Builder
	b.WriteString("Here is my judgement.\n\n```json\n{\"scores\": [")
	for i := 0; b.Len() < n*3/4; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"criterion": "criterion %d", "option": "A", "score": %d, "justification": "It is cheaper \u2014 by \"30%%\" — and Zürich agrees; see run %d.", "more_convincing": "A"}`, i, i%5+1, i)
	}
	b.WriteString(`], "recommendation": "A", "conditions": [{"option": "B", "choose_if": ["risk is fine"]}], "open_questions": [`)
	for i := 0; b.Len() < n-40; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"question %d?"`, i)
	}
	b.WriteString("]}\n```\n")
	return b.String()
}

var sizes = []struct {
	name string
	n    int
}{{"1KiB", 1 << 10}, {"64KiB", 64 << 10}, {"1MiB", 1 << 20}}

// BenchmarkStream writes whole replies in 16-byte chunks. ns/byte stays
// flat as the reply grows: a chunk costs the same at the start of a reply
// as at the end of a 1 MiB one.
func BenchmarkStream(b *testing.B) {
	for _, sz := range sizes {
		text := []byte(benchReply(sz.n))
		b.Run(sz.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				s := NewStream(judgeLayout)
				for i := 0; i < len(text); i += 16 {
					s.Write(text[i:min(i+16, len(text))])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(text)), "ns/byte")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64((len(text)+15)/16), "ns/chunk")
		})
	}
}

// BenchmarkFrame is the Markdown of one frame (after a Write; the
// cache is dropped each time as a Write drops it), 90% into replies of
// each size. It costs the rendering of the field still in progress (here
// the open_questions list, a sixth of the reply) plus the copy of the
// finished prefix (the scores), whose rendering is kept.
func BenchmarkFrame(b *testing.B) {
	for _, sz := range sizes {
		text := benchReply(sz.n)
		b.Run(sz.name, func(b *testing.B) {
			s := NewStream(judgeLayout)
			s.WriteString(text[:len(text)*9/10])
			b.ReportAllocs()
			for b.Loop() {
				s.dirty = true
				s.Markdown()
			}
		})
	}
}

// BenchmarkFrameOpenString is the Markdown of one frame when the field in
// progress is a short string after every laid-out field has finished: only
// that string is rendered again; the rest is a copy.
func BenchmarkFrameOpenString(b *testing.B) {
	for _, sz := range sizes {
		text := benchReply(sz.n)
		text = text[:strings.LastIndex(text, "]}")] + `], "note": "an open string`
		b.Run(sz.name, func(b *testing.B) {
			s := NewStream(judgeLayout)
			s.WriteString(text)
			b.ReportAllocs()
			for b.Loop() {
				s.dirty = true
				s.Markdown()
			}
		})
	}
}

// BenchmarkMarkdownCached is a frame with nothing new: O(1).
func BenchmarkMarkdownCached(b *testing.B) {
	s := NewStream(judgeLayout)
	s.WriteString(benchReply(64 << 10))
	s.Markdown()
	for b.Loop() {
		s.Markdown()
	}
}
