package tuitest

import (
	"fmt"
	"strings"
)

// Shapes are the five ways a model's reply streams that the screen's
// benchmarks measure (issue 30: the screen's cost per frame must not grow
// with the reply in any of them). Each is a reply as the model writes
// it, raw: JSON, its long field last, so that what streams for a minute
// is that field.
//
//	prose      Markdown prose in paragraphs, a list and a code block now
//	           and then (Prose), before any JSON: a judge's analysis
//	paragraph  one paragraph that never ends, in a JSON string
//	code       one fenced code block that never ends, in a JSON string
//	list       a list that grows an item a line (200 items), in a JSON
//	           string
//	broken     a reply that stopped being valid JSON (a quote left
//	           unescaped), so the rest of it is shown as text: a code
//	           block with its escapes, on one line
var Shapes = []string{"prose", "paragraph", "code", "list", "broken"}

// Shape is about n bytes of the reply in the named shape (see Shapes):
// ASCII, so a byte is a cell and every cut falls between characters.
func Shape(name string, n int) string {
	switch name {
	case "prose":
		return Prose(n)
	case "paragraph":
		return grow(`{"critique": "`, n, func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "The outbox relay must deliver event %d exactly once into Kafka, or consumers see duplicates; partition %d lags the others at peak, and the retry path re-reads the whole batch. ", i, i%7)
		})
	case "code":
		return grow(`{"critique": "The relay holds the row lock while it publishes:\n\n`+"```go"+`\n`, n, codeLine)
	case "list":
		return grow(`{"critique": "What breaks, in order:\n`, n, func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "- item %d: the write path holds the row lock while it publishes\\n", i)
		})
	case "broken":
		return grow(`{"critique": "The relay calls log.Printf("publish %s") and then:\n\n`+"```go"+`\n`, n, codeLine)
	}
	panic("tuitest: no shape " + name)
}

// codeLine is a line of Go in a JSON string: its newline, tab and quotes
// escaped, as a model writes code into JSON.
func codeLine(b *strings.Builder, i int) {
	switch i % 4 {
	case 0:
		fmt.Fprintf(b, "func relay%d(ctx context.Context, batch []Event) error {\\n", i)
	case 1:
		b.WriteString("\\tfor _, ev := range batch {\\n")
	case 2:
		b.WriteString("\\t\\tif err := publish(ctx, ev); err != nil { return fmt.Errorf(\\\"publish %s: %w\\\", ev.ID, err) }\\n")
	case 3:
		b.WriteString("\\t}\\n\\treturn nil\\n}\\n\\n")
	}
}

// grow writes head, then add's pieces until there are n bytes.
func grow(head string, n int, add func(b *strings.Builder, i int)) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; b.Len() < n; i++ {
		add(&b, i)
	}
	return b.String()
}
