package judge

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestReportFilesWriteEachJudgesReportAndTheOutcome(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "reports") // made on the first write
	r := NewReportFiles(dir, "users-2026-11-23", 2)
	for _, w := range []struct {
		n    int
		text string
	}{{1, "judge one\n"}, {2, "judge two\n"}, {1, "round two\x1b[31m\n"}} {
		path, err := r.Append(w.n, w.text)
		if want := filepath.Join(dir, "users-2026-11-23."+string(rune('0'+w.n))+".md"); err != nil || path != want {
			t.Fatalf("append to %d: %q, %v", w.n, path, err)
		}
	}
	if path, err := r.Outcome("# Outcome\n"); err != nil || path != filepath.Join(dir, "users-2026-11-23.md") {
		t.Fatalf("outcome: %q, %v", path, err)
	}
	// A judge's text goes in cleaned of escape sequences.
	if b, _ := os.ReadFile(filepath.Join(dir, "users-2026-11-23.1.md")); string(b) != "judge one\nround two\n" {
		t.Fatalf("judge 1's report %q", b)
	}
	if got := listDir(t, dir); !slices.Equal(got, []string{"users-2026-11-23.1.md", "users-2026-11-23.2.md", "users-2026-11-23.md"}) {
		t.Fatalf("files %q", got)
	}
}

// A set never mixes with an earlier one: one name of it taken moves the
// whole set to the next suffix.
func TestReportFilesTakeAFreeSetWhole(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.2.md"), []byte("earlier"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := NewReportFiles(dir, "s", 2)
	if path, err := r.Append(2, "new"); err != nil || path != filepath.Join(dir, "s-2.2.md") {
		t.Fatalf("append: %q, %v", path, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "s.2.md")); string(b) != "earlier" {
		t.Fatalf("the earlier report became %q", b)
	}
	// Judge 1 never wrote: its empty reserved file goes with the outcome.
	if path, err := r.Outcome("done"); err != nil || path != filepath.Join(dir, "s-2.md") {
		t.Fatalf("outcome: %q, %v", path, err)
	}
	if got := listDir(t, dir); !slices.Equal(got, []string{"s-2.2.md", "s-2.md", "s.2.md"}) {
		t.Fatalf("files %q", got)
	}
}
