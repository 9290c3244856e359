package settings

import (
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"
)

// The panel's vendor quorum: min_families in arena's config file,
// --min-families on the command line. A run whose deciding seats (a
// panel's judges, a debate's seats) span fewer vendor families, once the
// author's are kept out, is refused before any call (0: no minimum).

const keyMinFamilies = "min_families"

// MaxMinFamilies bounds min_families: arena knows about a dozen vendor
// families, and a larger number is surely a typo.
const MaxMinFamilies = 12

func init() {
	arenaKeys[keyMinFamilies] = setter(minFamiliesValue, func(s *Settings) *int { return &s.MinFamilies })
}

func minFamiliesValue(_ *loader, n *yaml.Node) (int, error) {
	v, err := intValue(n)
	if err != nil {
		return 0, err
	}
	return v, checkMinFamilies(v)
}

func checkMinFamilies(v int) error {
	if v < 0 || v > MaxMinFamilies {
		return fmt.Errorf("must be from 0 (no minimum) to %d, got %d", MaxMinFamilies, v)
	}
	return nil
}

// minFamiliesFlag applies --min-families.
func (l *loader) minFamiliesFlag() error {
	p := l.flags.MinFamilies
	if p == nil {
		return nil
	}
	o := flagOrigin("min-families")
	if err := checkMinFamilies(*p); err != nil {
		return o.err(keyMinFamilies, err.Error(), err)
	}
	l.s.MinFamilies, l.s.src[keyMinFamilies] = *p, o
	return nil
}

// minFamiliesRow is arena config's row of the quorum.
func (s *Settings) minFamiliesRow() Row {
	v := strconv.Itoa(s.MinFamilies)
	if s.MinFamilies == 0 {
		v = "0 (no minimum)"
	}
	return Row{keyMinFamilies, v, s.Source(keyMinFamilies)}
}
