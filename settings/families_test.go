package settings

import (
	"strings"
	"testing"
)

// min_families out of range is refused where it was set, by file line or
// flag.
func TestMinFamiliesErrors(t *testing.T) {
	for _, c := range []struct {
		config string
		flags  Flags
		want   string
	}{
		{config: "\nmin_families: -1\n", want: `<config>:2: min_families: must be from 0 (no minimum) to 12, got -1`},
		{config: "min_families: three\n", want: `<config>:1: min_families: "three" is not a whole number`},
		{flags: Flags{MinFamilies: ptr(40)}, want: `flag --min-families: must be from 0 (no minimum) to 12, got 40`},
	} {
		e := newTestEnv(t)
		if c.config != "" {
			e.write(e.configPath(), c.config)
		}
		err := e.loadErr(c.flags)
		if got := strings.ReplaceAll(err.Error(), e.configPath(), "<config>"); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}
