package seating

import (
	"errors"
	"testing"

	"github.com/arenadebate/arena/challengers"
)

func TestQuorum(t *testing.T) {
	claude := challengers.Agent{Name: "claude", Command: []string{"claude"}}
	gemini := challengers.Agent{Name: "gemini", Command: []string{"gemini"}}
	agy := challengers.Agent{Name: "agy", Command: []string{"agy"}}
	codex := challengers.Agent{Name: "codex", Command: []string{"codex"}}
	routed := challengers.Agent{Name: "sonnet", API: "https://openrouter.ai/api/v1", Model: "anthropic/claude-sonnet-4.5"}
	for _, c := range []struct {
		name           string
		min            int
		seats, authors []challengers.Agent
		want           string // "" when it passes
	}{
		{"no minimum", 0, []challengers.Agent{claude, claude}, nil, ""},
		{"three families", 3, []challengers.Agent{claude, gemini, codex}, nil, ""},
		{"two families of three", 3, []challengers.Agent{claude, gemini, agy}, nil,
			"refused before any call: --min-families 3: the judges span 2 vendor families: anthropic (claude), google (gemini, agy); name judges of other families, or lower --min-families (min_families in the config)"},
		{"the author's family left out", 2, []challengers.Agent{routed, gemini, codex}, []challengers.Agent{claude}, ""},
		{"the author's family is not counted", 3, []challengers.Agent{routed, gemini, codex}, []challengers.Agent{claude},
			"refused before any call: --min-families 3: the judges span 2 vendor families once the author's family is left out (anthropic: sonnet): google (gemini), openai (codex); name judges of other families, or lower --min-families (min_families in the config)"},
		{"only the author's family", 0, []challengers.Agent{routed, claude}, []challengers.Agent{claude},
			"refused before any call: no judge of another family than the author's: the judges span 0 vendor families once the author's family is left out (anthropic: sonnet, claude): none; name one of another family"},
	} {
		err := Quorum(c.min, "judges", c.seats, c.authors)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || err.Error() != c.want || !errors.Is(err, ErrFamilies)):
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
	}
}
