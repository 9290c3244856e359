package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/arenadebate/arena/engine"
)

// A run tool is a protocol, as an agent calls it: its inputs are the
// fields of the protocol's typed request that agents may set (engine.Spec,
// engine.FieldsOf), and the settings a run is asked with that its spec
// says it reads. A call becomes the request, as JSON, and the run is
// started from it (Launch): the run checks it with the same code and words
// its refusals as the command line does, and its log records it, which
// arena resume runs again. Nothing here knows a protocol, a command line
// or a flag.

// Tool is one protocol's run tool.
type Tool struct {
	// Name is the tool's name, and the protocol's command's.
	Name string
	// Protocol is what the protocol's logs call it (engine/NAME's Name).
	Protocol    string
	Description string
	// Params are the tool's inputs: its request's fields, then the
	// settings the run is asked with.
	Params []Param
	// Exits are the command's exit codes and their meanings, as its
	// --help lists them; ExitOf is the code of a result read from a log.
	Exits  map[int]string
	ExitOf func(engine.OutcomeKind) int
	// Guard names the inputs the self-preference guard reads and sets.
	Guard engine.Guard
	// Record says that the run's standard output is its final record
	// (arena verdict --json), which the result carries.
	Record bool
}

// Param is one input of a tool.
type Param struct {
	Name     string // the input's name (snake_case): the request field's, or the setting's
	About    string // its description
	Type     Type
	Required bool
	Enum     []string // the values it may take, when it takes few
	// Setting says it is a setting the run is asked with (max_cost), not
	// a field of its request.
	Setting bool
}

// Type is an input's JSON type.
type Type int

const (
	String Type = iota
	Bool
	Int
	Number
	List // an array of strings
)

// ToolOf is spec's run tool; rounds is what its max_rounds input says,
// with its default, when its runs have rounds.
func ToolOf(spec engine.Spec, rounds string) Tool {
	t := Tool{Name: spec.Command, Protocol: spec.Name, Description: spec.Tool.About, Guard: spec.Tool.Guard, Record: spec.Tool.Record}
	exits := spec.AllExits()
	t.Exits, t.ExitOf = exits.Meanings(), exits.Code
	for _, f := range engine.FieldsOf(spec.New()) {
		if f.Agents {
			t.Params = append(t.Params, Param{Name: f.Name, About: f.About, Type: typeOf(f.Kind()), Required: f.Required, Enum: f.Enum})
		}
	}
	var settings []Param
	if spec.Tool.Seats {
		settings = append(settings,
			Param{Name: "defender", About: "agent that opens and defends (default claude)"},
			Param{Name: "challengers", About: "challenger agents (default: usable ones found by arena doctor)", Type: List})
	}
	if spec.Uses.Rounds != "" {
		settings = append(settings, Param{Name: "max_rounds", About: rounds, Type: Int})
	}
	if spec.Uses.Timeout {
		settings = append(settings, Param{Name: "timeout", About: "timeout per agent call, e.g. 90s, 2m, or seconds (default 120)"})
	}
	for _, p := range append(settings, budgetParams...) {
		p.Setting = true
		t.Params = append(t.Params, p)
	}
	return t
}

// budgetParams are the inputs of the budget every run tool takes.
var budgetParams = []Param{
	{Name: "max_cost", Type: Number, About: "stop the run before a call once this many US dollars are spent (only claude's CLI reports a cost: other seats count against max_calls and max_tokens)"},
	{Name: "max_calls", Type: Int, About: "stop the run before a call once this many model calls are made"},
	{Name: "max_tokens", Type: Int, About: "stop the run before a call once this many tokens (in and out) are used"},
}

// typeOf is the input type of a request field's kind.
func typeOf(k engine.FieldKind) Type {
	switch k {
	case engine.FieldBool:
		return Bool
	case engine.FieldInt, engine.FieldUint:
		return Int
	case engine.FieldFloat:
		return Number
	case engine.FieldStrings:
		return List
	}
	return String
}

