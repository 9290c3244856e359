package plain

import (
	"strings"
	"unicode/utf8"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/protocols"
)

// What the printer calls the parts of a run, and how it keeps the
// printed run from saying a thing twice (issue 32, points 8 and 10).

// maxPrefix is the widest a seat's name is before its streamed lines.
const maxPrefix = 20

// shortNames gives each name longer than w a shortened form, cut at its
// words (shortName). Names that would clash keep their whole form.
func shortNames(names []string, w int) map[string]string {
	out := map[string]string{}
	taken := map[string]int{}
	for _, n := range names {
		s := shortName(n, w)
		out[n] = s
		taken[s]++
	}
	for n, s := range out {
		if taken[s] > 1 {
			out[n] = n
		}
	}
	return out
}

// shortName is s in at most w columns: whole when it fits; else its first
// words, and its last word when that is short, as what tells a seat from
// its neighbour is often there ("tests judge…reversed"); else its first
// words alone ("for Postgres…").
func shortName(s string, w int) string {
	if utf8.RuneCountInString(s) <= w {
		return s
	}
	words := strings.Fields(s)
	last := words[len(words)-1]
	if n := utf8.RuneCountInString(last); len(words) > 1 && n <= 8 {
		return leadingWords(words[:len(words)-1], w-1-n) + "…" + last
	}
	if head := leadingWords(words, w-1); utf8.RuneCountInString(head) >= w/2 {
		return head + "…"
	}
	return string([]rune(s)[:w-1]) + "…" // a long word: cut inside it
}

// leadingWords are as many of words as fit in w columns, without the
// punctuation that ends the last; the first word cut when none fits.
func leadingWords(words []string, w int) string {
	out := ""
	for _, wd := range words {
		next := strings.TrimSpace(out + " " + wd)
		if utf8.RuneCountInString(strings.TrimRight(next, ",:;")) > w {
			break
		}
		out = next
	}
	if out == "" {
		return string([]rune(words[0])[:min(w, utf8.RuneCountInString(words[0]))])
	}
	return strings.TrimRight(out, ",:;")
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
