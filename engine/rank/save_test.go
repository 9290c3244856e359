package rank

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReportNeverReplacesAFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report.json")
	if got, err := WriteReport([]byte("{}"), out, ""); err != nil || got != out {
		t.Fatalf("to --out: %q, %v", got, err)
	}
	if _, err := WriteReport([]byte("{}"), out, ""); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("--out written twice: %v", err)
	}
	log := filepath.Join(dir, "2026-rank-a-vs-b.jsonl")
	first, err := WriteReport([]byte("1"), "", log)
	if err != nil || first != filepath.Join(dir, "2026-rank-a-vs-b.json") {
		t.Fatalf("beside the log: %q, %v", first, err)
	}
	second, err := WriteReport([]byte("2"), "", log)
	if err != nil || second == first {
		t.Fatalf("beside the log again: %q, %v", second, err)
	}
	if b, _ := os.ReadFile(first); string(b) != "1" {
		t.Fatalf("the first report became %q", b)
	}
	t.Chdir(dir)
	if got, err := WriteReport([]byte("3"), "", ""); err != nil || got != "rank-report.json" {
		t.Fatalf("without a log: %q, %v", got, err)
	}
}
