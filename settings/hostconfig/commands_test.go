package hostconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/trust"
)

func plan(t *testing.T, dir string) Command {
	t.Helper()
	d, err := trust.OpenDir(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c, err := PlanCommand(d, "debate.md", []byte("Run arena on $ARGUMENTS.\n"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A command file is added, then found unchanged, updated while it carries
// arena's marker, and kept once someone took it over.
func TestCommandFileLifecycle(t *testing.T) {
	dir := t.TempDir()
	c := plan(t, dir)
	if c.State != CommandAdded || c.Slash != "/debate" || string(c.Data) != "Run arena on $ARGUMENTS.\n\n"+CommandMarker+"\n" {
		t.Fatalf("a new file: %+v", c)
	}
	d, err := trust.OpenDir(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := WriteCommand(d, c); err != nil {
		t.Fatal(err)
	}
	if c := plan(t, dir); c.State != CommandUnchanged {
		t.Fatalf("written: %+v", c)
	}
	path := filepath.Join(dir, "debate.md")
	if err := os.WriteFile(path, []byte("my edit\n"+CommandMarker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c = plan(t, dir)
	if c.State != CommandUpdated {
		t.Fatalf("edited, marker kept: %+v", c)
	}
	if err := WriteCommand(d, c); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != string(c.Data) {
		t.Fatalf("updated to %q", b)
	}
	// Made read-only, or given a second name, arena's own file is kept.
	os.WriteFile(path, []byte("old\n"+CommandMarker+"\n"), 0o644)
	os.Chmod(path, 0o444)
	if c := plan(t, dir); c.State != CommandKept || !strings.Contains(c.Why, "read-only") {
		t.Fatalf("read-only: %+v", c)
	}
	os.Chmod(path, 0o644)
	twin := filepath.Join(t.TempDir(), "twin.md")
	if err := os.Link(path, twin); err != nil {
		t.Fatal(err)
	}
	if c := plan(t, dir); c.State != CommandKept || !strings.Contains(c.Why, "2 hard links") {
		t.Fatalf("linked: %+v", c)
	}
	os.Remove(twin)
	if err := os.WriteFile(path, []byte("mine now\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := plan(t, dir); c.State != CommandKept || c.Why != "arena did not write it" {
		t.Fatalf("taken over: %+v", c)
	}
}

func TestCommandFileKeepsWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(dir, "elsewhere.md"), filepath.Join(dir, "debate.md")); err != nil {
		t.Fatal(err)
	}
	if c := plan(t, dir); c.State != CommandKept || c.Why != "it is not a regular file" {
		t.Fatalf("a link: %+v", c)
	}
	big := filepath.Join(t.TempDir(), "debate.md")
	if err := os.WriteFile(big, make([]byte, 2<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := plan(t, filepath.Dir(big)); c.State != CommandKept || c.Why == "" {
		t.Fatalf("a file too big to read: %+v", c)
	}
}
