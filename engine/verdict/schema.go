package verdict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/arenadebate/arena/engine"
)

// The verdict log's JSON Schema is inferred from the structs the log is
// written from (Record, Final, Scores) by google/jsonschema-go, the
// library the MCP server's schemas come from, with the enumerations and
// ranges taken from the package's own constants; every line is validated
// against it by the same library: the schema cannot drift from what arena
// writes.

const schemaID = "https://github.com/arenadebate/arena/engine/verdict/schema.json"

// draft is the JSON Schema draft the document states.
const draft = "https://json-schema.org/draft/2020-12/schema"

// The range of a score, and the most judges a run asks.
const (
	minScore = 1
	maxScore = 5
	maxCalls = 3 // quick, deep, tiebreaker
)

// dateTime is what a timestamp must look like: an RFC 3339 date-time. The
// library treats "format" as an annotation, as the draft allows, so the
// pattern is what holds a timestamp to it.
const dateTime = `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$`

// finalVerdicts are the decisions a final record can hold: a judge's
// verdicts, escalate, and the two ways a run ends without a decision.
var finalVerdicts = []string{
	string(Accept), string(Improve), string(Reject), string(Escalate),
	string(engine.OutcomeAborted), string(engine.OutcomeInterrupted),
}

// judgeModes are the modes of a judge's record.
var judgeModes = []Mode{Quick, Deep, Tiebreaker}

// recordSchema is a judge's record's schema: the struct's, with what its
// tags cannot say (the verdicts and modes allowed, from their constants).
func recordSchema() *jsonschema.Schema {
	s := infer[Record]()
	s.Title = "judge verdict"
	prop(s, "mode").Enum = anys(judgeModes)
	prop(s, "verdict").Enum = anys(judgeVerdicts)
	prop(s, "stated_verdict").Enum = anys(judgeVerdicts)
	avg := prop(s, "average")
	avg.Minimum, avg.Maximum = num(minScore), num(maxScore)
	for _, k := range []string{"semantic", "pragmatic", "syntactic"} {
		p := prop(prop(s, "scores"), k)
		p.Minimum, p.Maximum = num(minScore), num(maxScore)
	}
	for _, k := range []string{"task_id", "run_id", "model", "reasoning"} {
		prop(s, k).MinLength = jsonschema.Ptr(1)
	}
	timestamp(prop(s, "timestamp"))
	return s
}

// finalSchema: a final record's mode is "final", its verdict one of
// finalVerdicts.
func finalSchema() *jsonschema.Schema {
	s := infer[Final]()
	s.Title = "final decision"
	var mode any = ModeFinal
	prop(s, "mode").Const = &mode
	prop(s, "verdict").Enum = anys(finalVerdicts)
	calls := prop(s, "calls")
	calls.Minimum, calls.Maximum = num(0), num(maxCalls)
	for _, k := range []string{"task_id", "run_id", "reached"} {
		prop(s, k).MinLength = jsonschema.Ptr(1)
	}
	timestamp(prop(s, "timestamp"))
	return s
}

func timestamp(s *jsonschema.Schema) {
	s.Format, s.Pattern = "date-time", dateTime
}

// infer is T's schema, as the struct and its tags say.
func infer[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic("verdict schema: " + err.Error())
	}
	return s
}

// prop is property name of an object schema; it panics if there is none,
// which the tests catch: the struct lost or renamed a field.
func prop(s *jsonschema.Schema, name string) *jsonschema.Schema {
	p, ok := s.Properties[name]
	if !ok {
		panic("verdict schema: no property " + name)
	}
	return p
}

func num(v float64) *float64 { return &v }

func anys[T ~string](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}

