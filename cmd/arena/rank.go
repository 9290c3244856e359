package main

import (
	"github.com/arenadebate/arena/engine/mcpserver"
	"github.com/arenadebate/arena/engine/rank"
)

// arena rank: judge two or more implementations of one spec.

func rankProtocol() protocol {
	return protocol{
		Spec: rank.Spec,
		tool: tool{
			inputs: []mcpserver.Param{
				{Name: "spec", About: "the specification file every repository implements", Place: mcpserver.AsArgs, Required: true},
				{Name: "repos", About: "two or more repositories (git work trees) implementing it", Type: mcpserver.Repeated, Place: mcpserver.AsArgs, Required: true},
			},
			flags: []mcpserver.FlagInput{{Flag: "labels", About: "a label per repository, in order (default: directory names)", List: true},
				{Flag: "weights"}, {Flag: "branch"}, {Flag: "base"}, {Flag: "run-tests"}, {Flag: "test-timeout"},
				{Flag: "authors", About: "the agent that wrote each repository, in order: no judge seat goes to an author's agent where another exists"},
				{Flag: "expect-winner", About: "the label expected to rank first alone (exit code 3 otherwise)"}, {Flag: "seed"}, {Flag: "timeout"}},
			fixed: []string{"--no-tui"},
		},
	}
}
