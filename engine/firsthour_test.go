package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/arenadebate/arena/challengers"
)

// answering is a RunFunc whose every call succeeds with text.
func answering(text string) RunFunc {
	return func(context.Context, challengers.Request) challengers.Result {
		return challengers.Result{Reason: challengers.ReasonOK, Text: text}
	}
}

// TestARunThatAskedNoModelKeepsNoLog: a run whose preflight aborted
// before any call names no log in its outcome, and the document writer
// saves nothing beside it; a run that asked names its log (issue 32,
// point 2).
func TestARunThatAskedNoModelKeepsNoLog(t *testing.T) {
	dir := t.TempDir()
	for _, ask := range []bool{false, true} {
		bus := NewBus()
		doc := &DocumentWriter{Path: filepath.Join(dir, "run.md"), Bus: bus}
		bus.Subscribe(doc)
		p := funcProtocol(func(ctx context.Context, rt *Runtime) Outcome {
			if ask {
				rt.Ask(ctx, Question{Agent: challengers.Agent{Name: "a"}, Prompt: "x", Parse: func(s string) (Reply, error) { return proseReply(s), nil }})
			}
			return Outcome{Result: OutcomeAborted, Summary: "Aborted: the defender claude is not installed", Markdown: "# Debate: aborted\n"}
		})
		out := Run(context.Background(), p, bus, Options{Run: answering("ok"), LogPath: filepath.Join(dir, "run.jsonl")})
		bus.Close()
		_, err := os.Stat(doc.Path)
		switch {
		case !ask && (out.LogPath != "" || err == nil):
			t.Fatalf("a run that asked no model: log %q, document saved: %v", out.LogPath, err == nil)
		case ask && (out.LogPath == "" || err != nil):
			t.Fatalf("a run that asked a model: log %q, document: %v", out.LogPath, err)
		}
	}
}
