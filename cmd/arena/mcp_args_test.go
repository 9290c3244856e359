package main

import (
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/mcpserver"
)

// runTools are the run tools arena mcp serves, as runMCP draws them.
func runTools(t *testing.T) (*app, []mcpserver.Tool) {
	t.Helper()
	a := newApp(strings.NewReader(""), io.Discard, io.Discard)
	return a, a.mcpTools()
}

// sample is a value of p's type for a test call.
func sample(p mcpserver.Param) any {
	switch p.Type {
	case mcpserver.Bool:
		return true
	case mcpserver.Int:
		return json.Number("7")
	case mcpserver.Number:
		return json.Number("3.5")
	case mcpserver.List:
		return []any{"a-" + p.Name, "b-" + p.Name}
	}
	if len(p.Enum) > 0 {
		return p.Enum[len(p.Enum)-1]
	}
	if strings.HasSuffix(p.Name, "timeout") {
		return "90s" // a duration reads as one
	}
	return "x-" + p.Name
}

// Every input of a run tool fills a field of its protocol's request, read
// as arena __run reads it, or a setting the run is asked with: a field
// renamed fails here, not in a user's agent.
func TestMCPToolInputsFillTheRequest(t *testing.T) {
	t.Parallel()
	a, tools := runTools(t)
	for _, tool := range tools {
		p, ok := a.protocolNamed(tool.Protocol)
		if !ok {
			t.Fatalf("%s: no protocol %s", tool.Name, tool.Protocol)
		}
		for _, param := range tool.Params {
			v := sample(param)
			l, err := tool.Launch(mcpserver.Input{param.Name: v})
			if err != nil {
				t.Fatal(err)
			}
			req, err := decodeRequest(p, l.Request)
			if err != nil {
				t.Errorf("%s.%s: %v", tool.Name, param.Name, err)
				continue
			}
			if param.Setting {
				if reflect.DeepEqual(askedWith(settingsOf(l.Settings)), engine.RunSettings{}) {
					t.Errorf("%s.%s sets no setting: %+v", tool.Name, param.Name, l.Settings)
				}
				continue
			}
			checkFilled(t, tool.Name, param, req, v)
		}
	}
}

// checkFilled checks that the field of req named by param holds v.
func checkFilled(t *testing.T, tool string, param mcpserver.Param, req engine.Request, v any) {
	t.Helper()
	for _, f := range engine.FieldsOf(req) {
		if f.Name != param.Name {
			continue
		}
		want := ""
		switch x := v.(type) {
		case []any:
			var parts []string
			for _, s := range x {
				parts = append(parts, s.(string))
			}
			want = strings.Join(parts, ",")
		case json.Number:
			want = x.String()
		case bool:
			want = "true"
		case string:
			want = x
		}
		if got := f.String(); got != want && !(f.Kind() == engine.FieldDuration && got == "1m30s") {
			t.Errorf("%s.%s: the request holds %q, want %q", tool, param.Name, got, want)
		}
		return
	}
	t.Errorf("%s.%s: no field of its request", tool, param.Name)
}

// Every run tool's budget becomes the run's budget settings.
func TestMCPBudgetInputs(t *testing.T) {
	t.Parallel()
	_, tools := runTools(t)
	for _, tool := range tools {
		l, err := tool.Launch(mcpserver.Input{"max_cost": json.Number("0.5"), "max_calls": json.Number("7"), "max_tokens": json.Number("9000")})
		if err != nil {
			t.Fatal(err)
		}
		sf := settingsOf(l.Settings)
		if sf.MaxCost == nil || *sf.MaxCost != "0.5" || sf.MaxCalls == nil || *sf.MaxCalls != 7 || sf.MaxTokens == nil || *sf.MaxTokens != "9000" {
			t.Errorf("%s: %+v", tool.Name, l.Settings)
		}
	}
}

// The tools' exit meanings are the commands' own, as their --help says.
func TestMCPExitMeaningsAreTheCommands(t *testing.T) {
	t.Parallel()
	_, tools := runTools(t)
	m := map[string]map[int]string{}
	for _, tool := range tools {
		m[tool.Name] = tool.Exits
		if tool.Exits[0] == "" || tool.Exits[2] == "" || tool.Exits[130] == "" || tool.Exits[75] == "" {
			t.Errorf("%s: %v", tool.Name, tool.Exits)
		}
	}
	if m["verdict"][5] != "reject" || !strings.HasPrefix(m["verdict"][6], "escalate") || m["debate"][3] != "no consensus: a tradeoff document was written" {
		t.Fatalf("%v", m)
	}
}
