// Package ledger is the debate-versus-vote ledger the protocols that
// debate keep (engine.DebateLedger): every seat's independent round-one
// position, what a plain vote of them would have concluded before any
// debate, whether the debate changed that, and who moved, from what to
// what, with new evidence or without it. Debate among models often
// converges by conformity rather than evidence — agents switching to agree,
// a plain majority vote explaining most of debate's gains — so a move that
// brought nothing new is flagged as conformity.
//
// What counts as new evidence is decided by arena, never by a model: a
// quote (text in quotation marks or backticks, 12 characters or more) that
// occurs in the material under debate and that the mover had not cited
// before, or a figure (a number of two or more digits, a decimal, or a
// number with a unit) that nobody had written before in the debate.
package ledger

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
)

// minQuote is the shortest quote that counts as evidence: shorter ones
// ("yes", "OK") match anywhere.
const minQuote = 12

var (
	quoteRe = regexp.MustCompile("\"([^\"\\n]+)\"|“([^”\\n]+)”|`([^`\\n]+)`")
	// figureRe is a number with two or more digits, a decimal, or a
	// unit: "1,800", "0.4", "5 ms", "2x", "99%".
	figureRe = regexp.MustCompile(`(?i)\b\d[\d,]*(?:\.\d+)?\s?(?:%|ms\b|s\b|x\b|k\b|gb\b|mb\b|kb\b|rps\b|qps\b|/s\b)?`)
)

