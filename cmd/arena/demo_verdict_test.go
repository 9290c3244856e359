package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/demo"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/engine/verdict"
)

// The recorded verdict demo: a --thorough run on a pull request's diff.
// The quick judge's first call crashes and its retry accepts; the deep
// judge rejects; the tiebreaker, from a third provider, sides with the
// deep judge: reject.
func init() {
	demoRuns["verdict"] = func(s *sandbox) ([]string, int) {
		s.writeConfig(verdictSeats)
		if err := os.WriteFile(filepath.Join(s.dir, "pagination.diff"), []byte(demoVerdictDiff), 0o600); err != nil {
			s.t.Fatal(err)
		}
		raw := func(v string) clitest.Step { return clitest.Step{Reply: json.RawMessage(v), Fence: true} }
		slow := clitest.AgentScript{DelayMS: 60, Chunks: 30}
		gemini, claude, codex := slow, slow, slow
		gemini.Steps = map[string][]clitest.Step{"verdict.quick": {
			{Mode: clitest.ModeCrash},
			raw(`{"verdict": "accept", "scores": {"semantic": 4, "pragmatic": 4, "syntactic": 4},
 "reasoning": "Cursor pagination is implemented as the task asks, with a test for the first page.",
 "improvements": []}`),
		}}
		claude.Steps = map[string][]clitest.Step{"verdict.deep": {raw(`{"verdict": "reject",
 "scores": {"semantic": 1, "pragmatic": 3, "syntactic": 4},
 "reasoning": ["Semantic: the cursor encodes the row's id only, but the query orders by created_at; two rows created in the same millisecond are skipped or repeated across pages — the defining property of a cursor is broken.",
  "Pragmatic: clients can page through the users, and the API shape matches the task.",
  "Syntactic: the code is consistent and the test is well formed, though it covers the first page only."],
 "improvements": ["Encode (created_at, id) in the cursor and order by both", "Test a page boundary that falls between two rows with the same created_at", "Reject a cursor that does not decode with 400, not 500"]}`)}}
		codex.Steps = map[string][]clitest.Step{"verdict.tiebreak": {raw(`{"verdict": "reject",
 "scores": {"semantic": 1, "pragmatic": 3, "syntactic": 4},
 "reasoning": ["Judge B's objection holds: ORDER BY created_at with an id-only cursor loses rows on ties, and created_at has millisecond resolution in this schema.",
  "Judge A's test passes only because its fixture has distinct timestamps.",
  "A pagination change that silently drops rows blocks use, whatever the rest."],
 "improvements": ["Use a compound (created_at, id) cursor", "Add a fixture with equal created_at values"]}`)}}
		s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": gemini, "claude": claude, "codex": codex}})
		return []string{"verdict", "--no-tui", "--thorough", "--task-id", "issue-42",
			"--task", "Paginate GET /users with an opaque cursor", "pagination.diff"}, exitReject
	}
}

const demoVerdictDiff = `diff --git a/api/users.go b/api/users.go
--- a/api/users.go
+++ b/api/users.go
@@ -12,9 +12,24 @@ func (h *Handler) ListUsers(w http.ResponseWriter, r *http.Request) {
-	users, err := h.db.Users(r.Context())
+	after, err := decodeCursor(r.URL.Query().Get("cursor"))
+	if err != nil {
+		http.Error(w, err.Error(), http.StatusInternalServerError)
+		return
+	}
+	users, err := h.db.UsersAfter(r.Context(), after, pageSize+1)
 	if err != nil {
 		http.Error(w, err.Error(), http.StatusInternalServerError)
 		return
 	}
-	json.NewEncoder(w).Encode(users)
+	page := Page{Users: users}
+	if len(users) > pageSize {
+		page.Users = users[:pageSize]
+		page.Next = encodeCursor(users[pageSize-1].ID)
+	}
+	json.NewEncoder(w).Encode(page)
 }
diff --git a/db/users.go b/db/users.go
+func (db *DB) UsersAfter(ctx context.Context, afterID int64, n int) ([]User, error) {
+	return db.query(ctx, "SELECT * FROM users WHERE id > $1 ORDER BY created_at LIMIT $2", afterID, n)
+}
`

func TestVerdictDemo(t *testing.T) {
	lc, err := demo.Read("verdict")
	if err != nil {
		t.Fatal(err)
	}
	o := enginetest.Outcome(t, lc)
	if o.Result != verdict.OutcomeReject || !strings.Contains(o.Summary, "the tiebreaker sided with reject") {
		t.Fatalf("outcome %s %q", o.Result, o.Summary)
	}
	var retried bool
	var tables int
	for _, e := range lc.Events {
		switch p := e.Payload.(type) {
		case engine.AgentFailed:
			retried = retried || (p.Seat == "quick" && p.WillRetry)
		case engine.Table:
			tables++
		}
	}
	if !retried || tables != 2 {
		t.Fatalf("retried %v, %d scorecards", retried, tables)
	}
	if !slices.ContainsFunc(lc.Events[0].Payload.(engine.DebateStarted).Seats, func(s engine.Seat) bool { return s.Name == "tiebreaker" && s.Agent == "codex" }) {
		t.Fatal("no tiebreaker seat")
	}
}
