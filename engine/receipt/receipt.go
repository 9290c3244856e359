// Package receipt is arena's account of how far a comparative judgement
// depended on the order its candidates were shown in. A judge is asked
// the same judgement in several counterbalanced orders; for every pair of
// candidates arena counts the orders in which each was preferred, and a
// preference that did not hold in every order (it flipped, or was a tie in
// some order) counts as a tie, never a win — the rule of the MT-Bench
// study, where even a strong judge kept its pick under a swap of the two
// answers only 65% of the time. Everything here is arithmetic on parsed
// scores: no model computes any of it.
package receipt

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/arenadebate/arena/engine"
)

// Orders returns up to k counterbalanced orders of base: base itself,
// its reverse, then each rotation of base followed by its reverse, with
// no order twice. Over 2n orders every candidate is shown in every
// position equally often. It returns fewer than k when fewer distinct
// orders exist (two candidates have two).
func Orders(base []int, k int) [][]int {
	var out [][]int
	add := func(o []int) {
		if len(out) < k && !slices.ContainsFunc(out, func(x []int) bool { return slices.Equal(x, o) }) {
			out = append(out, o)
		}
	}
	for r := 0; r < max(len(base), 1) && len(out) < k; r++ {
		rot := append(slices.Clone(base[r:]), base[:r]...)
		add(rot)
		rev := slices.Clone(rot)
		slices.Reverse(rev)
		add(rev)
	}
	return out
}

// MaxRepeats is how many times a judgement's order may be asked
// (--repeats): each asking is a paid call.
const MaxRepeats = 10

// MaxOrders is how many distinct orders Orders gives for n candidates.
func MaxOrders(n int) int {
	base := make([]int, n)
	for i := range base {
		base[i] = i
	}
	return len(Orders(base, 2*n+2))
}

// Reading is a judge's answer in one order.
type Reading struct {
	// Shown is the candidates (0..n-1) in the order shown.
	Shown []int
	// Scores are by candidate; NaN where the judge gave none.
	Scores []float64
	// Pick is the candidate the judge chose; -1 when it did not choose.
	Pick int
	// Order is which of the judgement's counterbalanced orders it was
	// asked in, Repeat which asking of that order it is (0: the first;
	// --repeats asks the same order again).
	Order, Repeat int
}

// First are the readings that are no repeat: each order as first asked.
// The order's figures (the flip rate) read these alone: a repeat is no
// order of its own.
func First(readings []Reading) []Reading {
	var out []Reading
	for _, r := range readings {
		if r.Repeat == 0 {
			out = append(out, r)
		}
	}
	return out
}

// NoScores is a slice of n NaNs, for a reading that only picks.
func NoScores(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}

// Pair is the receipt of one pair of candidates over the orders.
type Pair struct {
	A, B int // A < B
	// AOver and BOver count the orders in which A (B) scored higher;
	// Level those in which they scored the same.
	AOver, BOver, Level int
}

// Orders is how many orders scored both.
func (p Pair) Orders() int { return p.AOver + p.BOver + p.Level }

// Decisive: the judge preferred one of them in at least one order.
func (p Pair) Decisive() bool { return p.AOver+p.BOver > 0 }

// Flipped: A was preferred in one order and B in another.
func (p Pair) Flipped() bool { return p.AOver > 0 && p.BOver > 0 }

// Held: one was preferred in every order. A decisive pair that did not
// hold counts as a tie.
func (p Pair) Held() bool {
	n := p.Orders()
	return n > 0 && (p.AOver == n || p.BOver == n)
}

// Winner is the candidate preferred in every order; -1 when none was.
func (p Pair) Winner() int {
	switch {
	case !p.Held():
		return -1
	case p.AOver > 0:
		return p.A
	}
	return p.B
}

// Words say how the pair fared, naming candidates by names:
// "A over B in 2 of 2 orders", "A and B flipped (A over B in 1 of 2
// orders, B over A in 1) — counted as a tie".
func (p Pair) Words(names []string) string { return p.WordsIn(names, "order") }

// WordsIn say the same, counting the readings as unit ("order", or
// "reading" when an order was asked again).
func (p Pair) WordsIn(names []string, unit string) string {
	a, b := names[p.A], names[p.B]
	orders := func(n int) string { return plural(n, unit) }
	n := p.Orders()
	if p.BOver > p.AOver {
		a, b = b, a
	}
	hi, lo := max(p.AOver, p.BOver), min(p.AOver, p.BOver)
	switch {
	case n == 0:
		return fmt.Sprintf("%s and %s: not scored", a, b)
	case p.Held():
		return fmt.Sprintf("%s over %s in %d of %d %s", a, b, hi, n, orders(n))
	case !p.Decisive():
		return fmt.Sprintf("%s and %s level in %d of %d %s", a, b, n, n, orders(n))
	case p.Flipped():
		return fmt.Sprintf("%s and %s flipped (%s over %s in %d of %d %s, %s over %s in %d) — counted as a tie", a, b, a, b, hi, n, orders(n), b, a, lo)
	}
	return fmt.Sprintf("%s over %s in only %d of %d %s (level in the rest) — counted as a tie", a, b, hi, n, orders(n))
}

