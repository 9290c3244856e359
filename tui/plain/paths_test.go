package plain

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRelativeToNamesAFileOneWay(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	shown := RelativeTo(dir)
	for in, want := range map[string]string{
		"debate-logs/x.md":                     filepath.Join("debate-logs", "x.md"),
		filepath.Join(dir, "debate-logs/x.md"): filepath.Join("debate-logs", "x.md"),
		dir:                                    dir, // the directory itself, not "."
		filepath.Dir(dir):                      filepath.Dir(dir),
		filepath.Join(filepath.Dir(dir), "other", "x.md"): filepath.Join(filepath.Dir(dir), "other", "x.md"),
		"": "",
	} {
		if got := shown(in); got != want {
			t.Errorf("RelativeTo(%s)(%q) = %q, want %q", dir, in, got, want)
		}
	}
	// A resume goes on in its run's directory: a relative path is the
	// run's, named from where arena was started.
	sub := filepath.Join(dir, "run")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	if got := RelativeTo(dir)("r.json"); got != filepath.Join("run", "r.json") {
		t.Errorf("got %q", got)
	}
}
