package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// editLog rewrites every event of the log at from with edit (its type
// and data), and writes the result to to.
func editLog(t *testing.T, from, to string, edit func(typ string, data map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var ev map[string]any
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatal(err)
		}
		if data, ok := ev["data"].(map[string]any); ok {
			edit(ev["type"].(string), data)
		}
		enc, _ := json.Marshal(ev)
		out.Write(append(enc, '\n'))
	}
	if err := os.WriteFile(to, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestAskOnAHostileLogWritesOnlyBesideIt (issue 36, item 1): a log shared
// into HOME names ~/.bashrc as its outcome document (with that file's
// hash, which anyone can know of a stock .bashrc) and gives its defender
// a name holding a newline and a command. arena ask writes nothing but a
// new <log stem>.md beside the log, says so, and the name is one line in
// it. (It used to append the follow-up, the name's second line
// included, to ~/.bashrc.)
func TestAskOnAHostileLogWritesOnlyBesideIt(t *testing.T) {
	s := newSandbox(t)
	if r := s.run("--no-tui", "should we move sessions to Postgres?"); r.code != exitConsensus {
		t.Fatalf("debate: exit %d\n%s", r.code, r.stderr)
	}
	bashrc := filepath.Join(s.home, ".bashrc")
	const stock = "# ~/.bashrc: executed by bash(1) for non-login shells.\n"
	if err := os.WriteFile(bashrc, []byte(stock), 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(stock))
	const evil = "claude\ntouch X; $(touch X)"
	log := filepath.Join(s.home, "shared.jsonl")
	editLog(t, s.logs()[0], log, func(typ string, data map[string]any) {
		switch typ {
		case "saved":
			data["path"], data["sha256"] = ".bashrc", hex.EncodeToString(sum[:])
		case "outcome":
			data["markdown"] = "#"
		case "debate_started":
			data["follow_up_seat"] = evil
			for _, seat := range data["seats"].([]any) {
				if seat := seat.(map[string]any); seat["name"] == "claude" {
					seat["name"] = evil
				}
			}
		}
	})
	before, _ := os.ReadDir(s.home)

	r := s.run("ask", log, followUpQuestion)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(bashrc); string(b) != stock {
		t.Fatalf("~/.bashrc was written:\n%s", b)
	}
	var added []string
	after, _ := os.ReadDir(s.home)
	for _, e := range after {
		if !slices.ContainsFunc(before, func(b os.DirEntry) bool { return b.Name() == e.Name() }) {
			added = append(added, e.Name())
		}
	}
	doc := filepath.Join(s.home, "shared.md")
	if !slices.Equal(added, []string{"shared.md"}) {
		t.Fatalf("arena ask wrote %v in the log's directory", added)
	}
	if want := "in a new document beside the log, " + doc; !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "Outcome document: "+doc) {
		t.Errorf("arena ask does not say where the follow-up went:\n%s", r.stdout)
	}
	b, _ := os.ReadFile(doc)
	if !strings.Contains(string(b), "\nAsked of claude touch X; $(touch X) (defender, claude)") {
		t.Errorf("the follow-up is not in the new document:\n%s", b)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "touch X") && !strings.HasPrefix(line, "Asked of claude touch X; $(touch X) (defender, claude)") {
			t.Errorf("the seat's name is not one line in the document:\n%s", b)
		}
	}
	for _, c := range s.fakes.CallsTo("claude") {
		if c.Kind == "followup" && strings.Contains(c.Prompt, "claude\ntouch X") {
			t.Errorf("the seat's name is two lines in the prompt:\n%s", c.Prompt)
		}
	}
	// Asked again, it appends to the document it wrote, whose hash the
	// log now records.
	if r := s.run("ask", log, "and then?"); r.code != 0 || !strings.Contains(r.stdout, "Follow-up appended to the outcome document: "+doc) {
		t.Fatalf("a second follow-up: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(doc); !strings.Contains(string(b), "## Follow-up: and then?") {
		t.Fatalf("the second follow-up is not in %s:\n%s", doc, b)
	}
	if b, _ := os.ReadFile(bashrc); string(b) != stock {
		t.Fatalf("~/.bashrc was written:\n%s", b)
	}
}
