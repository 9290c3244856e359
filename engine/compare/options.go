package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
)

// CheckOptions wants two to four distinct options, and returns them
// cleaned of escape sequences and surrounding spaces.
func CheckOptions(options []string) ([]string, error) {
	var out []string
	for _, o := range options {
		// An option's name is shown on every screen and in every
		// document: no escape sequence of an argument's goes with it.
		o = strings.TrimSpace(trust.Text(o))
		if o == "" {
			return nil, fmt.Errorf("--option is empty")
		}
		if slices.ContainsFunc(out, func(x string) bool { return strings.EqualFold(x, o) }) {
			return nil, fmt.Errorf("--option %q is given twice", o)
		}
		out = append(out, o)
	}
	switch {
	case len(out) < 2:
		return nil, fmt.Errorf("compare needs at least two options, got %d: give each with --option", len(out))
	case len(out) > 4:
		return nil, fmt.Errorf("compare takes at most four options, got %d", len(out))
	}
	return out, nil
}
