package layout_test

import (
	"fmt"

	"github.com/arenadebate/arena/engine/layout"
)

func ExampleStream() {
	l := layout.Layout{Fields: []layout.Field{
		{Key: "verdict", Style: layout.Upper},
		{Key: "objection_strength", Style: layout.Line, Format: "%s objection"},
		{Key: "critique"},
	}}
	s := layout.NewStream(l)
	for _, chunk := range []string{"```json\n{\"verdict\": \"disag", "ree\", \"objection_strength\": \"strong\", \"critique\": \"It ign", "ores cost.\"}\n```"} {
		s.Write([]byte(chunk))
		fmt.Printf("frame: %q\n", s.Markdown())
		for _, block := range s.Completed() {
			fmt.Printf("print: %q\n", block)
		}
	}
	fmt.Printf("print: %q\n", s.Rest())
	// Output:
	// frame: "**Verdict:** DISAG"
	// frame: "**Verdict:** DISAGREE · strong objection\n\n**Critique:** It ign"
	// print: "**Verdict:** DISAGREE · strong objection"
	// frame: "**Verdict:** DISAGREE · strong objection\n\n**Critique:** It ignores cost."
	// print: "**Critique:** It ignores cost."
	// print: ""
}
