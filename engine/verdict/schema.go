package verdict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	reflector "github.com/invopop/jsonschema"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/arenadebate/arena/engine"
)

// The verdict log's JSON Schema is generated from the structs the log is
// written from (Record, Final, Scores) by invopop/jsonschema, with the
// enumerations and ranges taken from the package's own constants, and
// every line is validated against it by santhosh-tekuri/jsonschema: the
// schema cannot drift from what arena writes.

const schemaID = "https://github.com/arenadebate/arena/engine/verdict/schema.json"

// The range of a score, and the most judges a run asks.
const (
	minScore = 1
	maxScore = 5
	maxCalls = 3 // quick, deep, tiebreaker
)

// finalVerdicts are the decisions a final record can hold: a judge's
// verdicts, escalate, and the two ways a run ends without a decision.
var finalVerdicts = []string{
	string(Accept), string(Improve), string(Reject), string(Escalate),
	string(engine.OutcomeAborted), string(engine.OutcomeInterrupted),
}

// judgeModes are the modes of a judge's record.
var judgeModes = []Mode{Quick, Deep, Tiebreaker}

// JSONSchemaExtend sets what the struct tags cannot say: the verdicts and
// modes allowed, from their constants.
func (Record) JSONSchemaExtend(s *reflector.Schema) {
	s.Title = "judge verdict"
	prop(s, "mode").Enum = anys(judgeModes)
	prop(s, "verdict").Enum = anys(judgeVerdicts)
	prop(s, "stated_verdict").Enum = anys(judgeVerdicts)
	avg := prop(s, "average")
	avg.Minimum, avg.Maximum = json.Number(fmt.Sprint(minScore)), json.Number(fmt.Sprint(maxScore))
}

// JSONSchemaExtend: a final record's mode is "final", its verdict one of
// finalVerdicts.
func (Final) JSONSchemaExtend(s *reflector.Schema) {
	s.Title = "final decision"
	prop(s, "mode").Const = ModeFinal
	prop(s, "verdict").Enum = anys(finalVerdicts)
	calls := prop(s, "calls")
	calls.Minimum, calls.Maximum = "0", json.Number(fmt.Sprint(maxCalls))
}

// JSONSchemaExtend: each score is a whole number in the rubric's range.
func (Scores) JSONSchemaExtend(s *reflector.Schema) {
	for _, k := range []string{"semantic", "pragmatic", "syntactic"} {
		p := prop(s, k)
		p.Minimum, p.Maximum = json.Number(fmt.Sprint(minScore)), json.Number(fmt.Sprint(maxScore))
	}
}

// prop is property name of an object schema; it panics if there is none,
// which the tests catch: the struct lost or renamed a field.
func prop(s *reflector.Schema, name string) *reflector.Schema {
	p, ok := s.Properties.Get(name)
	if !ok {
		panic("verdict schema: no property " + name)
	}
	return p
}

func anys[T ~string](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}

// generate builds the schema document: one of the two record kinds.
func generate() []byte {
	r := &reflector.Reflector{DoNotReference: true, ExpandedStruct: true, Anonymous: true}
	kind := func(v any) *reflector.Schema {
		s := r.Reflect(v)
		s.Version = "" // stated once, at the top
		return s
	}
	doc := &reflector.Schema{
		Version: reflector.Version,
		ID:      schemaID,
		Title:   "arena verdict log record",
		Description: "One line of an arena verdict log (JSON Lines): a judge's verdict (mode quick, deep or tiebreaker), " +
			"or the run's final decision (mode final). The verdict of a judge's record is arena's, computed from the scores: " +
			"accept when every score is at least 3 and the average at least 3.5, reject when any score is below 2, improve otherwise.",
		OneOf: []*reflector.Schema{kind(&Record{}), kind(&Final{})},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic("verdict schema: " + err.Error())
	}
	return append(b, '\n')
}

var compiled = sync.OnceValues(func() ([]byte, *jsonschema.Schema) {
	doc := generate()
	sch, err := compile(doc)
	if err != nil {
		panic("verdict schema: " + err.Error())
	}
	return doc, sch
})

// Schema returns the verdict record's JSON Schema, as arena verdict
// --schema prints it.
func Schema() []byte { doc, _ := compiled(); return bytes.Clone(doc) }

// compile compiles a schema document, with formats asserted (a timestamp
// must be an RFC 3339 date-time, not merely a string).
func compile(doc []byte) (*jsonschema.Schema, error) {
	v, err := decode(doc)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("schema.json", v); err != nil {
		return nil, err
	}
	return c.Compile("schema.json")
}

// decode reads exactly one JSON value, numbers kept exact.
func decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// ValidateRecord checks one line of a verdict log against the schema.
func ValidateRecord(line []byte) error {
	v, err := decode(line)
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	_, sch := compiled()
	return explain(sch.Validate(v), v)
}

// Validate checks a decoded JSON value (numbers as json.Number) against a
// JSON Schema document, decoded the same way: what a test does with the
// schema arena verdict --schema printed.
func Validate(schema map[string]any, v any) error {
	doc, err := json.Marshal(schema)
	if err != nil {
		return err
	}
	sch, err := compile(doc)
	if err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	return explain(sch.Validate(v), v)
}

// explain turns a validation error into one line naming each place that
// is wrong. A record matches neither kind of oneOf: it says only what is
// wrong with the kind its mode claims, not with the other kind too.
func explain(err error, v any) error {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	branch := 0 // a judge's verdict
	if m, ok := v.(map[string]any); ok && m["mode"] == ModeFinal {
		branch = 1
	}
	var leaves []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, "at "+pointer(e.InstanceLocation)+": "+e.ErrorKind.LocalizedString(printer))
			return
		}
		causes := e.Causes
		if _, ok := e.ErrorKind.(*kind.OneOf); ok && len(causes) == 2 {
			causes = causes[branch : branch+1]
		}
		for _, c := range causes {
			walk(c)
		}
	}
	walk(ve)
	return errors.New(strings.Join(leaves, "; "))
}

var printer = message.NewPrinter(language.English)

func pointer(loc []string) string {
	if len(loc) == 0 {
		return "/"
	}
	return "/" + strings.Join(loc, "/")
}
