// Package protocols is the list of arena's protocols: one spec each
// (engine.Spec, declared by engine/NAME), in the order --help lists them.
// The command line, arena mcp, arena resume, stats, replay, the printers
// and demo read this list, and nothing else names the protocols.
package protocols

import (
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/adversarial"
	"github.com/arenadebate/arena/engine/compare"
	"github.com/arenadebate/arena/engine/judge"
	"github.com/arenadebate/arena/engine/rank"
	"github.com/arenadebate/arena/engine/verdict"
)

// All are arena's protocols, in the order --help lists them.
func All() []engine.Spec {
	return []engine.Spec{
		adversarial.Spec,
		compare.Spec,
		judge.Spec,
		verdict.Spec,
		rank.Spec,
	}
}

// Named is the protocol a person or a log names: by its command (debate,
// compare) or by the name its logs give it (adversarial).
func Named(name string) (engine.Spec, bool) { return engine.Named(All(), name) }
