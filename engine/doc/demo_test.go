package doc_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/engine/runlog"
)

// Every protocol's document, as its recorded demo's log holds it, and the
// document of a run a bug ended, validate against the published schema;
// the log's Markdown is the document's rendering.
func TestDocumentsValidate(t *testing.T) {
	logs, _ := filepath.Glob(filepath.Join("..", "demo", "*.jsonl"))
	if len(logs) < 5 {
		t.Fatalf("%d demos", len(logs))
	}
	docs := map[string]*doc.Document{"internal error": engine.InternalError(&challengers.Panic{Value: "boom", Stack: "goroutine 1"}).Document}
	for _, path := range logs {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		lc, err := runlog.Read(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range lc.Events {
			if o, ok := e.Payload.(engine.Outcome); ok {
				docs[filepath.Base(path)] = o.Document
				if o.Document == nil || o.Markdown != doc.Markdown(*o.Document) {
					t.Errorf("%s: the outcome's Markdown is not its document's", path)
				}
			}
		}
	}
	for name, d := range docs {
		if d == nil {
			t.Errorf("%s: no document", name)
			continue
		}
		b, _ := json.Marshal(d)
		if err := doc.Validate(b); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The log holds an outcome's document as data, not its Markdown too; the
// reader renders the Markdown from it. A log written before documents
// were data has its Markdown read as it is.
func TestTheLogHoldsTheDocument(t *testing.T) {
	d := &doc.Document{Title: "Debate outcome", Result: "consensus", Summary: "agreed"}
	d.Add("Options", doc.Para("Kafka \x1b[31mor\x1b[0m NATS"))
	for _, o := range []engine.Outcome{{Result: "consensus", Document: d, Markdown: "stale"}, {Result: "consensus", Markdown: "# An old outcome\n"}} {
		b, err := json.Marshal(engine.Event{Seq: 1, Payload: o})
		if err != nil {
			t.Fatal(err)
		}
		var raw struct {
			Data map[string]json.RawMessage `json:"data"`
		}
		json.Unmarshal(b, &raw)
		_, hasMD := raw.Data["markdown"]
		_, hasDoc := raw.Data["document"]
		if hasDoc != (o.Document != nil) || hasMD == (o.Document != nil) {
			t.Fatalf("the log's outcome: %s", b)
		}
		var back engine.Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		got := back.Payload.(engine.Outcome)
		want := o.Markdown
		if o.Document != nil {
			want = "# Debate outcome: consensus\n\n**agreed.**\n\n## Options\n\nKafka or NATS\n" // its escape sequences cleaned
		}
		if got.Markdown != want {
			t.Fatalf("read back %q, want %q", got.Markdown, want)
		}
	}
}
