package sarif

import (
	"strconv"
	"strings"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
)

// Annotations are an outcome's findings as GitHub Actions workflow
// commands, one a line: "::warning file=F,line=N,title=T::message" for
// one arena placed, without file or line for one it did not. Every
// string is cleaned (trust.Text) and then escaped as the runner reads
// commands: in the message %, CR and LF; in a property's value those and
// ":" and "," too. A finding cannot end its line, start a command of its
// own, or move its annotation to another file.
func Annotations(o engine.Outcome) []string {
	var out []string
	parts := Parts(o)
	for _, p := range parts {
		for _, f := range p.Items {
			in := ""
			if len(parts) > 1 {
				in = p.Heading
			}
			out = append(out, annotation(f, in))
		}
	}
	return out
}

// annotation is one finding's workflow command; in names its part of
// the document when it has several (a ranking's repositories).
func annotation(f doc.Finding, in string) string {
	var props []string
	if file := filePath(f.File); file != "" {
		props = append(props, "file="+escapeProperty(file))
		if f.Line > 0 {
			props = append(props, "line="+strconv.Itoa(f.Line))
		}
	}
	title := "arena"
	if about := oneLine(f.About); about != "" {
		title += ": " + about
	}
	if len(f.By) > 0 {
		by := make([]string, len(f.By))
		for i, b := range f.By {
			by[i] = oneLine(b)
		}
		title += " (" + strings.Join(by, ", ") + ")"
	}
	if in != "" {
		title += " — " + in
	}
	props = append(props, "title="+escapeProperty(title))
	return "::" + command(f.Level) + " " + strings.Join(props, ",") + "::" + escapeData(MessageOf(f))
}

// command is the workflow command of a level: error, warning, notice.
func command(level string) string {
	switch level {
	case doc.LevelError:
		return "error"
	case doc.LevelNote:
		return "notice"
	}
	return "warning"
}

// escapeData escapes a command's message as the runner unescapes it.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a command property's value as the runner
// unescapes it.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
