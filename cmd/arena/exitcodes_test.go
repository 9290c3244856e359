package main

import (
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/adversarial"
	"github.com/arenadebate/arena/engine/compare"
	"github.com/arenadebate/arena/engine/judge"
	"github.com/arenadebate/arena/engine/rank"
	"github.com/arenadebate/arena/engine/verdict"
)

// The protocols' own exit codes, as the tests name them: each is its
// spec's (engine/NAME/spec.go).
const (
	exitConsensus        = engine.ExitOK
	exitTradeoff         = adversarial.ExitTradeoff
	exitOrderDependent   = compare.ExitOrderDependent
	exitJudgeNoConsensus = judge.ExitNoConsensus
	exitJudgeBelowMin    = judge.ExitBelowMin
	exitAccept           = engine.ExitOK
	exitImprove          = verdict.ExitImprove
	exitReject           = verdict.ExitReject
	exitEscalate         = verdict.ExitEscalate
	exitOtherWinner      = rank.ExitOtherWinner
)
