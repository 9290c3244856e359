package main

import (
	"github.com/arenadebate/arena/engine/judge"
	"github.com/arenadebate/arena/engine/mcpserver"
)

// arena judge: judges score a solution and debate their scores to
// consensus (engine/judge).

func judgeProtocol() protocol {
	return protocol{
		Spec: judge.Spec,
		tool: tool{
			inputs: []mcpserver.Param{
				{Name: "solution", About: "the solution as text (a diff, a document), instead of paths", Place: mcpserver.AsStdinArg},
				{Name: "paths", About: "the solution's files or directories (directories are walked, honouring .gitignore)", Type: mcpserver.Repeated, Place: mcpserver.AsArgs},
			},
			flags: []mcpserver.FlagInput{{Flag: "task", Required: true}, {Flag: "criteria"}, {Flag: "preset", Enum: []string{"code", "design", "docs"}},
				{Flag: "judges", About: "judge agents (default: three usable ones other than the author)"},
				{Flag: "author", About: "the agent that wrote the solution: it gets no judge seat unless judges names it (default: the calling agent, when it is one of arena's agents)"},
				{Flag: "min-score"}, {Flag: "max-bytes"}, {Flag: "reports-dir"},
				{Flag: "max-rounds", About: "debate rounds between the judges (default 3)"}, {Flag: "timeout"}},
			fixed: []string{"--no-tui"},
		},
	}
}
