package verdict

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine/enginetest"
)

// The sink on the run's bus appends each judge's verdict as it comes, then
// the final record, and the final record is what the run decided.
func TestLogSinkAppendsEachVerdictThenTheFinal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "verdicts.jsonl")
	cfg := config(false)
	deep := enginetest.Agent("claude")
	deep.Args = []string{"--model", "opus"} // the log names the model a command line chooses
	cfg.Judges[Deep] = deep
	p := New(cfg)
	sink := NewLogSink(path, p)
	s := enginetest.NewScript().On("gemini", ShapeQuick, improveStep).On("claude", ShapeDeep, acceptStep)
	out, _ := enginetest.Run(t, context.Background(), WithLog(p, sink), s)
	if err := sink.Err(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		lines = append(lines, m)
	}
	if len(lines) != 3 {
		t.Fatalf("%d records, want the quick judge's, the deep judge's and the final: %v", len(lines), lines)
	}
	want := []struct{ mode, verdict, model string }{
		{"quick", "improve", "gemini"}, {"deep", "accept", "claude/opus"}, {"final", "accept", ""},
	}
	for i, w := range want {
		l := lines[i]
		if l["mode"] != w.mode || l["verdict"] != w.verdict || l["task_id"] != "issue-18" || l["run_id"] != "t" {
			t.Errorf("record %d = %v, want %s %s", i, l, w.mode, w.verdict)
		}
		if w.model != "" && l["model"] != w.model {
			t.Errorf("record %d model %v, want %s", i, l["model"], w.model)
		}
	}
	fin := sink.Final()
	if fin.Verdict != string(out.Result) || fin.Calls != 2 || fin.Mode != ModeFinal || !strings.Contains(fin.Reached, "deep") {
		t.Fatalf("final %+v for outcome %s", fin, out.Result)
	}
}

// Without a path the sink writes nothing, and still keeps the final record
// (arena verdict --json with logs off prints it).
func TestLogSinkWithoutAPath(t *testing.T) {
	p := New(config(false))
	sink := NewLogSink("", p)
	enginetest.Run(t, context.Background(), WithLog(p, sink), enginetest.NewScript().On("gemini", ShapeQuick, acceptStep))
	if sink.Err() != nil || sink.Final().Verdict != "accept" {
		t.Fatalf("err %v, final %+v", sink.Err(), sink.Final())
	}
}

func TestTiebreakerNote(t *testing.T) {
	agent := func(name string, command ...string) challengers.Agent {
		return challengers.Agent{Name: name, Command: command}
	}
	judges := map[Mode]challengers.Agent{Quick: agent("gemini", "gemini"), Deep: agent("claude", "claude")}
	if n := TiebreakerNote(judges); n != "" {
		t.Errorf("no tiebreaker, note %q", n)
	}
	judges[Tiebreaker] = agent("codex", "codex")
	if n := TiebreakerNote(judges); n != "" {
		t.Errorf("another provider, note %q", n)
	}
	// A custom agent running Google's other CLI is Google all the same.
	judges[Tiebreaker] = agent("antigravity", "/opt/bin/agy", "-p")
	n := TiebreakerNote(judges)
	if !strings.Contains(n, "the tiebreaker antigravity is from the same family (google) as the quick judge gemini") {
		t.Errorf("note %q", n)
	}
}
