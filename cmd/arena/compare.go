package main

import (
	"github.com/arenadebate/arena/engine/compare"
	"github.com/arenadebate/arena/engine/mcpserver"
)

func compareProtocol() protocol {
	return protocol{
		Spec: compare.Spec,
		tool: tool{
			inputs: []mcpserver.Param{{Name: "decision", About: "the decision the options are for", Place: mcpserver.AsStdinFile, Required: true}},
			flags: []mcpserver.FlagInput{{Flag: "option", Name: "options", About: "two to four options to compare", Required: true},
				{Flag: "criteria"}, {Flag: "context", About: "files of evidence every seat reads"}, {Flag: "stakeholders"},
				{Flag: "quick"}, {Flag: "single"}, {Flag: "advocates"}, {Flag: "judge"},
				{Flag: "author", About: "the agent that proposed the options: it gets no judge seat (default: the calling agent, when it is one of arena's agents)"},
				{Flag: "timeout"}},
			fixed: []string{"--no-tui"},
		},
	}
}
