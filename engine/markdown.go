package engine

import "strings"

// Small helpers every protocol's outcome document uses.

// OneLine puts text on one line (white space collapsed) of at most n
// bytes, cut at a rune and marked when cut.
func OneLine(s string, n int) string {
	return Truncate(strings.Join(strings.Fields(s), " "), n)
}

// Cell makes text safe inside a Markdown table cell: one line, with its
// pipes escaped.
func Cell(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
}

// OrDash is s, or an em dash where it is blank.
func OrDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}
