package main

import (
	"regexp"
	"slices"
	"strings"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
)

// formatMarker starts the section of an arena prompt that shows the JSON
// shape wanted; its keys say what kind of answer the prompt asks for.
const formatMarker = "REQUIRED RESPONSE FORMAT"

// repairPhrase marks a prompt that asks again after an unparsable answer.
const repairPhrase = "could not be parsed"

// kindKeys maps a key of the wanted JSON to the kind of request, most
// specific first: a final-round shape also has keys that appear in other
// shapes, so order matters.
var kindKeys = []struct {
	key  string
	kind fakeapi.Kind
}{
	{"why_disagree", fakeapi.KindFinal},
	{"options", fakeapi.KindSynthesis},
	{"responses", fakeapi.KindAnswer},
	{"choice", fakeapi.KindRebuttal},
	{"verdict", fakeapi.KindCritique},
	{"position", fakeapi.KindOpening},
}

// detectKind classifies a prompt by the keys after the last format marker
// (earlier ones may be quoted from previous rounds).
func detectKind(prompt string) (kind fakeapi.Kind, repair bool) {
	repair = strings.Contains(prompt, repairPhrase)
	i := strings.LastIndex(prompt, formatMarker)
	if i < 0 {
		return fakeapi.KindOther, repair
	}
	tail := prompt[i:]
	for _, k := range kindKeys {
		if strings.Contains(tail, `"`+k.key+`"`) {
			return k.kind, repair
		}
	}
	return fakeapi.KindOther, repair
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
