package layout

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// seeds are realistic replies: fenced, with prose around, escapes,
// unicode, nested arrays, a reply that is not JSON and a truncated one.
var seeds = []struct {
	layout Layout
	text   string
}{
	{critiqueLayout, "Here is my critique.\n\n```json\n{\n  \"verdict\": \"disagree\",\n  \"critique\": \"It assumes the cache is \\\"warm\\\" — it isn't after a deploy.\",\n  \"evidence\": \"Cold starts take 3\\u00a0s (see the p99 graph).\",\n  \"alternative\": \"Pre-warm on deploy.\",\n  \"confidence\": \"high\",\n  \"objection_strength\": \"strong\",\n  \"assumptions_challenged\": [\"warm cache\", \"steady traffic\"]\n}\n```\n\nLet me know if you want more detail."},
	{answerLayout, `{"responses": [{"challenger": "codex", "decision": "partial", "explanation": "Ja, aber: Köln ≠ Zürich 🚆"}, {"challenger": "gemini", "decision": "reject", "explanation": "No.\nTwo lines."}], "updated_position": "Keep the cache, pre-warm it."}`},
	{synthesisLayout, "```json\n{\"options\":[{\"name\":\"A\",\"summary\":\"fast\",\"choose_if\":[\"latency matters\",\"budget \\\\ allows\"]},{\"name\":\"B\",\"summary\":\"cheap\",\"choose_if\":[]}],\"recommendation\":\"A\",\"open_questions\":[\"traffic?\",\"team size?\"]}\n```"},
	{judgeLayout, `{"scores": [{"criterion": "cost", "option": "A", "score": 4, "justification": "cheaper by 30%", "more_convincing": "A"}, {"criterion": "risk", "option": "B", "score": 2, "justification": "unproven", "more_convincing": "A"}], "audit": [{"claim": "A scales", "holds": true, "notes": [["nested", "arrays"], ["deep"]]}], "rebuttals": ["B's landed"], "recommendation": "A", "conditions": [{"option": "B", "choose_if": ["risk is acceptable"]}], "open_questions": ["growth?"]}`},
	{Layout{}, `{"criteria": [{"name": "cost", "weight": "high", "why": "fixed budget"}], "emoji": "\ud83d\ude00 é ü", "n": -1.5e3, "ok": false}`},
	{openingLayout, "I am not able to answer in JSON today, sorry. Here's prose with a brace { and a quote \" and ```code```."},
	{openingLayout, "```json\n{\"position\": \"Use SQLite\", \"reasoning\": [\"one file\", \"no server"},
	{compOpeningLayout, "Sure!\n{\"option\": \"A\", \"arguments\": [{\"criterion\": \"cost\", \"for_this\": \"cheap\", \"against_other\": \"pricey\"}], \"risks_of_other\": [\"x\", \"y\", \"z\"], \"stakeholders\": [\"ops\", \"finance\"], \"closing_argument\": \"A.\"}\nDone."},
	{compRebuttalLayout, "```\n{\"attacks\": [{\"claim\": \"B is faster\", \"why_it_fails\": \"small data only\", \"counter_evidence\": \"TPC-H\"}], \"conceded\": [\"docs\"]}\n```"},
}

// feedCuts writes text to a new Stream in chunks whose lengths come from
// cuts, and checks the invariants after every chunk; it returns the
// stream and everything Completed returned.
func feedCuts(t testing.TB, l Layout, text string, cuts []byte) (*Stream, []string) {
	s := NewStream(l)
	var done []string
	clean := cleanJSON(text)
	for i, k := 0, 0; i < len(text); k++ {
		n := 1
		if len(cuts) > 0 {
			n = int(cuts[k%len(cuts)])%23 + 1
		}
		j := min(i+n, len(text))
		s.Write([]byte(text[i:j]))
		i = j
		md := s.Markdown()
		if k%2 == 0 {
			done = append(done, s.Completed()...)
		}
		if got, want := s.Rest(), restAnew(s); got != want {
			t.Fatalf("after %d bytes, Rest is\n%q\nwhere rendering it anew gives\n%q", i, got, want)
		}
		if prefix := strings.Join(done, "\n\n"); !strings.HasPrefix(md, prefix) {
			t.Fatalf("after %d bytes, Markdown does not start with the completed blocks:\n%q\n--- completed:\n%q", i, md, prefix)
		}
		if clean && strings.Contains(md, `"`) {
			t.Fatalf("after %d bytes of a valid reply, Markdown shows JSON punctuation:\n%s", i, md)
		}
	}
	return s, done
}

