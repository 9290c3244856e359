package receipt

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestOrdersAreCounterbalanced(t *testing.T) {
	got := Orders([]int{2, 0, 1}, 6)
	want := [][]int{{2, 0, 1}, {1, 0, 2}, {0, 1, 2}, {2, 1, 0}, {1, 2, 0}, {0, 2, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Orders = %v, want %v", got, want)
	}
	// Every candidate in every position exactly twice over the six.
	for pos := 0; pos < 3; pos++ {
		count := map[int]int{}
		for _, o := range got {
			count[o[pos]]++
		}
		for c := 0; c < 3; c++ {
			if count[c] != 2 {
				t.Fatalf("position %d shows candidate %d %d times", pos, c, count[c])
			}
		}
	}
	if got := Orders([]int{0, 1}, 5); !reflect.DeepEqual(got, [][]int{{0, 1}, {1, 0}}) {
		t.Fatalf("two candidates: %v", got)
	}
	if MaxOrders(2) != 2 || MaxOrders(3) != 6 || MaxOrders(4) != 8 {
		t.Fatalf("MaxOrders: %d %d %d", MaxOrders(2), MaxOrders(3), MaxOrders(4))
	}
	if got := Orders([]int{3, 1}, 1); !reflect.DeepEqual(got, [][]int{{3, 1}}) {
		t.Fatalf("one order: %v", got)
	}
}

func reading(shown []int, pick int, scores ...float64) Reading {
	return Reading{Shown: shown, Scores: scores, Pick: pick}
}

func TestPairsHeldFlippedAndLevelled(t *testing.T) {
	names := []string{"A", "B", "C"}
	rs := []Reading{
		reading([]int{0, 1, 2}, 0, 5, 2, 3),
		reading([]int{2, 1, 0}, 2, 2, 3, 5),
	}
	ps := Pairs(3, rs)
	// A–B flipped, A–C flipped, B–C: C over B in both.
	if len(ps) != 3 || !ps[0].Flipped() || !ps[1].Flipped() || !ps[2].Held() || ps[2].Winner() != 2 {
		t.Fatalf("pairs %+v", ps)
	}
	if w := ps[0].Words(names); w != "A and B flipped (A over B in 1 of 2 orders, B over A in 1) — counted as a tie" {
		t.Fatalf("words %q", w)
	}
	if w := ps[2].Words(names); w != "C over B in 2 of 2 orders" {
		t.Fatalf("words %q", w)
	}
	avg, groups := Level(3, rs)
	// Averages 3.5, 2.5, 4; A, B and C are linked by the flips (A–B and
	// A–C): all three share (3.5+2.5+4)/3.
	if !reflect.DeepEqual(groups, [][]int{{0, 1, 2}}) {
		t.Fatalf("groups %v", groups)
	}
	for _, v := range avg {
		if math.Abs(v-10.0/3) > 1e-12 {
			t.Fatalf("avg %v", avg)
		}
	}
	var tl Tally
	tl.AddPairs(ps)
	tl.AddPicks(rs)
	if tl.Decisive != 3 || tl.NotHeld != 2 || tl.Flipped != 2 || tl.Picks != 2 || tl.First != 2 || math.Abs(tl.Chance-2.0/3) > 1e-12 {
		t.Fatalf("tally %+v", tl)
	}
	if !strings.Contains(tl.Words(), "2 of 3 decisive preferences did not hold") || !strings.Contains(tl.Words(), "picked in 2 of 2 readings (0.7 expected by chance)") {
		t.Fatalf("words %q", tl.Words())
	}
}

func TestAPreferenceLevelInOneOrderIsNotHeld(t *testing.T) {
	rs := []Reading{reading([]int{0, 1}, -1, 4, 4), reading([]int{1, 0}, -1, 4, 3)}
	p := Pairs(2, rs)[0]
	if p.Held() || p.Flipped() || !p.Decisive() {
		t.Fatalf("%+v", p)
	}
	if w := p.Words([]string{"x", "y"}); w != "x over y in only 1 of 2 orders (level in the rest) — counted as a tie" {
		t.Fatal(w)
	}
	avg, groups := Level(2, rs)
	if avg[0] != 3.75 || avg[1] != 3.75 || len(groups) != 1 {
		t.Fatalf("%v %v", avg, groups)
	}
	// Level in every order: not decisive, nothing levelled by the rule
	// (the averages are equal anyway), and no flip counted.
	rs = []Reading{reading([]int{0, 1}, -1, 3, 3), reading([]int{1, 0}, -1, 3, 3)}
	var tl Tally
	tl.AddPairs(Pairs(2, rs))
	if tl.Decisive != 0 {
		t.Fatalf("%+v", tl)
	}
}

func TestAHeldPreferenceKeepsItsMargin(t *testing.T) {
	rs := []Reading{reading([]int{0, 1}, 0, 5, 3), reading([]int{1, 0}, 0, 4, 3)}
	avg, groups := Level(2, rs)
	if avg[0] != 4.5 || avg[1] != 3 || groups != nil {
		t.Fatalf("%v %v", avg, groups)
	}
	p := PicksOf(rs)
	if p.Held() != 0 || p.Words([]string{"Kafka", "NATS"}) != "picked Kafka in 2 of 2 orders" {
		t.Fatalf("%v %q", p.Held(), p.Words([]string{"Kafka", "NATS"}))
	}
	rs[1].Pick = 1
	p = PicksOf(rs)
	if p.Held() != -1 || p.Words([]string{"Kafka", "NATS"}) != "the pick flipped (Kafka in 1 of 2 orders, NATS in 1) — counted as a tie" {
		t.Fatalf("%q", p.Words([]string{"Kafka", "NATS"}))
	}
}

func TestMissingScoresAreLeftOut(t *testing.T) {
	rs := []Reading{reading([]int{0, 1}, -1, 5, math.NaN()), reading([]int{1, 0}, -1, 4, 2)}
	p := Pairs(2, rs)[0]
	if p.Orders() != 1 || !p.Held() {
		t.Fatalf("%+v", p)
	}
	var tl Tally
	tl.AddPairs([]Pair{p}) // one order says nothing about the order
	if tl.Decisive != 0 {
		t.Fatalf("%+v", tl)
	}
	avg, _ := Level(3, rs)
	if avg[0] != 4.5 || avg[1] != 2 || !math.IsNaN(avg[2]) {
		t.Fatalf("%v", avg)
	}
}

// Repeats are counted order by order: a pair whose every asking of an
// order gave the same preference (a tie each time included) is stable;
// the first askings alone are the orders' readings.
func TestRepeatsAreCountedOrderByOrder(t *testing.T) {
	rs := []Reading{
		{Shown: []int{0, 1}, Scores: []float64{5, 3}, Pick: 0},
		{Shown: []int{0, 1}, Scores: []float64{3, 5}, Pick: 1, Repeat: 1},
		{Shown: []int{1, 0}, Scores: []float64{4, 4}, Pick: -1, Order: 1},
		{Shown: []int{1, 0}, Scores: []float64{2, 2}, Pick: -1, Order: 1, Repeat: 1},
	}
	var tl Tally
	tl.AddRepeats(2, rs)
	if tl.Repeated != 2 || tl.Stable != 1 {
		t.Fatalf("tally %+v", tl)
	}
	if !strings.Contains(tl.Words(), "asked again in the same order, 1 of 2 pairs kept the same preference") {
		t.Fatalf("words %q", tl.Words())
	}
	if f := First(rs); len(f) != 2 || f[1].Order != 1 {
		t.Fatalf("first askings %+v", f)
	}
	if w := Pairs(2, rs)[0].WordsIn([]string{"x", "y"}, "reading"); w != "x and y flipped (x over y in 1 of 4 readings, y over x in 1) — counted as a tie" {
		t.Fatal(w)
	}
	if w := PicksOf(rs[:2]).WordsIn([]string{"x", "y"}, "reading"); w != "the pick flipped (x in 1 of 2 readings, y in 1) — counted as a tie" {
		t.Fatal(w)
	}
}
