package tui

import (
	"strings"
	"testing"

	"github.com/arenadebate/arena/tui/tuitest"
)

// The outcome's banner says the result once: "Consensus after 1 round"
// was followed by "· 1 round" (the header counts the rounds).
func TestOutcomeBannerSaysTheRoundsOnce(t *testing.T) {
	for _, protocol := range tuitest.Protocols() {
		h := newHarness(t, Options{}, tuitest.Run(protocol), 120, 40)
		banner := strings.Split(plain(h.view()), "\n")[2]
		if n := strings.Count(banner, " round"); n > 1 {
			t.Errorf("%s: the banner %q counts the rounds %d times", protocol, strings.TrimSpace(banner), n)
		}
	}
}
