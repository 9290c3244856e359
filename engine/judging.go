package engine

// The events that record how models judged, for arena stats to read
// across runs: each judge's reading of the candidates it was shown (in
// which order, what it scored, what it picked), the result arena computed,
// what a plain vote would have concluded before a debate and who moved in
// it, and a person's own verdict on a run. Front ends need none of them:
// a protocol shows the same in its tables, notes and outcome document.
// They were added without a version bump (older readers skip them).

// The judging events' kinds.
const (
	KindScored       Kind = "scored"
	KindPlaced       Kind = "placed"
	KindDebateLedger Kind = "debate_ledger"
	KindLabel        Kind = "label"
)

func init() {
	payloadTypes[KindScored] = func() Payload { return &Scored{} }
	payloadTypes[KindPlaced] = func() Payload { return &Placed{} }
	payloadTypes[KindDebateLedger] = func() Payload { return &DebateLedger{} }
	payloadTypes[KindLabel] = func() Payload { return &Label{} }
}

func (Scored) Kind() Kind       { return KindScored }
func (Placed) Kind() Kind       { return KindPlaced }
func (DebateLedger) Kind() Kind { return KindDebateLedger }
func (Label) Kind() Kind        { return KindLabel }

// Candidate is one thing a judge scored or chose among, as it was shown.
type Candidate struct {
	// ID names it the same way in every order of a run: an option's name,
	// a repository's label, "solution".
	ID string `json:"id"`
	// Shown is what the judge saw it as ("Candidate B"); "" when the ID.
	Shown string `json:"shown,omitempty"`
	// Author is the agent that wrote it, where the person said so.
	Author string `json:"author,omitempty"`
	// Bytes is the length of what the judge read of it.
	Bytes int `json:"bytes"`
	// Score is the judge's score of it, as arena parsed it (nil: none).
	Score *float64 `json:"score,omitempty"`
}

// Scored is one judge's reading of one judgement: the candidates in the
// order it was shown them, with its scores and, where it chose, its pick.
// A judgement asked in several orders has one Scored per order, all with
// the same Judgement name.
type Scored struct {
	Seat  string `json:"seat"`
	Agent string `json:"agent"`
	// Judgement names what was judged ("security", "recommendation", a
	// criterion).
	Judgement string `json:"judgement"`
	// Order is which of the judgement's Orders this reading is (0: the
	// first).
	Order  int `json:"order"`
	Orders int `json:"orders"`
	// Repeat is which asking of this order the reading is: 0 the first;
	// 1, 2, … the same order asked again (--repeats): the same judge shown
	// the same candidates in the same positions under the same labels.
	// arena stats reads how stable a judge is from the readings that share
	// Agent, Judgement and Order and differ in Repeat; a repeat is no order
	// of its own, so the flip rate and MT-Bench's swap figures read the
	// first asking (Repeat 0) of each order only.
	Repeat int `json:"repeat,omitempty"`
	// Min and Max are the score scale.
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
	// Candidates are in the order shown.
	Candidates []Candidate `json:"candidates"`
	// Pick is the ID of the candidate the judge chose ("": it did not
	// choose).
	Pick string `json:"pick,omitempty"`
	// Verdict is the judge's own verdict where the protocol has one
	// (accept, improve or reject), computed by arena from its scores.
	Verdict string `json:"verdict,omitempty"`
}

// ScoreOf is a candidate's score in the reading, by ID.
func (s Scored) ScoreOf(id string) (float64, bool) {
	for _, c := range s.Candidates {
		if c.ID == id && c.Score != nil {
			return *c.Score, true
		}
	}
	return 0, false
}

// Standing is one candidate's place in a run's result.
type Standing struct {
	ID     string `json:"id"`
	Author string `json:"author,omitempty"`
	Place  int    `json:"place"` // 1 is first; tied candidates share a place
}

// Placed is a run's result as arena computed it: every candidate's place.
type Placed struct {
	Candidates []Standing `json:"candidates"`
}

// Stand is a seat's position at one point of a debate.
type Stand struct {
	Seat  string `json:"seat"`
	Agent string `json:"agent"`
	// Position is the position in a few words ("disagree", "overall 3.20
	// — needs revision"); Detail what it rests on (the text, the scores).
	Position string `json:"position"`
	Detail   string `json:"detail,omitempty"`
	// Score is the seat's score where its position is one (nil: none).
	Score *float64 `json:"score,omitempty"`
}

// Move is one seat changing its position during a debate.
type Move struct {
	Seat  string `json:"seat"`
	Agent string `json:"agent"`
	Round int    `json:"round"`
	// On is what moved ("security", "position").
	On   string `json:"on"`
	From string `json:"from"`
	To   string `json:"to"`
	// Evidence is the new evidence the move came with: quotes found in
	// the material that the mover had not cited before, figures the
	// debate had not seen. None: the move is flagged as conformity.
	Evidence   []string `json:"evidence,omitempty"`
	Conformity bool     `json:"conformity,omitempty"`
	// Toward says whom it moved toward, when it moved toward the others.
	Toward string `json:"toward,omitempty"`
}

// DebateLedger is what a debate changed: every seat's independent
// round-one position, what a plain vote of them would have concluded,
// what the debate concluded, and each move, with or without new evidence.
type DebateLedger struct {
	Positions []Stand `json:"positions"`
	// VoteRule says how the plain vote is counted ("majority of the
	// seats", "mean of the round-one scores").
	VoteRule string `json:"vote_rule"`
	Vote     string `json:"vote"`
	Result   string `json:"result"`
	// Changed: the debate's result is not what the vote concluded.
	Changed bool `json:"changed"`
	// VoteVerdict and ResultVerdict are the vote's and the result's
	// conclusions as a person's verdict says them (accept, improve or
	// reject; "" when it reached none: a split vote, no consensus), for
	// arena stats to hold against the person's own verdict on the run.
	VoteVerdict   string `json:"vote_verdict,omitempty"`
	ResultVerdict string `json:"result_verdict,omitempty"`
	Moves         []Move `json:"moves,omitempty"`
}

// Label is a person's own verdict on a run: arena label, or the
// moderator's explicit override during the run.
type Label struct {
	// By is who said it: "person" (arena label) or "moderator".
	By string `json:"by"`
	// Winner is the candidate the person says is best (its ID).
	Winner string `json:"winner,omitempty"`
	// Verdict is accept, improve or reject.
	Verdict string `json:"verdict,omitempty"`
	// Score is the person's score.
	Score *float64 `json:"score,omitempty"`
	Note  string   `json:"note,omitempty"`
}

// Float is a pointer to v, for the optional scores of these events.
func Float(v float64) *float64 { return &v }
