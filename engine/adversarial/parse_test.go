package adversarial

import (
	"errors"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
)

const critiqueJSON = `{"verdict":"disagree","critique":"c","evidence":"e","alternative":"a","confidence":"high","objection_strength":"strong","assumptions_challenged":["x"]}`

func TestParseCritiqueLeniently(t *testing.T) {
	cases := map[string]string{
		"bare":               critiqueJSON,
		"fenced":             "Here you go:\n```json\n" + critiqueJSON + "\n```\nThanks.",
		"prose around":       "I think {this} is wrong. " + critiqueJSON + " That's all.",
		"case and order":     `{"Objection Strength":"STRONG","assumptionsChallenged":["x"],"Confidence":"High","ALTERNATIVE":"a","evidence":"e","critique":"c","Verdict":"Disagree","extra":1}`,
		"braces in strings":  `{"verdict":"disagree","critique":"use {curly} braces } here","evidence":"e","alternative":"a","confidence":"high","objection_strength":"strong","assumptions_challenged":[]}`,
		"fence without lang": "```\n" + critiqueJSON + "\n```",
		"unterminated fence": "```json\n" + critiqueJSON,
	}
	for name, text := range cases {
		c, err := ParseCritique(text)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if c.Verdict != "disagree" || c.ObjectionStrength != "strong" || c.Confidence != "high" {
			t.Errorf("%s: got %+v", name, c)
		}
	}
}

func TestParseCritiqueStrictly(t *testing.T) {
	cases := map[string]string{
		"missing key":    `{"verdict":"disagree","critique":"c","evidence":"e","alternative":"a","confidence":"high","assumptions_challenged":[]}`,
		"bad enum":       strings.Replace(critiqueJSON, `"disagree"`, `"agree | partial | disagree"`, 1),
		"wrong type":     strings.Replace(critiqueJSON, `["x"]`, `"x"`, 1),
		"list of number": strings.Replace(critiqueJSON, `["x"]`, `[1]`, 1),
		"empty critique": strings.Replace(critiqueJSON, `"critique":"c"`, `"critique":"  "`, 1),
		"null verdict":   strings.Replace(critiqueJSON, `"disagree"`, `null`, 1),
	}
	wants := map[string]string{
		"missing key": `"objection_strength" is missing`, "bad enum": `must be one of agree | partial | disagree`,
		"wrong type": `must be a list of strings, got a string`, "list of number": `"assumptions_challenged[0]" must be a string, got a number`,
		"empty critique": `"critique" is empty`, "null verdict": `"verdict" must be a string, got null`,
	}
	for name, text := range cases {
		_, err := ParseCritique(text)
		if err == nil || !strings.Contains(err.Error(), wants[name]) {
			t.Errorf("%s: err = %v, want %q", name, err, wants[name])
		}
	}
	if _, err := ParseCritique("no json here"); !errors.Is(err, engine.ErrNoJSON) {
		t.Errorf("err = %v", err)
	}
}

func TestParsePicksTheObjectThatValidates(t *testing.T) {
	text := "Example shape: {\"verdict\": \"agree | partial | disagree\"}\nMy answer:\n" + critiqueJSON
	if _, err := ParseCritique(text); err != nil {
		t.Fatal(err)
	}
}

func TestParseAnswerNeedsEveryChallenger(t *testing.T) {
	ok := `{"responses":[{"challenger":"Gemini","decision":"Accept","explanation":"x"},{"challenger":"codex","decision":"partial","explanation":"y"}],"updated_position":"p"}`
	a, err := ParseAnswer(ok, []string{"gemini", "codex"})
	if err != nil || a.Responses[0].Challenger != "gemini" || a.Responses[0].Decision != "accept" {
		t.Fatalf("%+v %v", a, err)
	}
	for text, want := range map[string]string{
		`{"responses":[{"challenger":"gemini","decision":"accept","explanation":"x"}],"updated_position":"p"}`:                                                               "no response for codex",
		`{"responses":[{"challenger":"llama","decision":"accept","explanation":"x"}],"updated_position":"p"}`:                                                                `"llama" is not one of the challengers`,
		`{"responses":[{"challenger":"gemini","decision":"maybe","explanation":"x"},{"challenger":"codex","decision":"accept","explanation":"x"}],"updated_position":"p"}`:   "responses[0]: \"decision\" must be one of accept | partial | reject",
		`{"responses":[{"challenger":"gemini","decision":"accept","explanation":"x"},{"challenger":"gemini","decision":"accept","explanation":"x"}],"updated_position":"p"}`: "two responses for gemini",
		`{"responses":"all accepted","updated_position":"p"}`:                                                                                                                "must be a list of objects",
	} {
		if _, err := ParseAnswer(text, []string{"gemini", "codex"}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want %q", err, want)
		}
	}
}

func TestParseOtherShapes(t *testing.T) {
	if o, err := ParseOpening(`{"position":"p","reasoning":["a"],"confidence":"LOW","weaknesses":[],"assumptions":[]}`); err != nil || o.Confidence != "low" {
		t.Errorf("opening: %+v %v", o, err)
	}
	if r, err := ParseRebuttal("```json\n{\"choice\": \"Maintain\", \"explanation\": \"still\"}\n```"); err != nil || r.Choice != "maintain" {
		t.Errorf("rebuttal: %+v %v", r, err)
	}
	if _, err := ParseFinal(`{"why_disagree":"a","what_would_make_other_right":"b","my_assumption":"c"}`); err != nil {
		t.Errorf("final: %v", err)
	}
	if _, err := ParseSynthesis(`{"options":[],"recommendation":"r","open_questions":[]}`); err == nil || !strings.Contains(err.Error(), `"options" is empty`) {
		t.Errorf("synthesis with no options: %v", err)
	}
	if s, err := ParseSynthesis(`{"options":[{"name":"A","summary":"s","choose_if":["c"]}],"recommendation":"r","open_questions":["q"]}`); err != nil || s.Options[0].ChooseIf[0] != "c" {
		t.Errorf("synthesis: %+v %v", s, err)
	}
}

func FuzzParseCritique(f *testing.F) {
	f.Add(critiqueJSON)
	f.Add("```json\n" + critiqueJSON + "\n```")
	f.Add(`{"a":{"b":[1,2,{"c":"}"}]}} {`)
	f.Add("{{{{")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCritique(s)
		if err == nil && (c.Verdict == "" || c.Critique == "") {
			t.Fatalf("validated critique with empty required fields: %+v", c)
		}
	})
}
