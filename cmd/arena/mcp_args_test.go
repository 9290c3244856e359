package main

import (
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/cmd/arena/mcpserver"
)

// Every field of a run tool's input becomes a flag or an argument of its
// command, and every flag it becomes is one the command has: a flag
// renamed on the command line fails here, not in a user's agent.
func TestMCPToolInputsAreTheCommandsFlags(t *testing.T) {
	t.Parallel()
	for _, in := range []interface{ Args() ([]string, string) }{
		mcpserver.DebateIn{}, mcpserver.CompareIn{}, mcpserver.JudgeIn{}, mcpserver.VerdictIn{}, mcpserver.RankIn{},
	} {
		typ := reflect.TypeOf(in)
		base, baseStdin := in.Args()
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.Anonymous { // Follow: the server's, not the command's
				continue
			}
			v := reflect.New(typ).Elem()
			switch f.Type.Kind() {
			case reflect.String:
				val := "x-" + f.Name
				if strings.HasSuffix(f.Name, "Timeout") {
					val = "90s" // a duration flag parses its value
				}
				v.Field(i).SetString(val)
			case reflect.Bool:
				v.Field(i).SetBool(true)
			case reflect.Int, reflect.Int64:
				v.Field(i).SetInt(7)
			case reflect.Uint64:
				v.Field(i).SetUint(7)
			case reflect.Float64:
				v.Field(i).SetFloat(3.5)
			case reflect.Slice:
				v.Field(i).Set(reflect.ValueOf([]string{"a-" + f.Name, "b-" + f.Name}))
			default:
				t.Fatalf("%s.%s: a %s field this test does not fill", typ.Name(), f.Name, f.Type)
			}
			args, stdin := v.Interface().(interface{ Args() ([]string, string) }).Args()
			if slices.Equal(args, base) && stdin == baseStdin {
				t.Errorf("%s.%s changes nothing of the command line", typ.Name(), f.Name)
				continue
			}
			root := newApp(strings.NewReader(""), io.Discard, io.Discard).rootCmd()
			cmd, rest, err := root.Find(args)
			if err != nil {
				t.Fatalf("%s.%s: %v", typ.Name(), f.Name, err)
			}
			if err := cmd.ParseFlags(rest); err != nil {
				t.Errorf("%s.%s: arena %s does not take %v: %v", typ.Name(), f.Name, cmd.Name(), args, err)
			}
		}
	}
}

func TestMCPExitMeaningsComeFromTheHelp(t *testing.T) {
	t.Parallel()
	m := mcpExitMeanings()
	for tool, codes := range m {
		if codes[0] == "" || codes[2] == "" || codes[130] == "" {
			t.Errorf("%s: %v", tool, codes)
		}
	}
	if m["verdict"][5] != "reject" || !strings.HasPrefix(m["verdict"][6], "escalate") || m["debate"][3] != "no consensus: a tradeoff document was written" {
		t.Fatalf("%v", m)
	}
}
