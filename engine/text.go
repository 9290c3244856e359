package engine

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Truncate keeps at most n bytes of s, cut at a rune boundary, marking the
// cut with an ellipsis.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + " …"
}

// Tail keeps at most the last n bytes of s, cut at a rune boundary.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return "…" + s[i:]
}

// Slug is a file-name-safe summary of a topic.
func Slug(topic string, n int) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(topic) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if r > unicode.MaxASCII {
				continue
			}
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			if b.Len() >= n {
				break
			}
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "debate"
	}
	return b.String()
}

// ShellWord is s as one word of a POSIX shell command line: as it is when
// it holds nothing the shell would read otherwise, else in single quotes.
func ShellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./+=:@,%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
