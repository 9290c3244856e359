package main

import (
	"errors"

	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine/inputs"
)

// Every file a person hands a command and stdin are read by
// engine/inputs; a mistake in them is a usage error, in its words.

// usageOf makes a mistake in what the person handed the run or asked of
// it (inputs.ErrInput), or a seat that cannot be filled as asked
// (seating.ErrSeat), a usage error, in the words it has.
func usageOf(err error) error {
	if errors.Is(err, inputs.ErrInput) || errors.Is(err, seating.ErrSeat) {
		return usageCause(err, "%s", err)
	}
	return err
}
