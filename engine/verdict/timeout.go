package verdict

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Timeouts are each seat's default timeout per call: the quick judge
// screens, the deep judge reasons.
var Timeouts = map[Mode]time.Duration{
	Quick: 30 * time.Second, Deep: 60 * time.Second, Tiebreaker: 45 * time.Second,
}

// ParseSeatTimeout reads a seat's timeout: a duration ("30s", "2m") or a
// whole number of seconds, more than zero.
func ParseSeatTimeout(v string) (time.Duration, error) {
	t := strings.TrimSpace(v)
	d, err := time.ParseDuration(t)
	if err != nil {
		secs, serr := strconv.Atoi(t)
		if serr != nil {
			return 0, fmt.Errorf("%q is not a duration (use 30s, 2m, or a number of seconds)", v)
		}
		d = time.Duration(secs) * time.Second
	}
	if d <= 0 {
		return 0, fmt.Errorf("must be more than 0, got %q", v)
	}
	return d, nil
}
