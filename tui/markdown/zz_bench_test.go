package markdown

import (
	"testing"

	"github.com/muesli/termenv"
)

func BenchmarkRenderSmall(b *testing.B) {
	md := "- **Point 12** The outbox relay must be exactly-once into Kafka or consumers see duplicates; partition 5 lags behind."
	for _, o := range []Options{colour, {Profile: termenv.TrueColor}, {Profile: termenv.ANSI256}, plain} {
		r := New(o)
		b.Run(o.Text+"/"+map[termenv.Profile]string{termenv.TrueColor: "true", termenv.ANSI256: "256", termenv.Ascii: "ascii"}[o.Profile], func(b *testing.B) {
			for b.Loop() {
				r.Render(md, 56)
			}
		})
		b.Run("glamouronly", func(b *testing.B) {
			tr := r.at(56)
			for b.Loop() {
				tr.Render(md)
			}
		})
	}
}
