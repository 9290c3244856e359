package plain

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// ConfigRow is one effective setting, as `arena config` shows it.
type ConfigRow struct {
	Key    string // "max_rounds", or "agents.NAME"
	Value  string // an agent's: its command, then "; "-separated details
	Source string
}

// ConfigFile is a file the settings were looked for in.
type ConfigFile struct {
	Path, What string
	Found      bool
}

// Config is `arena config`'s listing: the settings as a table, then each
// agent, then every file the settings were looked for in, read or not
// found. out is where it will be written: its terminal, if it is one,
// decides the colours.
func Config(rows []ConfigRow, files []ConfigFile, out io.Writer) string {
	r := lipgloss.NewRenderer(out)
	dim := r.NewStyle().Faint(true)
	t := newTable(r, "KEY", "VALUE", "SOURCE")
	var b strings.Builder
	var agents []ConfigRow
	for _, row := range rows {
		if strings.HasPrefix(row.Key, "agents.") {
			agents = append(agents, row)
			continue
		}
		t.Row(row.Key, row.Value, dim.Render(row.Source))
	}
	b.WriteString(t.Render() + "\n\n")
	b.WriteString(r.NewStyle().Bold(true).Render("AGENTS") + "\n")
	for _, row := range agents {
		parts := strings.Split(row.Value, "; ")
		fmt.Fprintf(&b, "%s  %s\n", strings.TrimPrefix(row.Key, "agents."), dim.Render(row.Source))
		fmt.Fprintf(&b, "    %s\n", parts[0])
		if len(parts) > 1 {
			fmt.Fprintf(&b, "    %s\n", dim.Render(strings.Join(parts[1:], " · ")))
		}
	}
	b.WriteString("\n" + r.NewStyle().Bold(true).Render("FILES") + "\n")
	found := false
	for _, f := range files {
		state := "not found"
		if f.Found {
			state, found = "read", true
		}
		fmt.Fprintf(&b, "%-9s  %s  %s\n", state, f.Path, dim.Render("("+f.What+")"))
	}
	if !found {
		b.WriteString(dim.Render("No settings file was found: these are the defaults (arena config init writes a commented one).") + "\n")
	}
	return b.String()
}
