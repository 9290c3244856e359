package main

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// showManifest is --dry-run: what each seat of p would receive, by name
// and size, and what was left out, printed instead of running it. No
// model is called, no log is written. With --json it is one JSON object,
// for scripts.
func (a *app) showManifest(p engine.Protocol, asJSON bool) error {
	m := engine.ManifestOf(p)
	if asJSON {
		b, err := trust.JSON(m)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(a.stdout, "%s\n", b)
		return err
	}
	w := trust.Writer{W: a.stdout}
	fmt.Fprintf(w, "Dry run of a %s run: no model is called, nothing is saved. Each seat would receive:\n\n", m.Protocol)
	t := newTable(lipgloss.NewRenderer(a.stdout), "SEAT", "AGENT", "RECEIVES", "BYTES")
	var total int64
	for _, s := range m.Seats {
		var parts []string
		for _, in := range s.Inputs {
			size := trust.Size(in.Bytes)
			if in.Files > 0 {
				size = engine.Plural(in.Files, "file") + ", " + size
			}
			parts = append(parts, fmt.Sprintf("%s (%s)", in.Name, size))
		}
		received := strings.Join(parts, " · ")
		if received == "" {
			received = "only what the run makes"
		}
		t.Row(s.Seat, s.Agent, received, trust.Size(s.Bytes()))
		total += s.Bytes()
	}
	fmt.Fprintln(a.stdout, t.Render())
	fmt.Fprintf(w, "\nIn all %s to %s, each seat's to its agent's model vendor.\n", trust.Size(total), engine.Plural(len(m.Seats), "seat"))
	if len(m.LeftOut) > 0 {
		fmt.Fprintf(w, "\nNot sent:\n")
		for _, l := range m.LeftOut {
			fmt.Fprintf(w, "  - %s\n", l)
		}
	}
	for _, n := range m.Notes {
		fmt.Fprintf(w, "\n%s\n", n)
	}
	return nil
}
