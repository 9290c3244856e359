package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
)

// Tests of the trust boundary (issue 18): what a model, a log, a file or
// an argument supplies never drives the terminal, runs a command, or
// leaks a file.

// everyAgentWritesEscapes scripts every agent to wrap every string of its
// replies in escape sequences, JSON-escaped (a window title, a screen
// clear, a colour), as models do when they explain ANSI colours.
func everyAgentWritesEscapes(s *sandbox) {
	sc := &clitest.Script{Agents: map[string]clitest.AgentScript{}}
	for _, a := range []string{"claude", "gemini", "codex", "qwen"} {
		sc.Agents[a] = clitest.AgentScript{Mode: fakeapi.ModeEscapes}
	}
	s.fakes.SetScript(sc)
}

// escapeIn says what, if anything, an output holds that could drive a
// terminal: an ESC or CSI byte, a C1 control, or the marker the escapes
// carried (an OSC's payload must go with its ESC).
func escapeIn(b []byte) string {
	switch {
	case bytes.IndexByte(b, 0x1b) >= 0:
		return "an ESC byte"
	case bytes.Contains(b, []byte("\u009b")) || bytes.Contains(b, []byte("\u009d")):
		return "a C1 control"
	case bytes.Contains(b, []byte(fakeapi.EscapesMarker)):
		return "the escape sequence's payload " + fakeapi.EscapesMarker
	case bytes.Contains(b, []byte(`\u001b`)) && !json.Valid(b):
		return `a \u001b outside JSON`
	}
	return ""
}

// checkClean fails the test for any escape in a command's output.
func checkClean(t *testing.T, what string, r result) {
	t.Helper()
	if why := escapeIn([]byte(r.stdout)); why != "" {
		t.Errorf("%s: stdout holds %s:\n%s", what, why, excerptAround(r.stdout))
	}
	// An error may quote what it refused, made visible ("\x1b]0;..."):
	// on stderr only the bytes themselves count.
	if bytes.IndexByte([]byte(r.stderr), 0x1b) >= 0 || bytes.Contains([]byte(r.stderr), []byte("\u009b")) {
		t.Errorf("%s: stderr holds an escape:\n%s", what, excerptAround(r.stderr))
	}
}

// checkJSONClean fails the test for JSON Lines output holding an escape
// sequence, raw or, once decoded, inside any string: a script that prints
// a field of arena's JSON must not print an escape either. (A reply's raw
// text may hold the six characters \u001b, which are text, not an
// escape.)
func checkJSONClean(t *testing.T, what string, r result) {
	t.Helper()
	checkClean(t, what, result{stderr: r.stderr})
	if bytes.IndexByte([]byte(r.stdout), 0x1b) >= 0 {
		t.Errorf("%s: stdout holds a raw ESC", what)
	}
	for i, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if line == "" {
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%s: line %d is not JSON: %v", what, i+1, err)
		}
		if s := escapedString(v); s != "" {
			t.Errorf("%s: line %d holds a string with an escape once decoded: %q", what, i+1, engineTruncate(s))
		}
	}
}

// escapedString is the first string in v holding ESC, CSI or another
// C1 control once decoded, or "".
func escapedString(v any) string {
	switch x := v.(type) {
	case string:
		if strings.ContainsAny(x, "\x1b\u009b\u009d") {
			return x
		}
	case []any:
		for _, e := range x {
			if s := escapedString(e); s != "" {
				return s
			}
		}
	case map[string]any:
		for k, e := range x {
			if s := escapedString(k); s != "" {
				return s
			}
			if s := escapedString(e); s != "" {
				return s
			}
		}
	}
	return ""
}

// checkFilesClean fails the test for any escape in a file arena saved
// under dir. JSON files may carry \u001b as an escape inside a string
// (a JSON reader never shows it raw); nothing else may.
func checkFilesClean(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Error(err)
			return nil
		}
		n++
		if bytes.IndexByte(b, 0x1b) >= 0 || bytes.Contains(b, []byte("\u009b")) {
			t.Errorf("%s holds a raw escape:\n%s", p, excerptAround(string(b)))
		}
		if !strings.HasSuffix(p, ".jsonl") && !strings.HasSuffix(p, ".json") && bytes.Contains(b, []byte(fakeapi.EscapesMarker)) {
			t.Errorf("%s holds the escapes' payload:\n%s", p, excerptAround(string(b)))
		}
		return nil
	})
	return n
}

var escapeish = regexp.MustCompile("\x1b|PWNED|\u009b")

func excerptAround(s string) string {
	loc := escapeish.FindStringIndex(s)
	if loc == nil {
		return engineTruncate(s)
	}
	return strings.ToValidUTF8(s[max(0, loc[0]-200):min(len(s), loc[1]+200)], "?")
}

