package plain

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arenadebate/arena/tui/tuitest"
)

// The printed run says each thing once, in short prefixes (issue 32,
// point 8), on the recorded runs of every protocol (engine/demo, made
// with the fake CLIs).

// maxLines bounds each recorded protocol's printed run, so that what was
// cut cannot creep back: measured at the change (the recordings' counts
// before issue 32: adversarial 278, compare 311, judge 686, rank 402,
// verdict 126; before issue 37, which leaves out of the printed document
// what the stream showed: 263, 299, 418, 390, 126).
var maxLines = map[string]int{"adversarial": 235, "compare": 189, "judge": 301, "rank": 342, "verdict": 95}

func TestPrintedRunsStayShort(t *testing.T) {
	for _, name := range tuitest.Protocols() {
		out := printAll(tuitest.Run(name))
		n := strings.Count(out, "\n")
		t.Logf("%s: %d lines", name, n)
		if max, ok := maxLines[name]; !ok || n > max {
			t.Errorf("%s prints %d lines, more than the %d it did (a recording without a bound?)", name, n, max)
		}
		for _, l := range strings.Split(out, "\n") {
			if seat, _, ok := strings.Cut(l, " │ "); ok && utf8.RuneCountInString(seat) > maxPrefix {
				t.Errorf("%s: a streamed line's prefix is %d columns: %q", name, utf8.RuneCountInString(seat), seat)
				break
			}
		}
		banner := out[:strings.Index(out, "\n══")]
		for _, l := range strings.Split(banner, "\n") {
			if strings.HasPrefix(l, "  Seats: ") || strings.HasPrefix(l, "         ") {
				if utf8.RuneCountInString(l) > 80 {
					t.Errorf("%s: the seats' line is %d columns: %q", name, utf8.RuneCountInString(l), l)
				}
			}
		}
	}
}

// A table the run printed is not printed again in the document; a
// judge's report, streamed as it came, is not either.
func TestDocumentLeavesOutWhatWasShown(t *testing.T) {
	out := printAll(tuitest.Run("adversarial"))
	doc := out[strings.Index(out, "# Debate outcome"):]
	if strings.Contains(doc, "## Debate ledger") || strings.Count(out, "Round one") != 1 || !strings.Contains(doc, "Debate ledger") {
		t.Errorf("the ledger is printed %d times:\n%s", strings.Count(out, "Round one"), doc)
	}
	out = printAll(tuitest.Run("judge"))
	doc = out[strings.Index(out, "# Judging outcome"):]
	if strings.Contains(doc, "## Report of") || strings.Contains(doc, "independent analysis\n\n| Criterion") || !strings.Contains(doc, "Report of Judge 1 (") {
		t.Errorf("the judges' reports are printed again:\n%s", doc)
	}
}

func TestShortNames(t *testing.T) {
	for in, want := range map[string]string{
		"tests judge, reversed":           "tests judge…reversed",
		"functionality judge, reversed":   "functionali…reversed",
		"for Postgres LISTEN/NOTIFY":      "for Postgres…",
		"for a very-long-option-name-yes": "for a very-long-opt…",
		"Judge 1":                         "Judge 1",
	} {
		if got := shortName(in, maxPrefix); got != want || utf8.RuneCountInString(got) > maxPrefix {
			t.Errorf("shortName(%q) = %q, want %q", in, got, want)
		}
	}
	// Two names that would shorten alike keep their whole form.
	got := shortNames([]string{"the first seat of the judges, reversed", "the first seat of the others, reversed"}, maxPrefix)
	if got["the first seat of the judges, reversed"] == got["the first seat of the others, reversed"] {
		t.Fatalf("two seats share a prefix: %v", got)
	}
}

// A judging's banner names its task and files as such; a verdict's says
// its task id once (issue 32, point 10).
func TestBannerWords(t *testing.T) {
	out := printAll(tuitest.Run("judge"))
	banner := out[:strings.Index(out, "\n══")]
	if !strings.Contains(banner, "  Task: ") || strings.Contains(banner, "Topic:") || strings.Contains(banner, "Context:") {
		t.Errorf("judge banner:\n%s", banner)
	}
	out = printAll(tuitest.Run("verdict"))
	banner = out[:strings.Index(out, "\n══")]
	if strings.Contains(banner, "Topic:") || !strings.Contains(banner, "  Task: ") {
		t.Errorf("verdict banner:\n%s", banner)
	}
}
