package plain

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// DryRun is --dry-run's account of a run: what each seat would receive,
// by name and size, and what was left out. Every word from outside (a
// file's name, a note) is cleaned. out is where it will be written: its
// terminal, if it is one, decides the colours.
func DryRun(m engine.Manifest, out io.Writer) string {
	var b strings.Builder
	b.WriteString(trust.Text(fmt.Sprintf("Dry run of %s run: no model is called, nothing is saved. Each seat would receive:\n\n", withArticle(m.Protocol))))
	t := newTable(lipgloss.NewRenderer(out), "SEAT", "AGENT", "FAMILY", "RECEIVES", "BYTES")
	var total int64
	for _, s := range m.Seats {
		t.Row(s.Seat, s.Agent, engine.OrDash(s.Family), received(s), trust.Size(s.Bytes()))
		total += s.Bytes()
	}
	b.WriteString(t.Render() + "\n")
	b.WriteString(trust.Text(fmt.Sprintf("\nIn all %s to %s, each seat's to its agent's model vendor.\n", trust.Size(total), engine.Plural(len(m.Seats), "seat"))))
	if len(m.LeftOut) > 0 {
		b.WriteString("\nNot sent:\n")
		for _, l := range m.LeftOut {
			b.WriteString(trust.Text(fmt.Sprintf("  - %s\n", l)))
		}
	}
	for _, n := range m.Notes {
		b.WriteString(trust.Text(fmt.Sprintf("\n%s\n", n)))
	}
	return b.String()
}

// received is what a seat would receive, in a cell.
func received(s engine.ManifestSeat) string {
	var parts []string
	for _, in := range s.Inputs {
		size := trust.Size(in.Bytes)
		if in.Files > 0 {
			size = engine.Plural(in.Files, "file") + ", " + size
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", in.Name, size))
	}
	if len(parts) == 0 {
		return "only what the run makes"
	}
	return strings.Join(parts, " · ")
}
