package engine

import (
	"strconv"
	"strings"
	"unicode"
)

// Locate finds where in the judged files a quote begins, as a quote check
// reads it (white space ignored, an ellipsis joining parts): the file's
// name and the line its first part begins on ("", 0 when no file holds
// it). A file that is a unified diff (the work a CI gate pipes in) is
// read as the changes it holds: the quote is looked for in each hunk's
// lines as the change leaves them (kept and added; a quoted "+" is the
// diff's, not the code's), and the place is the changed file's path and
// its line in the new version.
func Locate(files []Doc, q string) (string, int) {
	q = strings.Trim(strings.TrimSpace(q), "\"'`“”‘’")
	first, _, _ := strings.Cut(strings.ReplaceAll(q, "…", "..."), "...")
	want := Squash(first)
	if want == "" {
		return "", 0
	}
	for _, f := range files {
		if hunks := diffHunks(f.Content); hunks != nil {
			diffWant := Squash(undiff(first))
			for _, h := range hunks {
				if line := find(h.text, h.line, diffWant); line > 0 {
					return h.file, line
				}
			}
			continue
		}
		if line := find(f.Content, 1, want); line > 0 {
			return f.Name, line
		}
	}
	return "", 0
}

// find is the line of text (its first line numbered first) where want,
// squashed, begins; 0 when it is not there.
func find(text string, first int, want string) int {
	// The text without its white space, and the line each of its bytes
	// is on.
	var squashed strings.Builder
	var lines []int
	line := first
	for _, c := range text {
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
	if i := strings.Index(squashed.String(), want); i >= 0 && want != "" {
		return lines[i]
	}
	return 0
}

// Squash drops every white-space rune, for comparing quotes with the
// work regardless of line breaks and indentation.
func Squash(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// undiff takes a diff's marks off a quote's lines: a judge may quote
// "+\treturn nil" as the diff shows it.
func undiff(q string) string {
	lines := strings.Split(q, "\n")
	for i, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "+") && !strings.HasPrefix(t, "++") {
			lines[i] = t[1:]
		}
	}
	return strings.Join(lines, "\n")
}

// hunk is a diff's hunk as the change leaves the file: its path, the
// line it starts on in the new version, and its kept and added lines.
type hunk struct {
	file string
	line int
	text string
}

// diffHunks reads text as a unified diff (git diff's): nil when it holds
// no hunk of a file it names.
func diffHunks(text string) []hunk {
	if !strings.Contains(text, "\n+++ ") && !strings.HasPrefix(text, "+++ ") {
		return nil
	}
	var out []hunk
	var file string
	var cur *hunk
	flush := func() {
		if cur != nil && file != "" {
			out = append(out, *cur)
		}
		cur = nil
	}
	var b strings.Builder
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "+++ "):
			if cur != nil {
				cur.text = b.String()
			}
			flush()
			file = diffPath(strings.TrimPrefix(l, "+++ "))
		case strings.HasPrefix(l, "@@ "):
			if cur != nil {
				cur.text = b.String()
			}
			flush()
			b.Reset()
			if n := newStart(l); n > 0 {
				cur = &hunk{file: file, line: n}
			}
		case cur == nil:
		case strings.HasPrefix(l, "+"), strings.HasPrefix(l, " "):
			b.WriteString(l[1:] + "\n")
		case l == "":
			b.WriteString("\n")
		case strings.HasPrefix(l, "-"), strings.HasPrefix(l, `\`):
			// a removed line, or "\ No newline at end of file"
		default:
			cur.text = b.String()
			flush()
		}
	}
	if cur != nil {
		cur.text = b.String()
	}
	flush()
	return out
}

// diffPath is the path a "+++ " line names: "b/x.go" is x.go; /dev/null
// (a deleted file) is none.
func diffPath(s string) string {
	s, _, _ = strings.Cut(s, "\t")
	s = strings.Trim(s, "\"")
	if s == "/dev/null" {
		return ""
	}
	if _, rest, ok := strings.Cut(s, "/"); ok && len(s) > 2 && s[1] == '/' {
		return rest
	}
	return s
}

// newStart is the new version's first line of a hunk "@@ -a,b +c,d @@";
// 0 when the header is not one.
func newStart(header string) int {
	_, rest, ok := strings.Cut(header, " +")
	if !ok {
		return 0
	}
	end := strings.IndexAny(rest, ", ")
	if end < 0 {
		return 0
	}
	n, err := strconv.Atoi(rest[:end])
	if err != nil {
		return 0
	}
	if n == 0 {
		n = 1
	}
	return n
}