func engineTruncate(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

// Every protocol, run with agents whose every string carries escape
// sequences, prints none of them, saves none in a document, and neither
// does a replay of its log, arena logs, or verdict --stats.
func TestNoEscapeFromAModelReachesAnyOutput(t *testing.T) {
	s := newSandbox(t)
	s.writeConfig(verdictSeats)
	everyAgentWritesEscapes(s)
	solution := s.writeSolution(t)
	if err := os.WriteFile(filepath.Join(s.dir, "report.md"), []byte("# API\n\nGET /users returns the users.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	spec, repos := rankSetup(t, s, "alpha", "beta")
	runs := [][]string{
		{"--no-tui", "should we move sessions to Postgres?"},
		{"compare", "--no-tui", "which queue?", "--option", "Kafka", "--option", "Postgres", "--criteria", "speed:high,cost:low"},
		{"judge", "--no-tui", solution, "--task", "create users", "--criteria", judgeCriteria, "--reports-dir", "reports"},
		{"verdict", "--no-tui", "report.md", "--task-id", "api-doc"},
		{"rank", "--no-tui", spec, repos[0], repos[1]},
	}
	for _, args := range runs {
		r := s.run(args...)
		if r.code == exitUsage || r.code == exitError {
			t.Fatalf("arena %v: exit %d\n%s", args, r.code, r.stderr)
		}
		checkClean(t, strings.Join(args[:1], " "), r)
	}
	for _, log := range s.logs() {
		checkClean(t, "replay "+filepath.Base(log), s.run("replay", "--no-tui", "--instant", log))
		checkJSONClean(t, "replay --json "+filepath.Base(log), s.run("replay", "--json", log))
	}
	checkClean(t, "logs", s.run("logs"))
	checkClean(t, "verdict --stats", s.run("verdict", "--stats", defaultVerdictLog(s)))
	if n := checkFilesClean(t, s.dir); n < 10 {
		t.Fatalf("only %d files saved: the runs did not get far", n)
	}
}

// Escape sequences in what a person passes (a topic on stdin, an option's
// name, a file's name) and in a log edited by hand reach no output either.
func TestNoEscapeFromAnArgumentOrALogReachesAnyOutput(t *testing.T) {
	s := newSandbox(t)
	const hostile = "\x1b]0;" + fakeapi.EscapesMarker + "\x07\x1b[2J\u009b31m"
	r := s.runIn([]byte("should we move"+hostile+" sessions?\n"), "-", "--no-tui")
	checkClean(t, "topic on stdin", r)
	r = s.run("compare", "--no-tui", "which queue?", "--option", "Kafka"+hostile, "--option", "Postgres", "--criteria", "speed:high", "--quick")
	checkClean(t, "option names", r)
	name := filepath.Join(s.dir, "users"+hostile+".go")
	if err := os.WriteFile(name, []byte(judgeSolution), 0o600); err != nil {
		t.Fatal(err)
	}
	r = s.run("judge", "--no-tui", filepath.Base(name), "--task", "create users", "--criteria", judgeCriteria)
	checkClean(t, "a file name", r)
	if n := checkFilesClean(t, s.dir); n < 6 {
		t.Fatalf("only %d files saved", n)
	}

	// A log whose every string was given an escape sequence by hand
	// (timestamps and event types aside: those make it no log at all).
	for i, log := range s.logs() {
		path := filepath.Join(t.TempDir(), "tampered.jsonl")
		if err := os.WriteFile(path, tamperLog(t, log), 0o600); err != nil {
			t.Fatal(err)
		}
		r := s.run("replay", "--no-tui", "--instant", path)
		if r.code != 0 {
			t.Errorf("replay of tampered log %d: exit %d\n%s", i, r.code, r.stderr)
		}
		checkClean(t, "replay of a tampered log", r)
		checkJSONClean(t, "replay --json of a tampered log", s.run("replay", "--json", path))
	}
}

// tamperLog gives every string of a log's events an escape sequence,
// JSON-escaped as a hand or a script would write it.
func tamperLog(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const evil = "\x1b]0;" + fakeapi.EscapesMarker + "\x07\x1b[2J"
	var tamper func(v any) any
	tamper = func(v any) any {
		switch x := v.(type) {
		case string:
			if _, err := time.ParseDuration(x); err == nil {
				return x // a duration is no place for words: the log would be refused
			}
			return evil + x
		case []any:
			for i := range x {
				x[i] = tamper(x[i])
			}
		case map[string]any:
			for k, e := range x {
				x[k] = tamper(e)
			}
		}
		return v
	}
	var out bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var ev map[string]any
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatal(err)
		}
		ev["data"] = tamper(ev["data"])
		enc, _ := json.Marshal(ev)
		out.Write(enc)
		out.WriteByte('\n')
	}
	return out.Bytes()
}
