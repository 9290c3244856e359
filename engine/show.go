package engine

import (
	"encoding/json"

	"github.com/arenadebate/arena/engine/layout"
)

// Show renders a parsed reply as readable Markdown with its shape's
// layout: the same rendering a front end builds from the reply's text
// while it streams (layout.Stream), so a pane reads the same before and
// after the reply completes.
func Show(v any, l layout.Layout) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return layout.Render(string(b), l)
}
