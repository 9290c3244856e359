package main

import (
	"fmt"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/plain"
)

// showManifest is --dry-run: what each seat of p would receive, by name
// and size, and what was left out, printed instead of running it. No
// model is called, no log is written. With --json it is one JSON object,
// for scripts. notes are what the seating said that the command keeps
// apart from the seat notes (rank's).
func (a *app) showManifest(p engine.Protocol, asJSON bool, notes ...string) error {
	m := engine.ManifestOf(p)
	m.Notes = append(append(m.Notes, a.seatNotes...), notes...)
	if asJSON {
		b, err := trust.JSON(m)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(a.stdout, "%s\n", b)
		return err
	}
	if d, ok := a.protocolNamed(m.Protocol); ok {
		m.Protocol = d.Command // as a person types it: a debate, not an adversarial run
	}
	fmt.Fprint(a.stdout, plain.DryRun(m, a.stdout))
	return nil
}
