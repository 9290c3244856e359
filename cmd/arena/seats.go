package main

import (
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/settings"
)

// The command line's side of seating (challengers/seating): the settings
// as a picker's roster (engine.Setup's), and its warnings printed.

// roster is what the settings give a seating.Picker: the pool (the
// defender, then the challengers), every agent, and the config file's
// seats; exclude are the agents no pool seat goes to.
func roster(s *settings.Settings, exclude ...string) seating.Roster {
	return seating.Roster{Pool: s.Pool(), Agents: s.Agents, Config: s.Seats, Exclude: exclude}
}

// noteSeats warns of what the seating says, and keeps it for the dry run
// and the run's outcome.
func (a *app) noteSeats(notes ...string) {
	for _, n := range notes {
		a.warn("%s", n)
		a.seatNotes = append(a.seatNotes, n)
	}
}
