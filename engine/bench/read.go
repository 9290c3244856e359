// Package bench scores a panel of judges on a file of labelled pairs (arena
// bench): each judge reads each pair in both orders, each order asked
// --repeats times, and arena computes from the parsed picks how often the
// panel agrees with the labels, keeps its pick under a swap, favours the
// answer shown first, and agrees with itself and with the other judges.
package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
)

// MaxFileBytes bounds a benchmark file: JudgeBench's is under 5 MB, and
// MT-Bench's human judgments about 30 MB.
const MaxFileBytes = 128 << 20

// The layouts arena reads, as their files are published.
const (
	// LayoutJudgeBench is JudgeBench's (Tan et al., ICLR 2025):
	// {"pair_id", "question", "response_A", "response_B", "label": "A>B"|"B>A"}.
	LayoutJudgeBench = "judgebench"
	// LayoutMTBench is MT-Bench's human judgments (Zheng et al., 2023):
	// {"question_id", "model_a", "model_b", "winner": "model_a"|"model_b"|"tie",
	// "judge", "conversation_a", "conversation_b", "turn"}.
	LayoutMTBench = "mt-bench-human"
)

// A label, in the file's own terms: its answer A, its answer B, or a tie.
const (
	LabelA   = "A"
	LabelB   = "B"
	LabelTie = "tie"
)

// Pair is one labelled pair: a question, two answers, and the labels the
// file gives it (one per human who judged it, in MT-Bench's).
type Pair struct {
	ID       string
	Question string
	A, B     string
	Labels   []string
}

// Set is a benchmark file read: its layout and its pairs, in file order.
type Set struct {
	Layout string
	Pairs  []Pair
	// SHA256 is the hash of the bytes read: a results file holds the
	// answers to this content only.
	SHA256 string
}

// Read reads the benchmark file at path, JSON Lines in one of the
// layouts, which it tells from the first line's fields. A line that is
// not of the layout is refused, naming the line.
func Read(path string) (Set, error) {
	data, err := trust.ReadFile(path, MaxFileBytes)
	if err != nil {
		return Set{}, inputs.Cause(err, "benchmark file %v", err)
	}
	set := Set{SHA256: engine.Hash(string(data))}
	byID := map[string]int{}
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var f map[string]json.RawMessage
		if err := json.Unmarshal(line, &f); err != nil {
			return Set{}, inputs.Errorf("%s:%d: not a JSON object: %v", trust.Text(path), i+1, err)
		}
		if set.Layout == "" {
			if set.Layout = layoutOf(f); set.Layout == "" {
				return Set{}, inputs.Errorf("%s:%d: neither JudgeBench's layout (question, response_A, response_B, label) nor MT-Bench's human judgments (question_id, conversation_a, conversation_b, winner)", trust.Text(path), i+1)
			}
		}
		p, err := pairOf(set.Layout, f)
		if err != nil {
			return Set{}, inputs.Errorf("%s:%d: %v", trust.Text(path), i+1, err)
		}
		if j, ok := byID[p.ID]; ok {
			// Another human's label of the same pair (MT-Bench's).
			set.Pairs[j].Labels = append(set.Pairs[j].Labels, p.Labels...)
			continue
		}
		byID[p.ID] = len(set.Pairs)
		set.Pairs = append(set.Pairs, p)
	}
	if len(set.Pairs) == 0 {
		return Set{}, inputs.Errorf("%s: no labelled pair", trust.Text(path))
	}
	return set, nil
}

func layoutOf(f map[string]json.RawMessage) string {
	has := func(keys ...string) bool {
		for _, k := range keys {
			if _, ok := f[k]; !ok {
				return false
			}
		}
		return true
	}
	switch {
	case has("question", "response_A", "response_B", "label"):
		return LayoutJudgeBench
	case has("question_id", "conversation_a", "conversation_b", "winner"):
		return LayoutMTBench
	}
	return ""
}

func pairOf(layout string, f map[string]json.RawMessage) (Pair, error) {
	if layout == LayoutJudgeBench {
		return judgeBenchPair(f)
	}
	return mtBenchPair(f)
}

func str(f map[string]json.RawMessage, key string) (string, error) {
	var s string
	if err := json.Unmarshal(f[key], &s); err != nil {
		return "", fmt.Errorf("%s: not a string", key)
	}
	return trust.Text(s), nil
}

func judgeBenchPair(f map[string]json.RawMessage) (Pair, error) {
	var p Pair
	var err error
	for _, x := range []struct {
		key string
		to  *string
	}{{"question", &p.Question}, {"response_A", &p.A}, {"response_B", &p.B}} {
		if *x.to, err = str(f, x.key); err != nil {
			return p, err
		}
	}
	label, err := str(f, "label")
	if err != nil {
		return p, err
	}
	switch label {
	case "A>B":
		p.Labels = []string{LabelA}
	case "B>A":
		p.Labels = []string{LabelB}
	default:
		return p, fmt.Errorf("label %q: JudgeBench's labels are A>B and B>A", label)
	}
	if p.ID, err = str(f, "pair_id"); err != nil || p.ID == "" {
		p.ID = engine.Hash(p.Question + "\x00" + p.A + "\x00" + p.B)[:16]
	}
	return p, nil
}

type turn struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

func mtBenchPair(f map[string]json.RawMessage) (Pair, error) {
	var p Pair
	var qid json.Number
	if err := json.Unmarshal(f["question_id"], &qid); err != nil {
		return p, fmt.Errorf("question_id: not a number")
	}
	n := 1
	if raw, ok := f["turn"]; ok {
		if err := json.Unmarshal(raw, &n); err != nil || n < 1 {
			return p, fmt.Errorf("turn: not 1 or more")
		}
	}
	var ca, cb []turn
	if json.Unmarshal(f["conversation_a"], &ca) != nil || json.Unmarshal(f["conversation_b"], &cb) != nil {
		return p, fmt.Errorf("conversation_a, conversation_b: not lists of {role, content}")
	}
	q, a, err := exchange(ca, n)
	if err != nil {
		return p, fmt.Errorf("conversation_a: %w", err)
	}
	_, b, err := exchange(cb, n)
	if err != nil {
		return p, fmt.Errorf("conversation_b: %w", err)
	}
	p.Question, p.A, p.B = q, a, b
	winner, err := str(f, "winner")
	if err != nil {
		return p, err
	}
	switch winner {
	case "model_a":
		p.Labels = []string{LabelA}
	case "model_b":
		p.Labels = []string{LabelB}
	case "tie", "tie (bothbad)":
		p.Labels = []string{LabelTie}
	default:
		return p, fmt.Errorf("winner %q: MT-Bench's winners are model_a, model_b and tie", winner)
	}
	ma, _ := str(f, "model_a")
	mb, _ := str(f, "model_b")
	p.ID = fmt.Sprintf("%s/%d/%s/%s", qid, n, ma, mb)
	return p, nil
}

// exchange is the question of turn n of a conversation (the user's turns
// up to it, with the assistant's earlier replies) and the assistant's
// reply to it.
func exchange(c []turn, n int) (question, reply string, err error) {
	if len(c) < 2*n {
		return "", "", fmt.Errorf("%d messages, turn %d needs %d", len(c), n, 2*n)
	}
	var b strings.Builder
	for i, t := range c[:2*n-1] {
		if n > 1 {
			fmt.Fprintf(&b, "[%s]\n", t.Role)
		}
		b.WriteString(trust.Text(t.Content))
		if i < 2*n-2 {
			b.WriteString("\n\n")
		}
	}
	return b.String(), trust.Text(c[2*n-1].Content), nil
}