// Quotes are the quoted spans of text long enough to count as evidence.
func Quotes(text string) []string {
	var out []string
	for _, m := range quoteRe.FindAllStringSubmatch(text, -1) {
		q := strings.TrimSpace(m[1] + m[2] + m[3])
		if len(q) >= minQuote && !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	return out
}

// Figures are the numbers in text that count as figures, as written.
func Figures(text string) []string {
	var out []string
	for _, f := range figureRe.FindAllString(text, -1) {
		f = strings.TrimSpace(f)
		digits := strings.Map(func(r rune) rune {
			if unicode.IsDigit(r) {
				return r
			}
			return -1
		}, f)
		plain := f == digits
		if plain && len(digits) < 2 {
			continue // "1", "3": a round, a list item, a score
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// squash lowercases and drops white space, commas and quotation marks,
// for finding a quote or a figure regardless of line breaks and "1,800".
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == ',' || strings.ContainsRune("\"'`“”‘’", r) {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// Seen is what a debate has said so far, to tell a new figure or quote
// from one already given.
type Seen struct {
	text    strings.Builder
	numbers map[string]bool
}

// numberRe is any number, for what has been said.
var numberRe = regexp.MustCompile(`\d[\d,]*(?:\.\d+)?`)

// number is a figure's number without its unit or thousands commas.
func number(f string) string {
	return strings.ReplaceAll(numberRe.FindString(f), ",", "")
}

// Add records text as said.
func (s *Seen) Add(texts ...string) {
	if s.numbers == nil {
		s.numbers = map[string]bool{}
	}
	for _, t := range texts {
		s.text.WriteString(squash(t))
		s.text.WriteByte('\x00')
		for _, n := range numberRe.FindAllString(t, -1) {
			s.numbers[strings.ReplaceAll(n, ",", "")] = true
		}
	}
}

// Clone is a copy of what was said so far, which later additions to s do
// not change.
func (s *Seen) Clone() *Seen {
	c := &Seen{numbers: map[string]bool{}}
	c.text.WriteString(s.text.String())
	for n := range s.numbers {
		c.numbers[n] = true
	}
	return c
}

// Has reports whether the quote q was said before.
func (s *Seen) Has(q string) bool { return strings.Contains(s.text.String(), squash(q)) }

// HasFigure reports whether the figure's number was said before.
func (s *Seen) HasFigure(f string) bool { return s.numbers[number(f)] }

// NewEvidence is the new evidence in text: its quotes found in one of
// the materials and not cited before (cited), and its figures nobody
// wrote before (said). Each is returned as it reads in a ledger:
// “a quote”, or "figure 1,800".
func NewEvidence(text string, material []string, cited, said *Seen) []string {
	var out []string
	for _, q := range Quotes(text) {
		if cited != nil && cited.Has(q) {
			continue
		}
		if slices.ContainsFunc(material, func(m string) bool { return strings.Contains(squash(m), squash(q)) }) {
			out = append(out, "“"+engine.OneLine(q, 120)+"”")
		}
	}
	// A figure inside a quote is the quote's, not a figure of the
	// mover's own.
	for _, f := range Figures(quoteRe.ReplaceAllString(text, " ")) {
		if said != nil && said.HasFigure(f) {
			continue
		}
		out = append(out, "figure "+f)
	}
	return out
}

// Title heads the ledger's table and section.
const Title = "Debate ledger: what a plain vote said, and who moved"

// Table is the ledger as a table front ends draw: one row per seat, its
// round-one position and where it ended, then one row per move.
func Table(l engine.DebateLedger, phase engine.Phase, round int) engine.Table {
	t := engine.Table{Phase: phase, Round: round, Title: Title, Columns: []string{"seat", "round one", "moved", "evidence"}}
	for _, p := range l.Positions {
		var moves []engine.Move
		for _, m := range l.Moves {
			if m.Seat == p.Seat {
				moves = append(moves, m)
			}
		}
		who := p.Seat
		if p.Agent != p.Seat {
			who += " · " + p.Agent
		}
		row := engine.Row{Cells: []string{who, engine.OneLine(p.Position, 60), "stayed", ""}, Stance: engine.StanceNeutral}
		if len(moves) > 0 {
			var what, ev []string
			row.Stance = engine.StanceAgree
			for _, m := range moves {
				what = append(what, moveWords(m))
				if m.Conformity {
					row.Stance = engine.StanceDisagree
					ev = append(ev, "none (conformity)")
				} else {
					ev = append(ev, strings.Join(m.Evidence, ", "))
				}
			}
			row.Cells[2], row.Cells[3] = strings.Join(what, "; "), strings.Join(ev, "; ")
		}
		t.Rows = append(t.Rows, row)
	}
	t.Decision = Summary(l)
	return t
}

// moveWords is a move in a few words: "security 2 → 4 (round 1)".
func moveWords(m engine.Move) string {
	s := fmt.Sprintf("%s %s → %s (round %d)", m.On, m.From, m.To, m.Round)
	if m.Toward != "" {
		s += ", toward " + m.Toward
	}
	return s
}

// Summary says in one sentence what the vote said, what the debate
// concluded, and how many moves came without new evidence.
func Summary(l engine.DebateLedger) string {
	s := fmt.Sprintf("a plain vote (%s) said %s; the debate concluded %s", l.VoteRule, l.Vote, l.Result)
	if l.Changed {
		s += ": the debate changed the result"
	} else {
		s += ": the same result"
	}
	conform := 0
	for _, m := range l.Moves {
		if m.Conformity {
			conform++
		}
	}
	switch {
	case len(l.Moves) == 0:
		s += "; nobody moved"
	default:
		s += fmt.Sprintf("; %s, %d without new evidence (conformity)", engine.Plural(len(l.Moves), "move"), conform)
	}
	return s
}

// Section is the outcome document's section on the ledger.
func Section(l engine.DebateLedger) doc.Section {
	rows := [][]string{}
	for _, p := range l.Positions {
		rows = append(rows, []string{p.Seat + " (" + p.Agent + ")", p.Position, engine.OrDash(engine.OneLine(p.Detail, 200))})
	}
	changed := "**The debate did not change the result.**"
	if l.Changed {
		changed = "**The debate changed the result.**"
	}
	blocks := []doc.Block{
		doc.Para("What each seat held before any debate, what a plain vote of those positions would have concluded, and who moved during the debate. A move counts as backed by new evidence when it came with a quote from the material the mover had not cited before, or a figure nobody had given before (found by arena); a move without either is flagged as conformity."),
		doc.TableOf([]string{"Seat", "Round one", "On"}, rows),
		doc.Para(fmt.Sprintf("**Plain vote** (%s): %s.  \n**After the debate:** %s.  \n%s", l.VoteRule, l.Vote, l.Result, changed)),
	}
	if len(l.Moves) == 0 {
		blocks = append(blocks, doc.Para("Nobody moved."))
	} else {
		var moves []string
		for _, m := range l.Moves {
			w := fmt.Sprintf("%s (%s): %s — ", m.Seat, m.Agent, moveWords(m))
			if m.Conformity {
				w += "⚠ **no new evidence (conformity)**"
			} else {
				w += "with new evidence: " + strings.Join(m.Evidence, ", ")
			}
			moves = append(moves, w)
		}
		blocks = append(blocks, doc.Bullets("Moves:", moves...))
	}
	return doc.Section{ID: "ledger", Heading: "Debate ledger", Restates: &doc.Restates{Tables: []string{Title}}, Blocks: blocks}
}
