// Package sarif renders a run's findings as SARIF 2.1.0, the format code
// review tools read (GitHub code scanning among them), and as the
// workflow commands that annotate a pull request's lines. It draws them
// from the outcome document (package doc): its findings section, each
// finding with its file and line where arena found the judges' quote,
// its criterion as the rule, its level, and the judges who raised it;
// the run's decision goes in the run's properties. It never reads the
// document's Markdown.
package sarif

import (
	"net/url"
	"strings"
	"unicode"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
)

// Version and SchemaURI are the SARIF version a log states, and where
// its schema is published (the OASIS standard's, errata 01).
const (
	Version   = "2.1.0"
	SchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)

// InformationURI is where arena is described, for a tool's driver.
const InformationURI = "https://github.com/arenadebate/arena"

// Log is a SARIF log: one run of arena.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one run of arena: the tool, what it found, and its decision.
type Run struct {
	Tool    Tool           `json:"tool"`
	Results []Result       `json:"results"`
	Props   map[string]any `json:"properties,omitempty"`
}

// Tool is arena, with the rules its findings name.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is arena itself.
type Driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	InformationURI string `json:"informationUri"`
	Rules          []Rule `json:"rules"`
}

// Rule is a criterion the judges found something on.
type Rule struct {
	ID               string  `json:"id"`
	ShortDescription Message `json:"shortDescription"`
	FullDescription  Message `json:"fullDescription"`
	Help             Message `json:"help"`
}

// Message is a SARIF message's text.
type Message struct {
	Text string `json:"text"`
}

// Result is one finding.
type Result struct {
	RuleID    string         `json:"ruleId"`
	RuleIndex int            `json:"ruleIndex"`
	Level     string         `json:"level"`
	Message   Message        `json:"message"`
	Locations []Location     `json:"locations,omitempty"`
	Props     map[string]any `json:"properties,omitempty"`
}

// Location is where a finding is: a file, and its line when arena found
// the quote there.
type Location struct {
	Physical Physical `json:"physicalLocation"`
}

// Physical is a file and a region of it.
type Physical struct {
	Artifact Artifact `json:"artifactLocation"`
	Region   *Region  `json:"region,omitempty"`
}

// Artifact is a file, as a relative URI reference.
type Artifact struct {
	URI string `json:"uri"`
}

// Region is the line a quote begins on, and the quote.
type Region struct {
	StartLine int      `json:"startLine"`
	Snippet   *Message `json:"snippet,omitempty"`
}

// Part is a findings section of an outcome's document: its heading
// ("Findings in alpha", one per repository of a ranking) and its
// findings.
type Part struct {
	Heading string
	Items   []doc.Finding
}

// Parts are the findings sections of an outcome's document
// (doc.SectionFindings), in order; none when it has none.
func Parts(o engine.Outcome) []Part {
	if o.Document == nil {
		return nil
	}
	var out []Part
	for _, s := range o.Document.Sections {
		if s.ID != doc.SectionFindings {
			continue
		}
		p := Part{Heading: oneLine(s.Heading)}
		for _, b := range s.Blocks {
			if b.Findings != nil {
				p.Items = append(p.Items, b.Findings.Items...)
			}
		}
		out = append(out, p)
	}
	return out
}

// Of is the SARIF log of an outcome, arena at version its tool. Every
// string from a model or a log is cleaned (trust.Text).
func Of(o engine.Outcome, version string) Log {
	run := Run{
		Tool:    Tool{Driver: Driver{Name: "arena", Version: trust.Text(version), InformationURI: InformationURI, Rules: []Rule{}}},
		Results: []Result{},
		Props:   decision(o),
	}
	rules := map[string]int{}
	parts := Parts(o)
	for _, p := range parts {
		for _, f := range p.Items {
			r := run.add(rules, f)
			if len(parts) > 1 {
				// Which repository of a ranking it is in.
				if r.Props == nil {
					r.Props = map[string]any{}
				}
				r.Props["part"] = p.Heading
			}
		}
	}
	return Log{Schema: SchemaURI, Version: Version, Runs: []Run{run}}
}

// add adds finding f to the run, and its rule when it is the first of
// its criterion; it returns the result.
func (run *Run) add(rules map[string]int, f doc.Finding) *Result {
	about := oneLine(f.About)
	if about == "" {
		about = "finding"
	}
	id := ruleID(about)
	i, ok := rules[id]
	if !ok {
		i = len(run.Tool.Driver.Rules)
		rules[id] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, Rule{ID: id, ShortDescription: Message{Text: about},
			FullDescription: Message{Text: "What arena's judges found on " + about + "."},
			Help:            Message{Text: "The judges' reasons are in the run's outcome document and its log (arena export LOG --html)."}})
	}
	run.Results = append(run.Results, result(f, id, i))
	return &run.Results[len(run.Results)-1]
}

