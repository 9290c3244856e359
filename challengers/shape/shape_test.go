package shape

import "testing"

func TestOfReadsTheLastTag(t *testing.T) {
	cases := map[string]string{
		"no tag here":                        "",
		"ask\n" + Tag("opening") + "\n{...}": "opening",
		Tag("critique") + "\r\nmore":         "critique",
		"repair\n" + Tag("x") + "\nquoted\n" + Tag("compare.judge"): "compare.judge",
	}
	for prompt, want := range cases {
		if got := Of(prompt); got != want {
			t.Errorf("Of(%q) = %q, want %q", prompt, got, want)
		}
	}
}
