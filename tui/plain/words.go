package plain

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/protocols"
)

// What the printer calls the parts of a run, and how it keeps the
// printed run from saying a thing twice (issue 32, points 8 and 10).

// maxPrefix is the widest a seat's name is at the head of its lines (its
// calls' ▸, ✓ and ✗, its streamed │): a longer name is cut at its end, with
// an ellipsis, on every line alike; the banner's seats name it whole.
const maxPrefix = 24

// prefixWidth is the width of the seats' prefixes on the lines of their
// calls: the longest name's, up to maxPrefix, and wider where two names
// would be cut alike ("overengineering judge" and "overengineering judge,
// reversed"), up to the longest name's.
func prefixWidth(names []string) int {
	longest := 0
	for _, n := range names {
		longest = max(longest, ansi.StringWidth(n))
	}
	w := min(longest, maxPrefix)
	for w < longest && !distinct(names, w) {
		w++
	}
	return w
}

// distinct says whether names cut to w columns stay apart.
func distinct(names []string, w int) bool {
	seen := map[string]bool{}
	for _, n := range names {
		c := cutName(n, w)
		if seen[c] {
			return false
		}
		seen[c] = true
	}
	return true
}

// cutName is name in at most w columns: whole when it fits, else its
// start and an ellipsis.
func cutName(name string, w int) string {
	if ansi.StringWidth(name) <= w {
		return name
	}
	head := strings.TrimRight(ansi.Truncate(name, w-1, ""), " ")
	return head + "…"
}

// fitName is name cut to w columns and padded to them.
func fitName(name string, w int) string {
	c := cutName(name, w)
	return c + strings.Repeat(" ", max(0, w-ansi.StringWidth(c)))
}

// seatWords is a seat as the banner lists it, its role said once: the
// role when it holds the name ("advocate for Kafka = gemini"), the name
// when it says the role already ("quick = claude", not "quick = claude
// (quick judge)"), else both ("claude (defender)").
func seatWords(s engine.Seat) string {
	name, role := s.Name, string(s.Role)
	lower := strings.ToLower
	first, _, _ := strings.Cut(role, " ")
	switch {
	case role != "" && strings.Contains(lower(role), lower(name)):
		name, role = role, ""
	case strings.Contains(lower(name), lower(strings.Trim(first, ","))):
		role = ""
	}
	w := name
	if s.Agent != s.Name {
		w += " = " + s.Agent
	}
	if role != "" {
		w += " (" + role + ")"
	}
	return w
}

// wrapList is prefix and the items, comma-separated, wrapped at width
// with the continuation lines indented under the first item: rank's
// thirteen seats made a line of some 900 characters.
func wrapList(prefix string, items []string, width int) string {
	if len(items) == 0 {
		return prefix + "—\n"
	}
	indent := strings.Repeat(" ", utf8.RuneCountInString(prefix))
	var b strings.Builder
	line := prefix
	for i, it := range items {
		if i < len(items)-1 {
			it += ","
		}
		switch {
		case i == 0:
			line += it
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(it) > width:
			b.WriteString(line + "\n")
			line = indent + it
		default:
			line += " " + it
		}
	}
	return b.String() + line + "\n"
}

// bannerWords are the run's words for its banner, as its start event
// says them (a judging's topic is its task and its files the solution
// judged); a log written before the start event carried them takes its
// protocol's from the list, and an unknown protocol's are "Topic" and
// "Context".
func bannerWords(v engine.DebateStarted) engine.Words {
	if v.Words == (engine.Words{}) {
		if s, ok := protocols.Named(v.Protocol); ok {
			return s.Words.Or(engine.DefaultWords)
		}
	}
	return v.Words.Or(engine.DefaultWords)
}

// withArticle is word with "a" or "an" before it, by its first letter:
// "an adversarial", "a verdict" (issue 32, point 10: "a adversarial").
func withArticle(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
