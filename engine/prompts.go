package engine

import (
	"embed"
	"strings"
	"text/template"
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = template.Must(template.New("").Funcs(template.FuncMap{
	"inc": func(i int) int { return i + 1 },
}).ParseFS(promptFS, "prompts/*.tmpl"))

// Doc is a file attached to the debate.
type Doc struct {
	Name    string
	Content string
}

// base is what every prompt knows.
type base struct {
	Topic     string
	Context   []Doc
	Defender  string
	MaxRounds int
	Round     int
}

type openingPrompt struct{ base }

type critiquePrompt struct {
	base
	Name    string
	Opening Opening
}

type critiqueBlock struct {
	Name     string
	Critique Critique
	Followup string // what the challenger said after the last answer, if anything
}

type answerPrompt struct {
	base
	Brief     bool
	Version   int
	Position  string
	Critiques []critiqueBlock
	Names     string
}

type rebuttalPrompt struct {
	base
	Name        string
	Critique    Critique
	Decision    string
	Explanation string
	Position    string
}

type finalOther struct{ Name, Position string }

type finalPrompt struct {
	base
	Name   string
	Mine   string
	Others []finalOther
}

type synthesisParty struct{ Name, Stance, Assumption string }

type synthesisPrompt struct {
	base
	Rounds   int
	Position string
	Parties  []synthesisParty
}

type repairPrompt struct {
	Error    string
	Excerpt  string
	Original string
}

// render executes a prompt template. The templates are part of the binary
// and their data is plain structs, so an error is a bug: panic loudly in
// tests rather than send a model half a prompt.
func render(name string, data any) string {
	var b strings.Builder
	if err := prompts.ExecuteTemplate(&b, name+".tmpl", data); err != nil {
		panic("prompt " + name + ": " + err.Error())
	}
	return strings.TrimSpace(b.String()) + "\n"
}

func repairFor(original, reply string, err error) string {
	excerpt := truncate(strings.TrimSpace(reply), 600)
	if excerpt == "" {
		excerpt = "(nothing)"
	}
	return render("repair", repairPrompt{Error: err.Error(), Excerpt: excerpt, Original: strings.TrimSpace(original)})
}
