package resume

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// Plan is what a resume will run, as a person checks it.
type Plan struct {
	Args   []string // the command it runs, as a person would type it (shown, never parsed)
	Dir    string   // where it runs
	Reads  []string
	Writes []string
	Runs   []string
	Stdin  int  // bytes of stdin the log recorded
	Signed bool // the log carries this user's signature
	// Left are what of the log the resume leaves out (an older log's
	// --config): the run goes on with the settings of whoever resumes it.
	Left []string
	// Path is how Show names a file or directory, as the run's printed
	// lines name them (the command line's: relative to where arena was
	// started when beneath it); nil: as it is.
	Path func(string) string
}

// Touches lists what the request reads, writes and runs, paths taken
// from dir, the directory it runs in.
func (p *Plan) Touches(r engine.ResumeRule, dir string, req engine.Request) {
	values := Values(req)
	at := func(path string) string {
		if path == "-" {
			return "stdin"
		}
		if !filepath.IsAbs(path) {
			return filepath.Join(dir, path)
		}
		return path
	}
	for _, name := range r.Reads {
		for _, v := range values[name] {
			p.Reads = append(p.Reads, at(v))
		}
	}
	for _, name := range r.Writes {
		for _, v := range values[name] {
			p.Writes = append(p.Writes, at(v))
		}
	}
	for name, what := range r.Runs {
		if v := values[name]; len(v) > 0 && v[0] == "true" {
			p.Runs = append(p.Runs, what)
		}
	}
}

// Show writes the plan for a person to read: the log, its run, what it
// runs and where, its seats (swap: a seat's or an agent's new agent),
// what it reads, writes and runs, and whether arena wrote the log here.
func (p Plan) Show(path string, start engine.DebateStarted, swap map[string]string) string {
	shown := func(paths ...string) string {
		if p.Path != nil {
			paths = slices.Clone(paths)
			for i, q := range paths {
				if q != "stdin" {
					paths[i] = p.Path(q)
				}
			}
		}
		return trust.Text(strings.Join(paths, ", "))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "arena resume %s\n", shown(path))
	fmt.Fprintf(&b, "  the run:    %s: %s\n", start.Protocol, engine.OneLine(trust.Text(start.Topic), 70))
	fmt.Fprintf(&b, "  runs:       arena %s\n", QuoteArgs(p.Args))
	fmt.Fprintf(&b, "  in:         %s\n", shown(p.Dir))
	fmt.Fprintf(&b, "  seats:      %s\n", trust.Text(strings.Join(seats(start, swap), ", ")))
	if len(p.Reads) > 0 {
		fmt.Fprintf(&b, "  reads:      %s (sent to the seats)\n", shown(p.Reads...))
	}
	if p.Stdin > 0 {
		fmt.Fprintf(&b, "  stdin:      %d bytes the log recorded\n", p.Stdin)
	}
	if len(p.Writes) > 0 {
		fmt.Fprintf(&b, "  writes to:  %s\n", shown(p.Writes...))
	}
	for _, r := range p.Runs {
		fmt.Fprintf(&b, "  runs:       %s\n", r)
	}
	for _, l := range p.Left {
		fmt.Fprintf(&b, "  left out:   %s\n", trust.Text(l))
	}
	if p.Signed {
		b.WriteString("  the log was written by arena on this machine (its signature holds)\n")
	} else {
		b.WriteString("  the log was NOT written by arena on this machine, or was changed since: check the above\n")
	}
	return b.String()
}

// seats are the run's seats with their agents, as the resume gives them.
func seats(start engine.DebateStarted, swap map[string]string) []string {
	var out []string
	for _, s := range start.Seats {
		agent := s.Agent
		if a, ok := swap[s.Name]; ok {
			agent = a + ", was " + s.Agent
		} else if a, ok := swap[s.Agent]; ok {
			agent = a + ", was " + s.Agent
		}
		out = append(out, s.Name+" ("+agent+")")
	}
	return out
}

// QuoteArgs writes a command line so that a person reads each argument
// as one: quoted where a shell would split or expand it, and cleaned.
func QuoteArgs(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\$`;&|<>*?()[]{}!#~") || strings.ContainsFunc(a, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			out[i] = strconv.Quote(a)
		}
	}
	return trust.Text(strings.Join(out, " "))
}
