package rank

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine/rank/facts"
)

// A fact seat works in a copy of the branch's tree, never in the
// repository: what is only in the work tree is not in the copy.
func TestExportReposCopiesEachBranchAndCleansUp(t *testing.T) {
	dir := gitRepo(t, filepath.Join(t.TempDir(), "a"))
	if err := os.WriteFile(filepath.Join(dir, "untracked.txt"), []byte("not committed"), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := ReadRepo(dir, "a", "", "")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Repos: []Repo{r}}
	cleanup, err := ExportRepos(&cfg)
	if err != nil {
		cleanup()
		t.Fatal(err)
	}
	copyDir := cfg.Repos[0].WorkDir
	if b, err := os.ReadFile(filepath.Join(copyDir, "main.go")); err != nil || string(b) != "package main\n\nfunc main() {}\n" {
		t.Fatalf("the copy's main.go: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(copyDir, "untracked.txt")); err == nil {
		t.Fatal("the copy holds a file of the work tree only")
	}
	if got := cfg.Repos[0]; got.CopyFiles != 2 || copyDir == dir {
		t.Fatalf("copy %s of %d files", copyDir, got.CopyFiles)
	}
	cleanup()
	if _, err := os.Stat(copyDir); !os.IsNotExist(err) {
		t.Fatalf("the copy is still there: %v", err)
	}
}

// A head that is not in the repository fails the export, and what was
// copied before is removed all the same.
func TestExportReposCleansUpAfterAFailure(t *testing.T) {
	dir := gitRepo(t, filepath.Join(t.TempDir(), "a"))
	good, err := ReadRepo(dir, "a", "", "")
	if err != nil {
		t.Fatal(err)
	}
	bad := good
	bad.Label, bad.Git = "b", facts.Git{Head: "0123456789012345678901234567890123456789"}
	cfg := Config{Repos: []Repo{good, bad}}
	cleanup, err := ExportRepos(&cfg)
	if err == nil || !strings.Contains(err.Error(), "a copy of repository b for its fact seat: ") {
		cleanup()
		t.Fatalf("exporting a missing commit: %v", err)
	}
	copyDir := cfg.Repos[0].WorkDir
	cleanup()
	if _, err := os.Stat(copyDir); copyDir == "" || !os.IsNotExist(err) {
		t.Fatalf("the first copy %q is still there: %v", copyDir, err)
	}
}
