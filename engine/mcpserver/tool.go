package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/arenadebate/arena/engine"
)

// A run tool is a protocol's command, as an agent calls it: its inputs are
// the command's own flags (those the protocol lets agents set) and its
// positional inputs, and a call becomes the command line a person would
// type. The run is that command, so it checks its input with the same
// code and words its refusals the same way, and its log records that
// command line, which arena resume runs again. The command line builds
// each Tool from the protocol's descriptor and its cobra flags; nothing
// here knows a protocol.

// Tool is one protocol's run tool.
type Tool struct {
	// Name is the tool's name, and the command's.
	Name string
	// Protocol is what the protocol's logs call it (engine/NAME's Name).
	Protocol    string
	Description string
	// Command is what comes before the flags on the command line: the
	// command's name.
	Command []string
	// Params are the tool's inputs, in the order they go on the command
	// line.
	Params []Param
	// Fixed are flags every call's command line gets (--no-tui).
	Fixed []string
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
	Name     string // the input's name (snake_case)
	About    string // its description
	Type     Type
	Place    Place
	Flag     string // the flag it becomes (Place AsFlag)
	Required bool
	Enum     []string // the values it may take, when the flag takes few
}

// Type is an input's JSON type, and how it is written as a flag.
type Type int

const (
	String   Type = iota
	Bool          // --flag when true
	Int           // --flag=N
	Number        // --flag=X
	List          // an array, written --flag=a,b
	Repeated      // an array, written --flag=a --flag=b
)

// Place is where an input goes on the command line.
type Place int

const (
	AsFlag Place = iota
	// AsStdinFile is text handed to the command on stdin, named by
	// "-f -" (the debate's topic, the comparison's decision).
	AsStdinFile
	// AsStdinArg is text handed on stdin, named by the argument "-"
	// (a judged solution, a verdict's work).
	AsStdinArg
	// AsArgs are arguments after "--" (files, repositories), in order.
	AsArgs
)

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
	s.Properties["wait_seconds"] = waitSchema()
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
	case List, Repeated:
		s.Type, s.Items = "array", &jsonschema.Schema{Type: "string"}
	default:
		s.Type = "string"
	}
	for _, v := range p.Enum {
		s.Enum = append(s.Enum, v)
	}
	return s
}

func waitSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:        "integer",
		Description: "follow the run for up to this many seconds (0 to 50) before returning; a run that ends sooner returns its outcome at once",
		Minimum:     ptr(0.0), Maximum: ptr(maxWait.Seconds()),
		Default: json.RawMessage(strconv.Itoa(int(defaultWait.Seconds()))),
	}
}

// Args is the command line of a call with this input, and its stdin. The
// flags come first, each as --name=value (a value that starts with a dash
// stays a value), then the positional inputs after "--".
func (t Tool) Args(in Input) ([]string, string) {
	a := slices.Clone(t.Command)
	var stdin string
	var pos []string
	for _, p := range t.Params {
		v, ok := in[p.Name]
		if !ok {
			continue
		}
		switch p.Place {
		case AsFlag:
			a = p.flag(a, v)
		case AsStdinFile:
			stdin = str(v)
			a = append(a, "-f", "-")
		case AsStdinArg:
			if stdin = str(v); stdin != "" {
				pos = append(pos, "-")
			}
		case AsArgs:
			pos = append(pos, strs(v)...)
		}
	}
	a = append(a, t.Fixed...)
	if len(pos) > 0 {
		a = append(append(a, "--"), pos...)
	}
	return a, stdin
}

// flag appends p's flag for the value v, if v says anything: an empty
// string, false, 0 or an empty list leave the flag out, as a person
// would.
func (p Param) flag(a []string, v any) []string {
	name := "--" + p.Flag
	switch p.Type {
	case Bool:
		if b, _ := v.(bool); b {
			a = append(a, name)
		}
	case Int, Number:
		if n := num(v); n != "" && n != "0" {
			a = append(a, name+"="+n)
		}
	case List:
		if l := strs(v); len(l) > 0 {
			a = append(a, name+"="+strings.Join(l, ","))
		}
	case Repeated:
		for _, s := range strs(v) {
			a = append(a, name+"="+s)
		}
	default:
		if s := str(v); s != "" {
			a = append(a, name+"="+s)
		}
	}
	return a
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
