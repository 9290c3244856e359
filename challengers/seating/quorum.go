package seating

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/arenadebate/arena/challengers"
)

// ErrFamilies marks a run whose deciding seats span fewer vendor families
// than asked (--min-families), or only the author's: refused before any
// call, with an exit code of its own. Match it with errors.Is; the error's
// text names the families.
var ErrFamilies = errors.New("too few vendor families")

type familiesError struct{ msg string }

func (e familiesError) Error() string        { return e.msg }
func (e familiesError) Is(target error) bool { return target == ErrFamilies }

// Quorum checks that seats, the agents that decide a run (a panel's
// judges, a debate's seats; what names them, "judges"), span at least
// min vendor families once every agent of the authors' families is kept
// out. With an author, one family besides the author's is the least: a
// panel of the author's family alone judges its own work. Vendors' models
// share their training and pick the same wrong answer when both err (Kim
// et al., ICML 2025); a jury of several families does better than one
// large judge (Verga et al., 2024).
func Quorum(min int, what string, seats, authors []challengers.Agent) error {
	out := map[string]bool{}
	var outNames []string
	for _, a := range authors {
		f := challengers.Family(a)
		if !out[f] {
			out[f] = true
			outNames = append(outNames, f)
		}
	}
	var fams []string
	members := map[string][]string{}
	var kin []string
	for _, a := range seats {
		f := challengers.Family(a)
		switch {
		case out[f]:
			if !slices.Contains(kin, a.Name) {
				kin = append(kin, a.Name)
			}
		case !slices.Contains(members[f], a.Name):
			if members[f] == nil {
				fams = append(fams, f)
			}
			members[f] = append(members[f], a.Name)
		}
	}
	need := min
	if len(authors) > 0 {
		need = max(need, 1)
	}
	if len(fams) >= need {
		return nil
	}
	var named []string
	for _, f := range fams {
		named = append(named, fmt.Sprintf("%s (%s)", f, strings.Join(members[f], ", ")))
	}
	left := "none"
	if len(named) > 0 {
		left = strings.Join(named, ", ")
	}
	msg := fmt.Sprintf("the %s span %d vendor families", what, len(fams))
	if len(fams) == 1 {
		msg = fmt.Sprintf("the %s span 1 vendor family", what)
	}
	if len(outNames) > 0 {
		fam := strings.Join(outNames, ", ")
		if len(kin) > 0 {
			fam += ": " + strings.Join(kin, ", ")
		}
		msg += fmt.Sprintf(" once the author's family is left out (%s)", fam)
	}
	msg += ": " + left
	switch {
	case min > len(fams):
		msg = fmt.Sprintf("--min-families %d: %s; name %s of other families, or lower --min-families (min_families in the config)", min, msg, what)
	default:
		msg = fmt.Sprintf("no judge of another family than the author's: %s; name one of another family", msg)
	}
	return familiesError{msg: "refused before any call: " + msg}
}
