package stats

// The debate ledger across runs: for each protocol that debates, how
// often the debate changed what a plain vote of the seats' round-one
// positions concluded, and, where the person gave a verdict on the run,
// whether the change was right.

// LedgerFigure is one protocol's debates against their plain votes.
type LedgerFigure struct {
	Protocol string `json:"protocol"`
	// Debates counts the runs with a ledger; Changed is the share whose
	// result is not what the vote concluded.
	Debates int    `json:"debates"`
	Changed Figure `json:"changed_rate"`
	// Labelled counts the debates the person gave an accept, improve or
	// reject verdict on, whose ledger says the vote's and the result's
	// verdicts (logs before arena recorded them count above, not here).
	Labelled int `json:"labelled"`
	// VoteRight and ResultRight are the shares of those where the vote,
	// and the debate's result, matched the person's verdict (a result
	// that reached no verdict matches none).
	VoteRight   Figure `json:"vote_right_rate"`
	ResultRight Figure `json:"result_right_rate"`
	// Of the labelled debates that changed the result: ChangedRight, the
	// result matched the person and the vote had not; ChangedWrong, the
	// vote had matched and the result did not; ChangedNeither, neither.
	// ChangeRight is ChangedRight of the changes that either matched.
	ChangedRight   int    `json:"changed_right"`
	ChangedWrong   int    `json:"changed_wrong"`
	ChangedNeither int    `json:"changed_neither"`
	ChangeRight    Figure `json:"change_right_rate"`
}

// ledgers are the debate ledgers of the runs, by protocol in order.
func ledgers(runs []Run) []LedgerFigure {
	type tally struct {
		debates                      int
		changed, vote, result, right counter
		changedRight, wrong, neither int
		labelled                     int
	}
	by := map[string]*tally{}
	for ri, r := range runs {
		for _, l := range r.Ledgers {
			t := by[r.Protocol]
			if t == nil {
				t = &tally{}
				by[r.Protocol] = t
			}
			t.debates++
			t.changed.add(l.Changed, ri)
			if r.Label == nil || r.Label.Verdict == "" || l.VoteVerdict == "" {
				continue
			}
			t.labelled++
			v, res := l.VoteVerdict == r.Label.Verdict, l.ResultVerdict == r.Label.Verdict
			t.vote.add(v, ri)
			t.result.add(res, ri)
			if !l.Changed {
				continue
			}
			switch {
			case res && !v:
				t.changedRight++
				t.right.add(true, ri)
			case v && !res:
				t.wrong++
				t.right.add(false, ri)
			default:
				t.neither++
			}
		}
	}
	var out []LedgerFigure
	for _, p := range sortedKeys(by) {
		t := by[p]
		f := LedgerFigure{Protocol: p, Debates: t.debates, Changed: t.changed.figure(), Labelled: t.labelled,
			VoteRight: t.vote.figure(), ResultRight: t.result.figure(),
			ChangedRight: t.changedRight, ChangedWrong: t.wrong, ChangedNeither: t.neither, ChangeRight: t.right.figure()}
		if t.labelled == 0 {
			for _, x := range []*Figure{&f.VoteRight, &f.ResultRight, &f.ChangeRight} {
				x.Note = "no debate of it has your verdict (arena label … accept|improve|reject)"
			}
		} else if t.right.n == 0 {
			f.ChangeRight.Note = "no labelled debate changed the vote's result one way or the other"
		}
		out = append(out, f)
	}
	return out
}
