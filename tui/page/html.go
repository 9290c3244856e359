package page

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

//go:embed style.css
var css string

//go:embed page.html
var pageTemplates string

// Frame is what wraps a page: its title, its style, and what it may do.
type Frame struct {
	Title string
	CSS   template.CSS
	// CSP is the page's Content-Security-Policy: nothing but its own
	// style (by hash) and, when it has one, its own script (by hash).
	CSP string
	// Site draws the archive's links (arena serve).
	Site bool
	// Script is the page's one inline script (arena serve's live pages).
	Script template.JS
}

// hash is a CSP source for an inline element's text.
func hash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// NewFrame frames a page titled title. A page with a script (served
// only: an exported file has none) may open an event stream to itself;
// one served may send its own forms to itself.
func NewFrame(title string, served bool, script string) Frame {
	f := Frame{Title: trust.Text(title), CSS: template.CSS(css), Site: served} //nolint:gosec // our own style sheet
	csp := []string{"default-src 'none'", "style-src " + hash(css), "img-src 'none'", "base-uri 'none'"}
	if served {
		csp = append(csp, "form-action 'self'")
	} else {
		csp = append(csp, "form-action 'none'")
	}
	if script != "" {
		f.Script = template.JS(script) //nolint:gosec // our own script
		csp = append(csp, "script-src "+hash(script), "connect-src 'self'")
	}
	f.CSP = strings.Join(csp, "; ")
	return f
}

var templates = template.Must(template.New("page").Funcs(funcs).Parse(pageTemplates))

// Templates are the page's templates, for the pages of arena serve that
// wrap their own content in the same frame ("top", "bottom").
func Templates() *template.Template { return templates }

var funcs = template.FuncMap{
	"md":           Markdown,
	"display":      display,
	"firstLine":    func(s string) string { return engine.OneLine(s, 160) },
	"more":         func(s string) bool { return strings.Contains(strings.TrimSpace(s), "\n") || len(s) > 160 },
	"when":         when,
	"clock":        func(t time.Time) string { return t.UTC().Format("15:04:05 UTC") },
	"took":         func(a, b time.Time) string { return b.Sub(a).Round(time.Second).String() },
	"dur":          func(d engine.Duration) string { return d.D().Round(100 * time.Millisecond).String() },
	"dur1":         func(d time.Duration) string { return d.Round(100 * time.Millisecond).String() },
	"usage":        usage,
	"bytes":        byteCount,
	"times":        func(n int) string { return engine.Plural(n, "time") },
	"attempt":      func(n int) string { return map[bool]string{true: fmt.Sprintf(" (attempt %d)", n)}[n > 1] },
	"stance":       stanceClass,
	"level":        levelClass,
	"resultStance": resultStance,
	"result":       func(k engine.OutcomeKind) string { return strings.ReplaceAll(string(k), "_", " ") },
	"stopped":      stopped,
	"budget":       func(u engine.BudgetUsed) string { return u.Words() },
	"base":         filepath.Base,
	"inline":       Inline,
	"outline":      outline,
	"facts":        shownFacts,
	"clean":        trust.Text,
	"place":        findingPlace,
}

// Write renders run whole as one HTML file: no script, nothing fetched.
func Write(w io.Writer, run *Run) error {
	return WriteFramed(w, run, NewFrame(engine.OneLine(run.Topic, 80)+" · arena", false, ""), "")
}

// WriteFramed renders run in frame; live, when set, is where its page
// follows the run's events.
func WriteFramed(w io.Writer, run *Run, frame Frame, live string) error {
	return templates.ExecuteTemplate(w, "run", struct {
		Frame Frame
		Run   *Run
		Live  string
	}{frame, run, live})
}

// Fragment is the HTML of the part of run a change names.
func Fragment(w io.Writer, run *Run, c Change) error {
	switch c.Part {
	case PartHeader:
		return templates.ExecuteTemplate(w, "head", run)
	case PartPhase:
		return templates.ExecuteTemplate(w, "phase", c.Phase)
	case PartItem:
		return templates.ExecuteTemplate(w, "item", c.Item)
	case PartOutcome:
		return templates.ExecuteTemplate(w, "outcome", run)
	case PartLedger:
		return templates.ExecuteTemplate(w, "ledger", run)
	case PartCosts:
		return templates.ExecuteTemplate(w, "costs", run)
	}
	return fmt.Errorf("no part %d", c.Part)
}

// display is a reply's readable Markdown: its display, else its text.
func display(r engine.AgentFinished) string {
	if strings.TrimSpace(r.Display) != "" {
		return r.Display
	}
	return r.Text
}

func when(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// usage is what a reply's agent reported it cost: tokens and dollars.
func usage(r engine.AgentFinished) string {
	if r.Usage == nil {
		return ""
	}
	var acc engine.Usage
	acc.Add(r.Usage)
	s := acc.Tokens()
	if acc.Costed > 0 {
		s += " · " + engine.USD4(acc.CostUSD)
	}
	return s
}

func byteCount(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return engine.Plural(n, "byte")
}

// stanceClass is the class a stance is drawn with: one of the page's
// own, never a name a log chose.
func stanceClass(s engine.Stance) string {
	switch s {
	case engine.StanceAgree, engine.StancePartial, engine.StanceDisagree, engine.StanceNeutral:
		return string(s)
	}
	return ""
}

func levelClass(l string) string {
	switch l {
	case engine.NoteWarn, engine.NoteError:
		return l
	}
	return ""
}

func resultStance(r *Run) string {
	switch {
	case r.Outcome != nil && r.Outcome.Stance != "":
		return stanceClass(r.Outcome.Stance)
	case r.Outcome != nil:
		return "neutral"
	case r.Live:
		return "partial"
	}
	return "disagree"
}

// stopped says how a run that did not end can be carried on ("" for one
// that ended).
func stopped(r *Run) string {
	switch {
	case r.Live:
		return ""
	case r.Outcome == nil:
		return "The run stopped before its end (arena was killed, or the machine stopped). arena resume " + r.Log + " carries it on."
	case r.Outcome.Result.Resumable():
		return "The run was stopped (" + strings.ReplaceAll(string(r.Outcome.Result), "_", " ") + "). arena resume " + r.Log + " carries it on from where it stopped."
	}
	return ""
}
