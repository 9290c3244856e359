package adversarial

import "github.com/arenadebate/arena/engine"

// The data of the adversarial debate's prompt templates (prompts/).

// base is what every prompt knows.
type base struct {
	Topic     string
	Context   []engine.Doc
	Defender  string
	MaxRounds int
	Round     int
}

type openingPrompt struct{ base }

type critiquePrompt struct {
	base
	Name    string
	Opening Opening
}

type critiqueBlock struct {
	Name     string
	Critique Critique
	Followup string // what the challenger said after the last answer, if anything
}

type answerPrompt struct {
	base
	Brief     bool
	Version   int
	Position  string
	Critiques []critiqueBlock
	Names     string
}

type rebuttalPrompt struct {
	base
	Name        string
	Critique    Critique
	Decision    string
	Explanation string
	Position    string
}

type finalOther struct{ Name, Position string }

type finalPrompt struct {
	base
	Name   string
	Mine   string
	Others []finalOther
}

type synthesisParty struct{ Name, Stance, Assumption string }

type synthesisPrompt struct {
	base
	Rounds   int
	Position string
	Parties  []synthesisParty
}
