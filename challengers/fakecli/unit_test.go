package main

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
	"github.com/arenadebate/arena/challengers/shape"
)

func TestDetectKind(t *testing.T) {
	for _, tc := range []struct {
		prompt string
		kind   fakeapi.Kind
		repair bool
	}{
		{opening, fakeapi.KindOpening, false},
		{critiquePrompt, fakeapi.KindCritique, false},
		{rebuttalPrompt, fakeapi.KindRebuttal, false},
		{"Answer.\n\nREPLY SHAPE: answer\n", fakeapi.KindAnswer, false},
		{"REPLY SHAPE: compare.judge", "compare.judge", false},
		{"Say hello", fakeapi.KindOther, false},
		{"REQUIRED RESPONSE FORMAT\nplain text please", fakeapi.KindOther, false},
		// Only the last tag counts: earlier ones are quoted.
		{opening + "\n\nquoted above; now:\n" + critiquePrompt, fakeapi.KindCritique, false},
		{shape.RepairLead + ": bad.\n" + rebuttalPrompt, fakeapi.KindRebuttal, true},
	} {
		kind, repair := detectKind(tc.prompt)
		if kind != tc.kind || repair != tc.repair {
			t.Errorf("detectKind(%q) = %s, %v; want %s, %v", tc.prompt, kind, repair, tc.kind, tc.repair)
		}
	}
}

func TestChallengers(t *testing.T) {
	prompt := "=== CRITIQUE FROM gemini ===\nx\n## Critique from **qwen-2.5**:\ny\nCRITIQUE FROM gemini\n" +
		"not a heading: CRITIQUE FROM nobody\n" + formatMarker + "\nCRITIQUE FROM ignored"
	if got, want := challengers(prompt), []string{"gemini", "qwen-2.5"}; !slices.Equal(got, want) {
		t.Errorf("challengers = %q, want %q", got, want)
	}
	if got := challengers("no critiques here"); got != nil {
		t.Errorf("challengers = %q, want none", got)
	}
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		s string
		n int
	}{{"The answer streams in chunks.", 3}, {"héllo wörld ✓✓✓", 5}, {"ab", 4}, {"", 3}, {"x", 0}} {
		parts := split(tc.s, tc.n)
		if strings.Join(parts, "") != tc.s || len(parts) == 0 || len(parts) > max(tc.n, 1) {
			t.Errorf("split(%q, %d) = %q", tc.s, tc.n, parts)
		}
		for _, p := range parts {
			if !utf8.ValidString(p) {
				t.Errorf("split(%q, %d) cut a character: %q", tc.s, tc.n, parts)
			}
		}
	}
}

func TestFlagParser(t *testing.T) {
	fp := flagParser{opts: []opt{
		{name: "prompt", short: 'p', arg: "<p>"},
		{name: "yolo", short: 'y'},
		{name: "format", short: 'o', arg: "<f>", choices: []string{"text", "json"}},
	}}
	p, err := fp.parse([]string{"-yp", "-x", "--format=json", "pos", "--", "--yolo"})
	if err != nil || p.get("prompt") != "-x" || !p.has("yolo") || p.get("format") != "json" || !slices.Equal(p.pos, []string{"pos", "--yolo"}) {
		t.Errorf("parse = %+v, %+v", p, err)
	}
	p, _ = fp.parse([]string{"-pvalue", "-o=text"})
	if p.get("prompt") != "value" || p.get("format") != "text" {
		t.Errorf("attached values: %+v", p)
	}
	for _, tc := range []struct {
		args []string
		kind flagErrKind
	}{
		{[]string{"--bogus"}, errUnknown},
		{[]string{"--yolo=1"}, errUnknown},
		{[]string{"-z"}, errUnknown},
		{[]string{"--prompt"}, errMissing},
		{[]string{"-o", "yaml"}, errChoice},
	} {
		if _, err := fp.parse(tc.args); err == nil || err.kind != tc.kind {
			t.Errorf("parse(%q) error %+v, want kind %d", tc.args, err, tc.kind)
		}
	}
	fp.valueMayNotLookLikeFlag = true
	if _, err := fp.parse([]string{"-p", "-y"}); err == nil || err.kind != errMissing {
		t.Errorf("yargs-style -p -y: %+v, want a missing value", err)
	}
	if p, err := fp.parse([]string{"-p", "-1"}); err != nil || p.get("prompt") != "-1" {
		t.Errorf("yargs-style -p -1: %+v %+v, want the number as value", p, err)
	}
}

func TestOrderedJSON(t *testing.T) {
	got := string(encode(obj{{"z", 1}, {"a", obj{{"y", "<&>"}, {"b", nil}}}, {"m", []obj{{{"k", true}}}}}))
	if want := `{"z":1,"a":{"y":"<&>","b":null},"m":[{"k":true}]}`; got != want {
		t.Errorf("encode = %s, want %s", got, want)
	}
}
