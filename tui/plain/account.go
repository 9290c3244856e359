package plain

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/arenadebate/arena/engine"
)

// Account is the short account a run on the live screen leaves in the
// scrollback once the screen, drawn on the alternate screen, is gone: its
// summary, its failures, and the files it saved (noun names the run in
// the log's line), each file named as shown says (RelativeTo; nil: as it
// is). It quotes the agents: write it through a trust.Writer.
func Account(noun string, out engine.Outcome, saved []engine.Saved, shown func(string) string) string {
	if shown == nil {
		shown = func(path string) string { return path }
	}
	var b strings.Builder
	fmt.Fprintf(&b, "arena: %s\n", out.Summary)
	for _, f := range out.Failures {
		fmt.Fprintf(&b, "  ✗ %s\n", f)
	}
	logWords := strings.ToLower(LogWords(noun)) + ":"
	width := utf8.RuneCountInString(logWords)
	for _, s := range saved {
		width = max(width, utf8.RuneCountInString(s.What)+1)
	}
	for _, s := range saved {
		fmt.Fprintf(&b, "  %-*s %s\n", width, s.What+":", shown(s.Path))
	}
	if out.LogPath != "" {
		path := shown(out.LogPath)
		fmt.Fprintf(&b, "  %-*s %s  (arena replay %s)\n", width, logWords, path, path)
	}
	return b.String()
}

// BriefLine is arena verdict --brief's line: the outcome's summary, and
// its log, from the home directory as ~ (the pre-push hook prints a line a
// verdict; it printed the whole run, some 58 lines, on every push: issue
// 32, point 8).
func BriefLine(out engine.Outcome, home string) string {
	line := engine.OneLine(out.Summary, 0)
	if out.LogPath == "" {
		return line
	}
	path := out.LogPath
	if rest, ok := strings.CutPrefix(path, home+string(filepath.Separator)); ok && home != "" {
		path = "~/" + rest
	}
	return line + " · log " + path
}
