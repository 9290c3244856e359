package verdict

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func judgement() Judgement {
	j, err := Parse(`{"verdict": "accept", "scores": {"semantic": 4, "pragmatic": 4, "syntactic": 5}, "reasoning": "solid", "improvements": []}`)
	if err != nil {
		panic(err)
	}
	return j
}

func TestRecordsValidateAgainstTheSchema(t *testing.T) {
	now := time.Date(2026, 2, 17, 14, 30, 0, 0, time.FixedZone("CET", 3600))
	rec := NewRecord("issue-18", "run-1", "gemini", Quick, judgement(), now)
	if rec.Timestamp != "2026-02-17T13:30:00Z" {
		t.Fatalf("timestamp %q is not UTC RFC 3339", rec.Timestamp)
	}
	fin := Final{TaskID: "issue-18", RunID: "run-1", Mode: ModeFinal, Verdict: "escalate", Reached: "both improve", Calls: 2, DebateLog: "debate-logs/x.jsonl", Timestamp: Timestamp(now)}
	for _, v := range []any{rec, fin} {
		b, _ := json.Marshal(v)
		if err := ValidateRecord(b); err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
}

// The validator is a real one: each way a record can be wrong is caught,
// with where.
func TestSchemaRejectsBadRecords(t *testing.T) {
	good, _ := json.Marshal(NewRecord("issue-18", "run-1", "gemini", Quick, judgement(), time.Now()))
	for name, tc := range map[string]struct {
		edit func(m map[string]any)
		want string
	}{
		"score out of range": {func(m map[string]any) { m["scores"].(map[string]any)["semantic"] = 6 }, "at /scores/semantic: maximum: 6/1 is greater than 5"},
		"score not whole":    {func(m map[string]any) { m["scores"].(map[string]any)["semantic"] = 3.5 }, `at /scores/semantic: type: 3.5 has type "number", want "integer"`},
		"missing key":        {func(m map[string]any) { delete(m, "reasoning") }, `at /: required: missing properties: ["reasoning"]`},
		"extra key":          {func(m map[string]any) { m["confidence"] = "high" }, `at /: unexpected additional properties ["confidence"]`},
		"bad verdict":        {func(m map[string]any) { m["verdict"] = "escalate" }, "at /verdict: enum: escalate does not equal any of: [accept improve reject]"},
		"bad mode":           {func(m map[string]any) { m["mode"] = "slow" }, "at /mode: enum: slow does not equal any of: [quick deep tiebreaker]"},
		"bad timestamp":      {func(m map[string]any) { m["timestamp"] = "yesterday" }, `at /timestamp: "yesterday" is not an RFC 3339 date-time`},
		"improvement number": {func(m map[string]any) { m["improvements"] = []any{1} }, `at /improvements/*: type: 1 has type "integer", want "string"`},
		"empty task id":      {func(m map[string]any) { m["task_id"] = "" }, `at /task_id: minLength: "" contains 0 Unicode code points, fewer than 1`},
	} {
		t.Run(name, func(t *testing.T) {
			var m map[string]any
			json.Unmarshal(good, &m)
			tc.edit(m)
			b, _ := json.Marshal(m)
			err := ValidateRecord(b)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%v, want %q", err, tc.want)
			}
		})
	}
	if err := ValidateRecord([]byte(`{"mode": "final"} {}`)); err == nil {
		t.Fatal("two values on a line pass")
	}
}

func TestSchemaIsValidJSONSchemaDocument(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal(Schema(), &m); err != nil {
		t.Fatal(err)
	}
	if m["$schema"] != "https://json-schema.org/draft/2020-12/schema" || m["$id"] != schemaID {
		t.Fatalf("$schema %v, $id %v", m["$schema"], m["$id"])
	}
	// compile reads the document as a schema (every keyword known, of its
	// type) and resolves it.
	if _, err := compile(Schema()); err != nil {
		t.Fatal(err)
	}
}