// restAnew is Rest rendered anew, not grown.
func restAnew(s *Stream) string {
	return strings.Join(append(append([]string(nil), s.final[s.emitted:]...), s.tail()...), "\n\n")
}

// openingFence matches what may stand before an object that is read as
// one: prose without backticks, then perhaps a fence line ("```json")
// with only white space after it. Anything else after a fence opens a
// code block, and a brace inside a code block is code, shown as written.
var openingFence = regexp.MustCompile("^[^`]*(```[^`\n]*\n?)?\\s*$")

// cleanJSON reports whether text is a valid JSON object, perhaps with
// prose or a fence before it and prose after it, in which no string (key
// or value) holds a quote, and which is not nested too deep: then no
// rendering of it, at any point, may hold a quote, so none holds `{"` or
// `":`.
func cleanJSON(text string) bool {
	i, j := strings.IndexByte(text, '{'), strings.LastIndexByte(text, '}')
	if i < 0 || j < i || strings.ContainsAny(text[:i]+text[j+1:], "{}\"") || !openingFence.MatchString(text[:i]) {
		return false
	}
	obj := text[i : j+1]
	if !json.Valid([]byte(obj)) {
		return false
	}
	dec := json.NewDecoder(strings.NewReader(obj))
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return true
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
			}
			if depth > maxDepth-2 {
				return false
			}
		case string:
			if strings.ContainsAny(v, "\"`") {
				return false
			}
		}
	}
}

func checkFinal(t testing.TB, s *Stream, done []string, l Layout, text string) {
	want := Render(text, l)
	if got := s.Markdown(); got != want {
		t.Fatalf("final Markdown differs from Render:\n%q\n--- Render:\n%q", got, want)
	}
	parts := append(done, s.Completed()...)
	if r := s.Rest(); r != "" {
		parts = append(parts, r)
	}
	if got := strings.Join(parts, "\n\n"); got != want {
		t.Fatalf("Completed + Rest differs from Render:\n%q\n--- Render:\n%q", got, want)
	}
}

func TestStreamEveryCut(t *testing.T) {
	for _, sd := range seeds {
		for _, cuts := range [][]byte{nil, {1}, {6, 2, 15}, {22}} {
			s, done := feedCuts(t, sd.layout, sd.text, cuts)
			checkFinal(t, s, done, sd.layout, sd.text)
		}
	}
}

// TestStreamPartial shows what a pane shows at points of a reply.
func TestStreamPartial(t *testing.T) {
	steps := []struct{ write, want string }{
		{"Here you go:\n``", "Here you go:\n``"},
		{"`json\n", "Here you go:"},
		{"{\"verdict\": \"disag", "Here you go:\n\n**Verdict:** DISAG"},
		{"ree\", \"crit", "Here you go:\n\n**Verdict:** DISAGREE"},
		{"ique\": \"caf\\u00", "Here you go:\n\n**Verdict:** DISAGREE\n\n**Critique:** caf"},
		{"e9 \xc3", "Here you go:\n\n**Verdict:** DISAGREE\n\n**Critique:** café"},
		{"\xa9\\", "Here you go:\n\n**Verdict:** DISAGREE\n\n**Critique:** café é"},
		{"\"\", \"objection_strength\": \"strong\", \"confidence\": 0.", "Here you go:\n\n**Verdict:** DISAGREE · strong objection · 0. confidence\n\n**Critique:** café é\""},
		{"9, \"assumptions_challenged\": [\"a\", \"b", "Here you go:\n\n**Verdict:** DISAGREE · strong objection · 0.9 confidence\n\n**Critique:** café é\"\n\n**Assumptions challenged:**\n- a\n- b"},
		{"\"]}\n```\nBye", "Here you go:\n\n**Verdict:** DISAGREE · strong objection · 0.9 confidence\n\n**Critique:** café é\"\n\n**Assumptions challenged:**\n- a\n- b\n\nBye"},
	}
	s := NewStream(critiqueLayout)
	var all string
	for _, st := range steps {
		s.Write([]byte(st.write))
		all += st.write
		if got := s.Markdown(); got != st.want {
			t.Fatalf("after %q:\n%s\n--- want:\n%s", all, got, st.want)
		}
	}
	if got := Render(all, critiqueLayout); got != s.Markdown() {
		t.Fatalf("Render differs:\n%s", got)
	}
}

