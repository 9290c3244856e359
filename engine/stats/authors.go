package stats

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"sort"
)

// Author is a model as the author of work judged in runs: its
// Bradley–Terry rating from the pairwise results (see BradleyTerry),
// on the rating-points scale (EloScale), with a 95% interval.
//
// Every pair of candidates of one ranking is a game of its own, so a
// ranking of four authors is six games that one judging decided
// together. The interval ±1.96 standard errors (SELow, SEHigh) treats
// them as independent and is too narrow when they are not; from MinRuns
// runs the interval shown (Low, High) is a bootstrap that resamples whole
// runs and refits, which keeps each ranking's games together.
type Author struct {
	Name   string  `json:"author"`
	Rating float64 `json:"rating"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
	// Interval says how Low and High were computed.
	Interval string  `json:"interval,omitempty"`
	SELow    float64 `json:"se_low"`
	SEHigh   float64 `json:"se_high"`
	Theta    float64 `json:"theta"`
	SE       float64 `json:"se"`
	// Runs counts the runs its games come from.
	Runs int `json:"runs"`
	// Games counts its pairwise results; Wins, Losses, Ties them.
	Games  int    `json:"games"`
	Wins   int    `json:"wins"`
	Losses int    `json:"losses"`
	Ties   int    `json:"ties"`
	Shown  bool   `json:"shown"`
	Note   string `json:"note,omitempty"`
	// Group numbers the authors rated together: ratings compare only
	// within a group (authors whose work never met stand apart).
	Group int `json:"group"`
}

// IntervalSE is the ratings' interval when too few runs can be
// resampled: ±1.96 standard errors, every pair an independent game.
const IntervalSE = "±1.96 SE, pairs as independent games, 95%"

// authors rates the authors of the runs' candidates: every pair of
// candidates of a run, by different known authors, is a game the better
// placed won (a tie when placed level, counted as half a win to each).
func authors(runs []Run) []Author {
	names, games := authorGames(runs)
	if len(names) == 0 {
		return nil
	}
	out, _ := tallyGames(names, games)
	rateGroups(out, games)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Group != out[j].Group {
			return out[i].Group < out[j].Group
		}
		return out[i].Theta > out[j].Theta
	})
	return out
}

// game is one pair of candidates by different authors, a and b indices
// of the authors' names, in run run.
type game struct {
	a, b   int
	result float64 // 1: a won, 0: b won, 0.5: a tie
	run    int
}

// authorGames are the games of the runs' placed candidates, with the
// authors' names in the order they first played.
func authorGames(runs []Run) ([]string, []game) {
	var names []string
	idx := map[string]int{}
	var games []game
	for ri, r := range runs {
		if r.Placed == nil {
			continue
		}
		cs := r.Placed.Candidates
		for i := range cs {
			for j := i + 1; j < len(cs); j++ {
				x, y := cs[i], cs[j]
				if x.Author == "" || y.Author == "" || x.Author == y.Author {
					continue
				}
				for _, n := range []string{x.Author, y.Author} {
					if _, ok := idx[n]; !ok {
						idx[n] = len(names)
						names = append(names, n)
					}
				}
				g := game{a: idx[x.Author], b: idx[y.Author], result: 0.5, run: ri}
				switch {
				case x.Place < y.Place:
					g.result = 1
				case x.Place > y.Place:
					g.result = 0
				}
				games = append(games, g)
			}
		}
	}
	return names, games
}

// tallyGames counts each author's games, wins, losses and ties, and returns
// them with wins[i][j], the games author i won against j (a tie half to
// each).
func tallyGames(names []string, games []game) ([]Author, [][]float64) {
	out := make([]Author, len(names))
	for i := range out {
		out[i].Name = names[i]
	}
	runs := make([]map[int]bool, len(names))
	for i := range runs {
		runs[i] = map[int]bool{}
	}
	for _, g := range games {
		out[g.a].Games++
		out[g.b].Games++
		runs[g.a][g.run], runs[g.b][g.run] = true, true
		switch g.result {
		case 1:
			out[g.a].Wins++
			out[g.b].Losses++
		case 0:
			out[g.b].Wins++
			out[g.a].Losses++
		default:
			out[g.a].Ties++
			out[g.b].Ties++
		}
	}
	for i := range out {
		out[i].Runs = len(runs[i])
	}
	return out, winsOf(len(names), games)
}

// winsOf is wins[i][j] of n players: the games i won against j, a tie
// half to each.
func winsOf(n int, games []game) [][]float64 {
	wins := square(n)
	for _, g := range games {
		wins[g.a][g.b] += g.result
		wins[g.b][g.a] += 1 - g.result
	}
	return wins
}

// rateGroups numbers the groups of authors whose work met, and rates each
// group of two or more by Bradley–Terry, on the Elo scale with its 95%
// interval; an author alone, or in a group that cannot be rated, gets a
// note saying why instead.
func rateGroups(out []Author, games []game) {
	for gi, comp := range Components(winsOf(len(out), games)) {
		for _, i := range comp {
			out[i].Group = gi + 1
		}
		if len(comp) < 2 {
			for _, i := range comp {
				out[i].Note = "its work never met another author's"
			}
			continue
		}
		sub := groupGames(comp, games)
		rs, err := BradleyTerry(winsOf(len(comp), sub))
		if err != nil {
			for _, i := range comp {
				out[i].Note = err.Error()
			}
			continue
		}
		low, high, ok := clusterInterval(out, comp, sub)
		for x, i := range comp {
			a := &out[i]
			a.Theta, a.SE = rs[x].Theta, rs[x].SE
			a.Rating = EloScale(a.Theta)
			a.SELow, a.SEHigh = EloScale(a.Theta-z95*a.SE), EloScale(a.Theta+z95*a.SE)
			a.Low, a.High, a.Interval = a.SELow, a.SEHigh, IntervalSE
			if ok {
				a.Low, a.High, a.Interval = EloScale(low[x]), EloScale(high[x]), IntervalBootstrap
			}
			a.Shown = a.Games >= MinCases
			if !a.Shown {
				a.Note = fmt.Sprintf("too few runs: %d games, %d needed", a.Games, MinCases)
			}
		}
	}
}

// groupGames are the games among the authors of comp, renumbered by their
// place in it.
func groupGames(comp []int, games []game) []game {
	var out []game
	for _, g := range games {
		a, b := slices.Index(comp, g.a), slices.Index(comp, g.b)
		if a >= 0 && b >= 0 {
			out = append(out, game{a: a, b: b, result: g.result, run: g.run})
		}
	}
	return out
}

// clusterInterval is the 95% percentile interval of each author's θ over
// Bootstraps resamples of the group's runs, each run's games drawn
// together, refitted; ok is false with fewer than MinRuns runs, or when
// more than half the resamples could not be rated (an author left
// without games, the group split).
func clusterInterval(out []Author, comp []int, games []game) (low, high []float64, ok bool) {
	byRun := map[int][]game{}
	var ids []int
	for _, g := range games {
		if byRun[g.run] == nil {
			ids = append(ids, g.run)
		}
		byRun[g.run] = append(byRun[g.run], g)
	}
	if len(ids) < MinRuns {
		return nil, nil, false
	}
	sort.Ints(ids)
	h := fnv.New64a()
	for _, i := range comp {
		h.Write([]byte(out[i].Name + "\x00"))
	}
	rng := rand.New(rand.NewPCG(h.Sum64(), 39))
	thetas := make([][]float64, len(comp))
	for range Bootstraps {
		var draw []game
		for range ids {
			draw = append(draw, byRun[ids[rng.IntN(len(ids))]]...)
		}
		wins := winsOf(len(comp), draw)
		if len(Components(wins)) != 1 {
			continue
		}
		rs, err := BradleyTerry(wins)
		if err != nil {
			continue
		}
		for x := range comp {
			thetas[x] = append(thetas[x], rs[x].Theta)
		}
	}
	if len(thetas[0])*2 <= Bootstraps {
		return nil, nil, false
	}
	low, high = make([]float64, len(comp)), make([]float64, len(comp))
	for x := range comp {
		slices.Sort(thetas[x])
		low[x], high[x] = quantile(thetas[x], 0.025), quantile(thetas[x], 0.975)
	}
	return low, high, true
}