// generate builds the schema document: one of the two record kinds.
func generate() []byte {
	doc := &jsonschema.Schema{
		Schema: draft,
		ID:     schemaID,
		Title:  "arena verdict log record",
		Description: "One line of an arena verdict log (JSON Lines): a judge's verdict (mode quick, deep or tiebreaker), " +
			"or the run's final decision (mode final). The verdict of a judge's record is arena's, computed from the scores: " +
			"accept when every score is at least 3 and the average at least 3.5, reject when any score is below 2, improve otherwise.",
		OneOf: []*jsonschema.Schema{recordSchema(), finalSchema()},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic("verdict schema: " + err.Error())
	}
	return append(b, '\n')
}

// kinds are the schema's two kinds of record, resolved: a line is
// checked against the kind its mode claims, so that what is wrong with it
// is said of that kind alone, not also of the other.
type kinds struct{ judge, final *jsonschema.Resolved }

var compiled = sync.OnceValues(func() ([]byte, kinds) {
	doc := generate()
	k, err := compile(doc)
	if err != nil {
		panic("verdict schema: " + err.Error())
	}
	return doc, k
})

// Schema returns the verdict record's JSON Schema, as arena verdict
// --schema prints it.
func Schema() []byte { doc, _ := compiled(); return bytes.Clone(doc) }

// compile reads a schema document and resolves its two kinds of record.
func compile(doc []byte) (kinds, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(doc, &s); err != nil {
		return kinds{}, err
	}
	if _, err := s.Resolve(nil); err != nil {
		return kinds{}, err
	}
	if len(s.OneOf) != 2 {
		return kinds{}, fmt.Errorf("the schema has %d kinds of record, not 2", len(s.OneOf))
	}
	var k kinds
	for i, dst := range []**jsonschema.Resolved{&k.judge, &k.final} {
		r, err := s.OneOf[i].Resolve(nil)
		if err != nil {
			return kinds{}, err
		}
		*dst = r
	}
	return k, nil
}

// decode reads exactly one JSON value.
func decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
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
	_, k := compiled()
	return k.validate(v)
}

// Validate checks a decoded JSON value against a JSON Schema document,
// decoded the same way: what a test does with the schema arena verdict
// --schema printed.
func Validate(schema map[string]any, v any) error {
	doc, err := json.Marshal(schema)
	if err != nil {
		return err
	}
	k, err := compile(doc)
	if err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	// The library reads numbers as float64s: a value decoded with
	// UseNumber is read again without it.
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if v, err = decode(b); err != nil {
		return err
	}
	return k.validate(v)
}

// validate checks v against the kind its mode claims, and says where it
// is wrong.
func (k kinds) validate(v any) error {
	kind := k.judge
	if m, ok := v.(map[string]any); ok && m["mode"] == ModeFinal {
		kind = k.final
	}
	return explain(kind.Validate(v))
}

// schemaPlace is a place in the schema as the library names it:
// "validating /properties/scores/properties/semantic: ".
var schemaPlace = regexp.MustCompile(`validating ([^:]*): `)

// explain turns a validation error into one line: where in the record
// (the innermost place the library names, as a path of the record's
// keys) and what is wrong there.
func explain(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	where := "/"
	if m := schemaPlace.FindAllStringSubmatchIndex(msg, -1); len(m) > 0 {
		last := m[len(m)-1]
		where = recordPath(msg[last[2]:last[3]])
		msg = msg[last[1]:]
	}
	if v, ok := strings.CutSuffix(msg, " does not match regular expression "+strconv.Quote(dateTime)); ok {
		msg = strings.TrimPrefix(v, "pattern: ") + " is not an RFC 3339 date-time"
	}
	return fmt.Errorf("at %s: %s", where, msg)
}

// recordPath turns a schema path ("/properties/scores/properties/semantic",
// "/properties/improvements/items") into the record's ("/scores/semantic",
// "/improvements/*").
func recordPath(p string) string {
	if p == "root" || p == "" {
		return "/"
	}
	p = strings.ReplaceAll(p, "/properties/", "/")
	p = strings.ReplaceAll(p, "/items", "/*")
	return p
}