func TestStreamNotJSON(t *testing.T) {
	text := "I would rather explain in words.\nFirst, the cache {is cold}.\n"
	s := NewStream(openingLayout)
	for i := range len(text) {
		s.Write([]byte{text[i]})
		if got, want := s.Markdown(), strings.TrimSpace(text[:i+1]); got != want {
			t.Fatalf("after %d bytes: %q, want %q", i+1, got, want)
		}
	}
}

func TestCompleted(t *testing.T) {
	s := NewStream(critiqueLayout)
	var got [][]string
	for _, chunk := range []string{
		"Intro.\n```json\n{\"verdict\": \"agree\", \"critique\": \"fine\", ",
		"\"evidence\": \"none\", \"alternative\": \"\", \"confidence\": \"low\", \"objection_strength\": \"minor\", ",
		"\"assumptions_challenged\": [], \"extra\": \"x\", \"more\": \"y",
		"\"}\n```\nOutro.",
	} {
		s.Write([]byte(chunk))
		got = append(got, s.Completed())
	}
	want := [][]string{
		{"Intro."},
		{"**Verdict:** AGREE · minor objection · low confidence", "**Critique:** fine", "**Evidence:** none"},
		{"**Extra:** x"},
		{"**More:** y"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("chunk %d: Completed = %q, want %q", i, got[i], want[i])
		}
	}
	if r := s.Rest(); r != "Outro." {
		t.Errorf("Rest = %q", r)
	}
}

func TestMarkdownCached(t *testing.T) {
	s := NewStream(Layout{})
	s.Write([]byte(`{"a": "x`))
	m1 := s.Markdown()
	m2 := s.Markdown()
	if m1 != m2 || m1 != "**A:** x" {
		t.Fatalf("%q %q", m1, m2)
	}
	if testing.AllocsPerRun(100, func() { s.Markdown() }) != 0 {
		t.Fatal("a repeated Markdown allocates")
	}
}

func TestSawObject(t *testing.T) {
	s := NewStream(Layout{})
	s.WriteString("Here is my reply:\n```json\n")
	if s.SawObject() {
		t.Fatal("an object before any brace")
	}
	s.WriteString(`{"a": "b`)
	if !s.SawObject() {
		t.Fatal("no object after its first key")
	}
	p := NewStream(Layout{})
	p.WriteString("just prose, {braces} and all\n")
	if p.SawObject() {
		t.Fatal("prose with braces read as an object")
	}
}

// Rest grows with the text being written only where the rendering is
// that text: not where the field is upper-cased, has values replaced or
// is formatted, even when its first bytes read the same either way.
func TestRestGrowsOnlyPlainText(t *testing.T) {
	l := Layout{Fields: []Field{
		{Key: "a", Style: Upper},
		{Key: "b", Values: map[string]string{"12": "twelve"}},
		{Key: "c", Format: "%s!"},
		{Key: "d"},
		{Key: "e", Style: Line},
	}}
	text := `{"a": "123 abc", "b": "12", "c": "9 lives", "d": "plain text, then", "e": "a line field"} after`
	for _, cuts := range [][]byte{nil, {2}, {5, 1}} {
		feedCuts(t, l, text, cuts)
	}
}