// Input is a call's arguments, as the schema let them through. Numbers
// are kept as written (json.Number): a seed is a 64-bit integer, which a
// float64 would round.
type Input map[string]any

// UnmarshalJSON reads a call's arguments, keeping numbers as written.
func (in *Input) UnmarshalJSON(b []byte) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	m := map[string]any{}
	if err := d.Decode(&m); err != nil {
		return err
	}
	*in = m
	return nil
}

// Schema is the tool's input schema, in the portable subset of JSON
// Schema every host maps onto its model's function declarations: one type
// per value, an optional input simply absent.
func (t Tool) Schema() *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
	for _, p := range t.Params {
		s.Properties[p.Name] = p.schema()
		s.PropertyOrder = append(s.PropertyOrder, p.Name)
		if p.Required {
			s.Required = append(s.Required, p.Name)
		}
	}
	s.Properties["wait_seconds"] = waitSchema(startWait, startWaitAbout)
	s.PropertyOrder = append(s.PropertyOrder, "wait_seconds")
	s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	return s
}

func (p Param) schema() *jsonschema.Schema {
	s := &jsonschema.Schema{Description: p.About}
	switch p.Type {
	case Bool:
		s.Type = "boolean"
	case Int:
		s.Type = "integer"
	case Number:
		s.Type = "number"
	case List:
		s.Type, s.Items = "array", &jsonschema.Schema{Type: "string"}
	default:
		s.Type = "string"
	}
	for _, v := range p.Enum {
		s.Enum = append(s.Enum, v)
	}
	return s
}

// waitSchema is wait_seconds' schema, with its default and what it does.
func waitSchema(def time.Duration, about string) *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:        "integer",
		Description: about,
		Minimum:     ptr(0.0), Maximum: ptr(maxWait.Seconds()),
		Default: json.RawMessage(strconv.Itoa(int(def.Seconds()))),
	}
}

// Launch is the run of a call with this input: its request, the fields
// it gives (an empty string, false, 0 or an empty list leaves a field
// out, as a person would), and the settings it asks the run with.
func (t Tool) Launch(in Input) (Launch, error) {
	l := Launch{Protocol: t.Protocol, Record: t.Record}
	req := map[string]any{}
	for _, p := range t.Params {
		v, ok := in[p.Name]
		if !ok || !says(v) {
			continue
		}
		if p.Setting {
			set(&l.Settings, p.Name, v)
		} else {
			req[p.Name] = v
		}
	}
	var err error
	l.Request, err = json.Marshal(req)
	return l, err
}

// says is whether an input's value says anything.
func says(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case json.Number:
		return x.String() != "0"
	}
	return v != nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// strs is a list input's strings; a string input is a list of one.
func strs(v any) []string {
	if s, ok := v.(string); ok {
		return []string{s}
	}
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// num is a number input as it was written; "" when it is not a number.
func num(v any) string {
	switch n := v.(type) {
	case json.Number:
		return n.String()
	case float64:
		return strconv.FormatFloat(n, 'f', -1, 64)
	case int:
		return strconv.Itoa(n)
	}
	return ""
}

func number(v any) float64 {
	f, _ := strconv.ParseFloat(num(v), 64)
	return f
}

// The budget's inputs: every run tool takes them (they are every
// command's flags), and the server's own limits hold whatever the caller
// asks (within).
var budgetInputs = []struct {
	name  string
	limit func(Budget) float64
}{
	{"max_cost", func(b Budget) float64 { return b.MaxCost }},
	{"max_calls", func(b Budget) float64 { return float64(b.MaxCalls) }},
	{"max_tokens", func(b Budget) float64 { return float64(b.MaxTokens) }},
}

// within keeps a call's budget within the server's: a limit the caller
// leaves out, or sets higher, is the server's.
func (in Input) within(server Budget) {
	for _, b := range budgetInputs {
		limit := b.limit(server)
		if limit <= 0 {
			continue
		}
		if asked := number(in[b.name]); asked <= 0 || asked > limit {
			in[b.name] = json.Number(strconv.FormatFloat(limit, 'f', -1, 64))
		}
	}
}
