package engine

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Small helpers for words: every protocol's outcome document uses them,
// and so do the screen, the printers and the command line. Each exists
// once, here.

// OneLine puts text on one line, white space collapsed, of at most n
// characters (runes) with an ellipsis marking a cut; n <= 0 does not cut.
func OneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Plural is a count of things: "1 call", "3 calls".
func Plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// OrDash is s, or an em dash where it is blank.
func OrDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}