// Placed is the log with only the results arena placed in a file: what
// GitHub code scanning takes (it refuses a whole file for one result
// without a location). How many it left out is in the run's properties
// ("unplaced"); they stay in the outcome document and the annotations.
func Placed(l Log) Log {
	out := l
	out.Runs = make([]Run, len(l.Runs))
	for i, r := range l.Runs {
		kept := []Result{}
		for _, res := range r.Results {
			if len(res.Locations) > 0 {
				kept = append(kept, res)
			}
		}
		props := map[string]any{}
		for k, v := range r.Props {
			props[k] = v
		}
		props["unplaced"] = len(r.Results) - len(kept)
		r.Results, r.Props = kept, props
		out.Runs[i] = r
	}
	return out
}

// decision is the run's properties: its decision, its summary, and the
// document's title and result.
func decision(o engine.Outcome) map[string]any {
	p := map[string]any{"decision": trust.Text(string(o.Result)), "summary": trust.Text(o.Summary)}
	if d := o.Document; d != nil {
		p["title"], p["result"] = trust.Text(d.Title), trust.Text(d.Result)
	}
	return p
}

func result(f doc.Finding, rule string, index int) Result {
	r := Result{RuleID: rule, RuleIndex: index, Level: level(f.Level), Message: Message{Text: MessageOf(f)}, Props: map[string]any{}}
	if len(f.By) > 0 {
		by := make([]string, len(f.By))
		for i, b := range f.By {
			by[i] = oneLine(b)
		}
		r.Props["judges"] = by
	}
	if f.Quote != "" {
		r.Props["quote"] = trust.Text(f.Quote)
	}
	if f.Flag != "" {
		r.Props["flag"] = oneLine(f.Flag)
	}
	if uri := fileURI(f.File); uri != "" {
		loc := Location{Physical: Physical{Artifact: Artifact{URI: uri}}}
		if f.Line > 0 {
			loc.Physical.Region = &Region{StartLine: f.Line}
			if f.Quote != "" {
				loc.Physical.Region.Snippet = &Message{Text: trust.Text(f.Quote)}
			}
		}
		r.Locations = []Location{loc}
	}
	if len(r.Props) == 0 {
		r.Props = nil
	}
	return r
}

// MessageOf is a finding in words: what is wrong or asked for, then the
// quote, then what arena flags; one line, cleaned.
func MessageOf(f doc.Finding) string {
	var parts []string
	if f.Issue != "" {
		parts = append(parts, oneLine(f.Issue))
	}
	if f.Quote != "" {
		parts = append(parts, "“"+oneLine(f.Quote)+"”")
	}
	if len(parts) == 0 {
		parts = append(parts, oneLine(f.About))
	}
	msg := strings.Join(parts, " — ")
	if f.Flag != "" {
		msg += " (arena: " + oneLine(f.Flag) + ")"
	}
	return msg
}

// level is a SARIF level: a finding's own, else warning.
func level(l string) string {
	switch l {
	case doc.LevelError, doc.LevelWarning, doc.LevelNote:
		return l
	}
	return doc.LevelWarning
}

// ruleID is a criterion as a rule's id: lower case, words joined by
// hyphens ("Code quality" is code-quality).
func ruleID(about string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(about) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	if b.Len() == 0 {
		return "finding"
	}
	return b.String()
}

// fileURI is a file's path as a relative URI reference ("" for none):
// each segment escaped, so a name with a colon or a space stays a path.
func fileURI(file string) string {
	file = filePath(file)
	if file == "" {
		return ""
	}
	segs := strings.Split(strings.TrimPrefix(file, "./"), "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(url.PathEscape(s), ":", "%3A")
	}
	return strings.Join(segs, "/")
}

// filePath is a finding's file as a place to show it at: cleaned, and
// none for a name no file in a repository has (a line break, a tab, a
// NUL: what a hand-edited log could hold).
func filePath(file string) string {
	file = strings.TrimSpace(trust.Text(file))
	if strings.ContainsAny(file, "\n\t\x00") {
		return ""
	}
	return file
}

// oneLine is cleaned text on one line, its white space collapsed.
func oneLine(s string) string { return strings.Join(strings.Fields(trust.Text(s)), " ") }
