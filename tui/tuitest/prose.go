package tuitest

import (
	"fmt"
	"strings"
)

// Prose is about n bytes of Markdown as a model writes it in a judge's
// analysis: paragraphs with bold and code spans, a list, a fenced code
// block, over and over. The screen's benchmarks stream it, in process
// (tui's BenchmarkPaceFrame) and through the fake CLIs (cmd/arena's
// BenchmarkFeel), so the two draw the same text.
func Prose(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		switch i % 4 {
		case 0, 2:
			fmt.Fprintf(&b, "**Point %d.** The outbox relay must deliver each event exactly once into Kafka, or consumers see duplicates; `partition %d` lags the others by minutes at peak, and the retry path re-reads the whole batch.\n\n", i, i%7)
		case 1:
			b.WriteString("- the write path holds the row lock while it publishes\n- a crash between the commit and the publish loses the event\n- idempotent consumers hide the duplicates, not the loss\n\n")
		case 3:
			b.WriteString("```go\nfor _, ev := range batch {\n\tif err := publish(ctx, ev); err != nil {\n\t\treturn fmt.Errorf(\"publish %s: %w\", ev.ID, err)\n\t}\n}\n```\n\n")
		}
	}
	return b.String()
}