// The schema is generated from the structs: every key a record is written
// with is a property of its kind, and the keys written always are the
// required ones.
func TestSchemaFollowsTheStructs(t *testing.T) {
	var doc struct {
		OneOf []struct {
			Title      string
			Properties map[string]any
			Required   []string
		}
	}
	if err := json.Unmarshal(Schema(), &doc); err != nil || len(doc.OneOf) != 2 {
		t.Fatalf("%v: %d kinds", err, len(doc.OneOf))
	}
	full := NewRecord("t", "r", "m", Deep, judgement(), time.Now())
	full.StatedVerdict, full.Stripped = Reject, []string{"a fence"}
	for i, v := range []any{full, Final{Failures: []string{"x"}}} {
		b, _ := json.Marshal(v)
		var keys map[string]any
		json.Unmarshal(b, &keys)
		kind := doc.OneOf[i]
		if len(keys) != len(kind.Properties) {
			t.Errorf("%s: %d keys written, %d properties", kind.Title, len(keys), len(kind.Properties))
		}
		for k := range keys {
			if _, ok := kind.Properties[k]; !ok {
				t.Errorf("%s: %q is written but not in the schema", kind.Title, k)
			}
		}
	}
	if got := strings.Join(doc.OneOf[1].Required, ","); got != "task_id,run_id,mode,verdict,reached,calls,sensitive,debate_log,timestamp" {
		t.Errorf("final decision requires %s", got)
	}
}

// A final record that is wrong is told what is wrong with it as a final
// record, not also everything a judge's record would need.
func TestSchemaExplainsByTheRecordsKind(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		fin  Final
		want string
	}{
		{Final{TaskID: "t", RunID: "r", Mode: ModeFinal, Verdict: "maybe", Reached: "x", Timestamp: Timestamp(now)}, "at /verdict: enum: maybe does not equal any of"},
		{Final{TaskID: "t", RunID: "r", Mode: ModeFinal, Verdict: "accept", Reached: "x", Calls: 4, Timestamp: Timestamp(now)}, "at /calls: maximum: 4/1 is greater than 3"},
	} {
		b, _ := json.Marshal(tc.fin)
		err := ValidateRecord(b)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "scores") {
			t.Errorf("%s: %v, want %q", b, err, tc.want)
		}
	}
	for _, v := range finalVerdicts {
		b, _ := json.Marshal(Final{TaskID: "t", RunID: "r", Mode: ModeFinal, Verdict: v, Reached: "x", Timestamp: Timestamp(now)})
		if err := ValidateRecord(b); err != nil {
			t.Errorf("final %s: %v", v, err)
		}
	}
}

// Two writers appending at once leave every line whole: each record is
// one write to a file opened O_APPEND.
func TestConcurrentAppendsStayWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "verdicts.jsonl")
	big := strings.Repeat("a long reasoning line ", 400) // ~9 KiB records
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				j := judgement()
				j.Reasoning = big
				rec := NewRecord("issue-18", "run-"+string(rune('a'+w)), "gemini", Quick, j, time.Now())
				rec.Improvements = []string{strings.Repeat("x", i)}
				if err := Append(path, rec); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	if len(lines) != 400 {
		t.Fatalf("%d lines", len(lines))
	}
	for i, l := range lines {
		if err := ValidateRecord(l); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode().Perm())
	}
}

func TestStats(t *testing.T) {
	var b bytes.Buffer
	add := func(v any) {
		line, _ := json.Marshal(v)
		b.Write(append(line, '\n'))
	}
	now := time.Now()
	acc, imp := judgement(), judgement()
	imp.Verdict = Improve
	// run 1: quick improve, deep accept (disagree); run 2: both improve
	// (agree) and escalated; run 3: quick only.
	add(NewRecord("t1", "r1", "gemini", Quick, imp, now))
	add(NewRecord("t1", "r1", "claude", Deep, acc, now))
	add(Final{TaskID: "t1", RunID: "r1", Mode: ModeFinal, Verdict: "accept", Reached: "x", Calls: 2, Timestamp: Timestamp(now)})
	add(NewRecord("t2", "r2", "gemini", Quick, imp, now))
	add(NewRecord("t2", "r2", "claude", Deep, imp, now))
	add(Final{TaskID: "t2", RunID: "r2", Mode: ModeFinal, Verdict: "escalate", Reached: "x", Calls: 2, Timestamp: Timestamp(now)})
	add(NewRecord("t3", "r3", "gemini", Quick, acc, now))
	b.WriteString("{\"half a line\n")
	st, err := ReadStats(&b)
	if err != nil {
		t.Fatal(err)
	}
	if st.Records != 7 || len(st.Invalid) != 1 || st.QuickDeep != 2 || st.Agreed != 1 || st.Escalations != 1 {
		t.Fatalf("%+v", st)
	}
	if st.PerModel["gemini"][Improve] != 2 || st.PerModel["gemini"][Accept] != 1 || st.PerModel["claude"][Accept] != 1 {
		t.Fatalf("%+v", st.PerModel)
	}
	txt := st.Text()
	for _, want := range []string{"Quick/deep agreement: 1 of 2 runs (50%)", "Escalations: 1", "gemini", "invalid: line 8"} {
		if !strings.Contains(txt, want) {
			t.Errorf("stats lack %q:\n%s", want, txt)
		}
	}
}
