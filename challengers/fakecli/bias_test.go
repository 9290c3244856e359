package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
	"github.com/arenadebate/arena/challengers/trust"
)

// rankPrompt is a rank judge's prompt in arena's shape: candidates under
// letters, each with its facts fenced.
func rankPrompt(facts ...string) string {
	var b strings.Builder
	b.WriteString(`You are the Security judge.` + "\n")
	for i, f := range facts {
		l := string(rune('A' + i))
		b.WriteString("\nCANDIDATE " + l + "\n" + trust.Fence("facts about candidate "+l, f) + "\n")
	}
	b.WriteString("\nYOUR TASK\n" + `{"dimension": "security"}` + "\nREPLY SHAPE: rank.judge\n")
	return b.String()
}

func rankScores(t *testing.T, bias *fakeapi.Bias, prompt string) (map[string]int, []string) {
	t.Helper()
	var r struct {
		Scores  map[string]struct{ Score int }
		Ranking []string
	}
	if err := json.Unmarshal([]byte(canned("qwen", bias, "rank.judge", prompt)), &r); err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for l, s := range r.Scores {
		out[l] = s.Score
	}
	return out, r.Ranking
}

func TestBiasedRankJudges(t *testing.T) {
	q := `"file": "q(\d)\.go"`
	// Quality: each candidate's score is the one its facts hold, whatever
	// its letter.
	sc, rk := rankScores(t, &fakeapi.Bias{Quality: q}, rankPrompt(`{"file": "q2.go"}`, `{"file": "q4.go"}`))
	if sc["A"] != 2 || sc["B"] != 4 || rk[0] != "B" {
		t.Fatalf("quality: %v %v", sc, rk)
	}
	// First shown: A 5, the others 2, whatever the facts.
	sc, rk = rankScores(t, &fakeapi.Bias{FirstShown: true}, rankPrompt(`{"file": "q2.go"}`, `{"file": "q4.go"}`))
	if sc["A"] != 5 || sc["B"] != 2 || rk[0] != "A" {
		t.Fatalf("first shown: %v %v", sc, rk)
	}
	// Own: the candidate holding the mark gets 2 points more.
	sc, _ = rankScores(t, &fakeapi.Bias{Quality: q, Own: "zebra"}, rankPrompt(`{"file": "q2.go", "style": "zebra"}`, `{"file": "q3.go"}`))
	if sc["A"] != 4 || sc["B"] != 3 {
		t.Fatalf("own: %v", sc)
	}
}

func TestBiasedCompareAndSolutionJudges(t *testing.T) {
	prompt := "TOPIC\nqueues\n\nOPTIONS, in the order you should consider them\n1. Zed\n2. Alpha\n\nCRITERIA\n- speed: high\n\n" +
		trust.Fence("opening for Zed", "Zed is fast") + "\n" + trust.Fence("opening for Alpha", "Alpha is fast") + "\nREPLY SHAPE: compare.judge\n"
	var j struct{ Recommendation string }
	json.Unmarshal([]byte(canned("qwen", nil, "compare.judge", prompt)), &j)
	if j.Recommendation != "Alpha" {
		t.Fatalf("unbiased: %q", j.Recommendation)
	}
	json.Unmarshal([]byte(canned("qwen", &fakeapi.Bias{FirstShown: true}, "compare.judge", prompt)), &j)
	if j.Recommendation != "Zed" {
		t.Fatalf("first shown: %q", j.Recommendation)
	}
	analysis := "TASK\nx\n\nCRITERIA\n- correctness (weight 60%)\n- docs (weight 40%)\n\n" + trust.Fence("main.go", "// zebra\nfunc main() {}") + "\nREPLY SHAPE: judge.analysis\n"
	var a struct{ Scores []struct{ Score int } }
	json.Unmarshal([]byte(canned("qwen", &fakeapi.Bias{Own: "zebra"}, "judge.analysis", analysis)), &a)
	if len(a.Scores) != 2 || a.Scores[0].Score != 5 || a.Scores[1].Score != 5 {
		t.Fatalf("own solution: %+v", a)
	}
}

// An unbiased fake judge scores a candidate by its facts, whatever letter
// (and fence nonce) they come under.
func TestTheCannedRankJudgeFollowsTheFacts(t *testing.T) {
	a, b := `{"finding": "alpha"}`, `{"finding": "beta, much longer"}`
	ab, _ := rankScores(t, nil, rankPrompt(a, b))
	ba, _ := rankScores(t, nil, rankPrompt(b, a))
	if ab["A"] != ba["B"] || ab["B"] != ba["A"] {
		t.Fatalf("scores depend on the order: %v / %v", ab, ba)
	}
}