func plural(n int, unit string) string {
	if n == 1 {
		return unit
	}
	return unit + "s"
}

// Pairs counts, for every pair of the n candidates, the orders in which
// each was preferred. A reading that did not score both is left out of
// that pair.
func Pairs(n int, readings []Reading) []Pair {
	var out []Pair
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			p := Pair{A: a, B: b}
			for _, r := range readings {
				sa, sb := at(r.Scores, a), at(r.Scores, b)
				switch {
				case math.IsNaN(sa) || math.IsNaN(sb):
				case sa > sb:
					p.AOver++
				case sb > sa:
					p.BOver++
				default:
					p.Level++
				}
			}
			out = append(out, p)
		}
	}
	return out
}

func at(s []float64, i int) float64 {
	if i < len(s) {
		return s[i]
	}
	return math.NaN()
}

// Level is each candidate's score averaged over the readings, with the
// preferences that did not hold counted as ties: the candidates linked by
// a decisive pair that did not hold share the mean of their averages, so
// neither can win on what the order gave it. groups lists the candidates
// levelled together (each group sorted, two or more). A candidate no
// reading scored averages NaN.
func Level(n int, readings []Reading) (avg []float64, groups [][]int) {
	avg = make([]float64, n)
	for c := range avg {
		sum, k := 0.0, 0
		for _, r := range readings {
			if s := at(r.Scores, c); !math.IsNaN(s) {
				sum += s
				k++
			}
		}
		avg[c] = math.NaN()
		if k > 0 {
			avg[c] = sum / float64(k)
		}
	}
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	for _, p := range Pairs(n, readings) {
		if p.Decisive() && !p.Held() {
			parent[find(p.A)] = find(p.B)
		}
	}
	members := map[int][]int{}
	for c := 0; c < n; c++ {
		members[find(c)] = append(members[find(c)], c)
	}
	for c := 0; c < n; c++ {
		g := members[find(c)]
		if len(g) < 2 || g[0] != c {
			continue
		}
		groups = append(groups, g)
		sum := 0.0
		for _, m := range g {
			sum += avg[m]
		}
		for _, m := range g {
			avg[m] = sum / float64(len(g))
		}
	}
	return avg, groups
}

// Picks is the receipt of the judge's choices over the orders.
type Picks struct {
	// Picks are the chosen candidate of each reading (-1: none).
	Picks []int
}

// PicksOf collects the readings' picks.
func PicksOf(readings []Reading) Picks {
	var p Picks
	for _, r := range readings {
		p.Picks = append(p.Picks, r.Pick)
	}
	return p
}

// Held is the candidate picked in every reading; -1 when the pick
// changed with the order (counted as a tie) or a reading did not pick.
func (p Picks) Held() int {
	if len(p.Picks) == 0 {
		return -1
	}
	for _, c := range p.Picks {
		if c < 0 || c != p.Picks[0] {
			return -1
		}
	}
	return p.Picks[0]
}

// Words say how the picks fared: "picked Kafka in 2 of 2 orders",
// "the pick flipped (Kafka in 1 of 2 orders, Postgres in 1) — counted as
// a tie".
func (p Picks) Words(names []string) string { return p.WordsIn(names, "order") }

// WordsIn say the same, counting the readings as unit.
func (p Picks) WordsIn(names []string, unit string) string {
	n := len(p.Picks)
	orders := func(n int) string { return plural(n, unit) }
	if w := p.Held(); w >= 0 {
		return fmt.Sprintf("picked %s in %d of %d %s", names[w], n, n, orders(n))
	}
	count := map[int]int{}
	var seen []int
	for _, c := range p.Picks {
		if count[c] == 0 {
			seen = append(seen, c)
		}
		count[c]++
	}
	var parts []string
	for i, c := range seen {
		name := "no pick"
		if c >= 0 {
			name = names[c]
		}
		if i == 0 {
			parts = append(parts, fmt.Sprintf("%s in %d of %d %s", name, count[c], n, orders(n)))
		} else {
			parts = append(parts, fmt.Sprintf("%s in %d", name, count[c]))
		}
	}
	return "the pick flipped (" + strings.Join(parts, ", ") + ") — counted as a tie"
}

