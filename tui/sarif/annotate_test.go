package sarif

import (
	"strings"
	"testing"
)

// Each finding is one workflow command the runner reads as arena meant:
// its level's command, the file and line arena placed it at, a title
// naming the criterion and the judges, the message; a finding's text,
// however hostile (a line break and a command of its own, the runner's
// escapes, ":" and "," in a property, escape sequences, bidi), stays in
// its own command's message or property, escaped as GitHub specifies
// and cleaned as a terminal's text.
func TestAnnotationsEscapeWhatTheJudgesWrote(t *testing.T) {
	got := Annotations(outcome())
	want := []string{
		"::error file=cmd/main.go,line=8,title=arena%3A improvement (gemini (quick judge)%2C claude (deep judge))::Return the error — “os.Exit(run())”",
		"::notice file=a dir/x%3Ay.go,title=arena%3A Code quality (claude (deep judge))::Split it",
		"::warning title=arena%3A improvement (claude (deep judge))::Cite the spec — “a line nobody wrote” (arena: not found in the work)",
		"::warning title=arena%3A improvement::Name the edge cases",
	}
	if len(got) != 5 {
		t.Fatalf("%d annotations:\n%s", len(got), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("annotation %d:\n got %s\nwant %s", i, got[i], w)
		}
	}
	h := got[4]
	// One line, one command: the hostile text's own "::error" and line
	// break are inside the message, its "%0A" cannot be unescaped into a
	// line break, and no escape sequence or bidi control is left.
	if strings.ContainsAny(h, "\r\n\x1b\x07\u202e") {
		t.Errorf("the hostile annotation holds a control character: %q", h)
	}
	name, rest, _ := strings.Cut(strings.TrimPrefix(h, "::"), " ")
	props, msg, ok := strings.Cut(rest, "::")
	if name != "warning" || !ok {
		t.Fatalf("the hostile annotation is not one warning: %q", h)
	}
	// The properties: the file (a line break in its name, so not
	// placed), the line and the title, each value free of , and :.
	var keys []string
	for _, p := range strings.Split(props, ",") {
		k, v, _ := strings.Cut(p, "=")
		keys = append(keys, k)
		if strings.ContainsAny(v, ":,") {
			t.Errorf("property %s's value %q holds a separator", k, v)
		}
	}
	if strings.Join(keys, " ") != "title" {
		t.Errorf("the hostile annotation's properties are %q, not its title alone", keys)
	}
	if want := "fix it ::error file=/etc/passwd,line=1::pwned %250A%2525 a,b:c link <U+202E>evil"; !strings.HasPrefix(msg, want) {
		t.Errorf("the hostile text is not the message, as text and escaped:\n got %q\nwant %q…", msg, want)
	}
}

// unescape is the runner's reading of a command's message.
func unescape(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(s)
}

// What the runner reads back from a message is the finding's message,
// whatever "%" it holds.
func TestAnnotationRoundTrips(t *testing.T) {
	for _, s := range []string{"100% done", "%0A is not a break", "a%25b", "::x::"} {
		if got := unescape(escapeData(s)); got != s {
			t.Errorf("%q escapes to %q, read back as %q", s, escapeData(s), got)
		}
		if got := unescape(escapeProperty(s)); got != s {
			t.Errorf("%q escapes (property) to %q, read back as %q", s, escapeProperty(s), got)
		}
	}
}
