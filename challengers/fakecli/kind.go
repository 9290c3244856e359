package main

import (
	"regexp"
	"slices"
	"strings"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
	"github.com/arenadebate/arena/challengers/shape"
)

// formatMarker starts the section of an arena prompt that shows the JSON
// shape wanted; quoted critiques are looked for before it.
const formatMarker = "REQUIRED RESPONSE FORMAT"

// detectKind reads the reply shape the prompt names, as arena's engine
// tags it (package shape): the fakes and the engine's scripted tests
// recognise a request by the same means.
func detectKind(prompt string) (kind fakeapi.Kind, repair bool) {
	k := shape.Of(prompt)
	if k == "" {
		return fakeapi.KindOther, shape.IsRepair(prompt)
	}
	return fakeapi.Kind(k), shape.IsRepair(prompt)
}

// critiqueFrom finds "CRITIQUE FROM gemini" headings, whatever decoration
// surrounds them ("=== CRITIQUE FROM gemini ===", "## Critique from
// **qwen**:").
var critiqueFrom = regexp.MustCompile(`(?im)^[^\w\n]*critique\s+from\s+[^\w\n]*(\w[\w.-]*)`)

// challengers lists, in order and once each, the names of the agents whose
// critiques a prompt quotes, looking only before the format section.
func challengers(prompt string) []string {
	if i := strings.LastIndex(prompt, formatMarker); i >= 0 {
		prompt = prompt[:i]
	}
	var names []string
	for _, m := range critiqueFrom.FindAllStringSubmatch(prompt, -1) {
		n := strings.TrimRight(m[1], ".-")
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}