// Tally adds up a run's (or many runs') receipts: how many decisive
// preferences did not hold across the orders, and how often the judge
// picked the candidate it was shown first.
type Tally struct {
	Decisive int // pairs preferred one way in at least one order
	NotHeld  int // of which the preference did not hold in every order
	Flipped  int // of which each was preferred in some order
	Picks    int // readings with a pick among two or more candidates
	First    int // of which the pick was the candidate shown first
	// Chance is the number of first-shown picks expected by chance: the
	// sum over the picks of 1/(candidates shown).
	Chance float64
	// Repeated counts the pairs of candidates an order scored in two or
	// more askings (--repeats), each order apart; Stable those whose every
	// asking gave the same preference, ties included.
	Repeated, Stable int
}

// AddPairs counts pairs' receipts (only those asked in two or more
// orders say anything about the order).
func (t *Tally) AddPairs(pairs []Pair) {
	for _, p := range pairs {
		if p.Orders() < 2 || !p.Decisive() {
			continue
		}
		t.Decisive++
		if !p.Held() {
			t.NotHeld++
		}
		if p.Flipped() {
			t.Flipped++
		}
	}
}

// AddPicks counts which position each reading's pick was shown in.
func (t *Tally) AddPicks(readings []Reading) {
	for _, r := range readings {
		if r.Pick < 0 || len(r.Shown) < 2 {
			continue
		}
		t.Picks++
		if r.Shown[0] == r.Pick {
			t.First++
		}
		t.Chance += 1 / float64(len(r.Shown))
	}
}

// AddRepeats counts, for every order of the readings asked two or more
// times, every pair of the n candidates those askings scored twice or
// more: whether every asking gave the same preference (the same
// candidate, or a tie each time). arena stats calls the share repeat
// stability.
func (t *Tally) AddRepeats(n int, readings []Reading) {
	byOrder := map[int][]Reading{}
	var orders []int
	for _, r := range readings {
		if byOrder[r.Order] == nil {
			orders = append(orders, r.Order)
		}
		byOrder[r.Order] = append(byOrder[r.Order], r)
	}
	for _, o := range orders {
		if len(byOrder[o]) < 2 {
			continue
		}
		for _, p := range Pairs(n, byOrder[o]) {
			if k := p.Orders(); k >= 2 {
				t.Repeated++
				if p.AOver == k || p.BOver == k || p.Level == k {
					t.Stable++
				}
			}
		}
	}
}

// Add adds another tally.
func (t *Tally) Add(o Tally) {
	t.Decisive += o.Decisive
	t.NotHeld += o.NotHeld
	t.Flipped += o.Flipped
	t.Picks += o.Picks
	t.First += o.First
	t.Chance += o.Chance
	t.Repeated += o.Repeated
	t.Stable += o.Stable
}

// Words say the run's flip rate and first-position rate with their
// counts: "1 of 5 decisive preferences did not hold across the orders
// (1 flipped); the first-shown candidate was picked in 3 of 4 readings
// (2 by chance)".
func (t Tally) Words() string {
	var parts []string
	if t.Decisive > 0 {
		s := fmt.Sprintf("%d of %s did not hold across the orders", t.NotHeld, engine.Plural(t.Decisive, "decisive preference"))
		if t.Flipped > 0 {
			s += fmt.Sprintf(" (%d flipped outright)", t.Flipped)
		}
		parts = append(parts, s)
	} else {
		parts = append(parts, "no decisive preference was asked in two or more orders")
	}
	if t.Picks > 0 {
		parts = append(parts, fmt.Sprintf("the first-shown candidate was picked in %d of %s (%.1f expected by chance)", t.First, engine.Plural(t.Picks, "reading"), t.Chance))
	}
	if t.Repeated > 0 {
		parts = append(parts, fmt.Sprintf("asked again in the same order, %d of %s kept the same preference", t.Stable, engine.Plural(t.Repeated, "pair")))
	}
	return strings.Join(parts, "; ")
}

// Rows are a receipts table's rows from lines ("what: words") and whether
// each held: a receipt that did not hold is drawn as a disagreement.
func Rows(lines []string, held []bool) []engine.Row {
	rows := make([]engine.Row, 0, len(lines))
	for i, l := range lines {
		what, words, _ := strings.Cut(l, ": ")
		st := engine.StanceAgree
		if !held[i] {
			st = engine.StanceDisagree
		}
		rows = append(rows, engine.Row{Cells: []string{what, words}, Stance: st})
	}
	return rows
}
