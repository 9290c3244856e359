package judge

import (
	"strings"
	"unicode"

	"github.com/arenadebate/arena/engine"
)

// locate finds where in the solution's files a quote begins, as the quote
// check reads it (white space ignored, an ellipsis joining parts): the
// file's name and the line its first part begins on ("", 0 when no file
// holds it).
func locate(files []engine.Doc, q string) (string, int) {
	q = strings.Trim(strings.TrimSpace(q), "\"'`“”‘’")
	first, _, _ := strings.Cut(strings.ReplaceAll(q, "…", "..."), "...")
	want := squash(first)
	if want == "" {
		return "", 0
	}
	for _, f := range files {
		// The file without its white space, and the line each of its
		// bytes is on.
		var squashed strings.Builder
		var lines []int
		line := 1
		for _, c := range f.Content {
			if c == '\n' {
				line++
			}
			if !unicode.IsSpace(c) {
				n, _ := squashed.WriteRune(c)
				for range n {
					lines = append(lines, line)
				}
			}
		}
		if i := strings.Index(squashed.String(), want); i >= 0 {
			return f.Name, lines[i]
		}
	}
	return "", 0
}
