package engine

import (
	"embed"
	"io/fs"
	"strings"
	"text/template"

	"github.com/arenadebate/arena/challengers/shape"
	"github.com/arenadebate/arena/challengers/trust"
)

// The prompts every protocol shares: the topic with its context files,
// the response-format heading, and the repair request. A protocol parses
// its own templates on top of them (NewPrompts).

//go:embed prompts/*.tmpl
var sharedFS embed.FS

var funcs = template.FuncMap{
	"inc":        func(i int) int { return i + 1 },
	"repairLead": func() string { return shape.RepairLead },
	// fence puts material under evaluation between markers it cannot
	// forge; every prompt that carries some states fenceRule once.
	"fence":     trust.Fence,
	"fenceRule": func() string { return trust.FenceRule },
}

var shared = template.Must(template.New("").Funcs(funcs).ParseFS(sharedFS, "prompts/*.tmpl"))

// Doc is a file attached to the debate.
type Doc struct {
	Name    string
	Content string
}

// Prompts is a protocol's prompt templates, with the shared ones.
type Prompts struct{ t *template.Template }

// NewPrompts parses a protocol's templates (pattern in fsys) on top of the
// shared ones. The templates are part of the binary: an error is a bug,
// and panics at start.
func NewPrompts(fsys fs.FS, pattern string) *Prompts {
	t := template.Must(shared.Clone())
	return &Prompts{t: template.Must(t.ParseFS(fsys, pattern))}
}

// Render executes template name+".tmpl" and ends the prompt with the tag
// naming its reply shape. Its data is plain structs, so an error is a
// bug: panic loudly in tests rather than send a model half a prompt.
func (p *Prompts) Render(name, replyShape string, data any) string {
	var b strings.Builder
	if err := p.t.ExecuteTemplate(&b, name+".tmpl", data); err != nil {
		panic("prompt " + name + ": " + err.Error())
	}
	out := strings.TrimSpace(b.String()) + "\n"
	if replyShape != "" {
		out += "\n" + shape.Tag(replyShape) + "\n"
	}
	return out
}

type repairPrompt struct {
	Error    string
	Excerpt  string
	Original string
}

// RepairFor is the request sent when a reply could not be used: what was
// wrong, how the reply began, and the original request again.
func RepairFor(original, reply string, err error) string {
	excerpt := Truncate(strings.TrimSpace(reply), 600)
	if excerpt == "" {
		excerpt = "(nothing)"
	}
	var b strings.Builder
	if err := shared.ExecuteTemplate(&b, "repair.tmpl", repairPrompt{Error: err.Error(), Excerpt: excerpt, Original: strings.TrimSpace(original)}); err != nil {
		panic("prompt repair: " + err.Error())
	}
	return strings.TrimSpace(b.String()) + "\n"
}
