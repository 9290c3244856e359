package main

import (
	"slices"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/settings"
)

// The command line's side of seating (challengers/seating): the settings
// as a picker's roster, its errors as usage errors, its warnings printed.

// roster is what the settings give a seating.Picker: the pool (the
// defender, then the challengers), every agent, and the config file's
// seats; exclude are the agents no pool seat goes to.
func roster(s *settings.Settings, exclude ...string) seating.Roster {
	return seating.Roster{Pool: s.Pool(), Agents: s.Agents, Config: s.Seats, Exclude: exclude}
}

func seatPicker(s *settings.Settings, plan seating.Plan, exclude ...string) *seating.Picker {
	return seating.New(plan, roster(s, exclude...))
}

// pickSeats seats the wants; a seat that cannot be filled as asked is the
// person's to fix: a usage error, in the picker's words.
func pickSeats(p *seating.Picker, wants ...seating.Want) ([][]challengers.Agent, error) {
	got, err := p.Pick(wants...)
	return got, usageOf(err)
}

// warnShared warns of each agent, and each vendor family, holding
// several seats, and says what the author's family did to the seating.
func (a *app) warnShared(p *seating.Picker) {
	a.noteSeats(slices.Concat(p.Shared(), p.SameFamily(), p.Notes())...)
}

// noteSeats warns of what the seating says, and keeps it for the dry run
// and the run's outcome.
func (a *app) noteSeats(notes ...string) {
	for _, n := range notes {
		a.warn("%s", n)
		a.seatNotes = append(a.seatNotes, n)
	}
}
