package trust

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// linkedTree makes root, holding files of its own, links out of it (and
// one that stays inside it) and a FIFO, beside a directory of secrets.
func linkedTree(t *testing.T) (parent, root string) {
	t.Helper()
	parent = t.TempDir()
	root = filepath.Join(parent, "root")
	secrets := filepath.Join(parent, "secrets")
	for path, content := range map[string]string{
		filepath.Join(root, "a.txt"):          "mine\n",
		filepath.Join(root, "sub", "b.txt"):   "mine too\n",
		filepath.Join(secrets, "key.txt"):     "SECRET\n",
		filepath.Join(parent, "victim.txt"):   "SECRET\n",
		filepath.Join(root, "sub", "in.txt"):  "inside\n",
		filepath.Join(root, "deep", "x", "y"): "deep\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		filepath.Join(root, "d"):              secrets,
		filepath.Join(root, "inner"):          filepath.Join(root, "sub"), // even a link that stays inside
		filepath.Join(root, "file-link.txt"):  filepath.Join(parent, "victim.txt"),
		filepath.Join(root, "deep", "x", "z"): "../../../victim.txt",
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	return parent, root
}

// Beneath a root, no component of a path is followed if it is a link,
// and no path climbs out; each refusal names what it refused.
func TestReadBeneathARootFollowsNoLinkAndNeverLeavesIt(t *testing.T) {
	parent, root := linkedTree(t)
	d, err := OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for rel, want := range map[string]string{
		"a.txt":     "mine\n",
		"sub/b.txt": "mine too\n",
		"deep/x/y":  "deep\n",
	} {
		got, err := d.ReadText(rel, 1<<20)
		if err != nil || got != want {
			t.Errorf("%s: %q, %v", rel, got, err)
		}
	}
	for rel, want := range map[string]struct {
		problem string
		err     error
	}{
		"d/key.txt":            {"is reached through a symbolic link (" + root + "/d), not followed", ErrSymlink},
		"inner/in.txt":         {"is reached through a symbolic link (" + root + "/inner), not followed", ErrSymlink},
		"file-link.txt":        {"is a symbolic link, not followed", ErrSymlink},
		"deep/x/z":             {"is a symbolic link, not followed", ErrSymlink},
		"../victim.txt":        {"is a path that leaves the tree", ErrOutside},
		"sub/../../victim.txt": {"is a path that leaves the tree", ErrOutside},
		"/etc/passwd":          {"is not a relative path", ErrOutside},
		"sub//b.txt":           {"is a path that leaves the tree", ErrOutside},
		".git/config":          {"is a path inside .git", ErrOutside},
		"fifo":                 {"is a FIFO (named pipe), not a regular file", ErrNotRegular},
		"sub":                  {"is a directory, not a regular file", ErrNotRegular},
		"missing.txt":          {"does not exist", fs.ErrNotExist},
		"missing/b.txt":        {"does not exist", fs.ErrNotExist},
		"a.txt/b.txt":          {"does not exist (" + root + "/a.txt is not a directory)", fs.ErrNotExist},
	} {
		_, err := d.ReadHead(rel, 1<<20)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Problem != want.problem || !errors.Is(err, want.err) {
			t.Errorf("%s: %v, want %q (%v)", rel, err, want.problem, want.err)
			continue
		}
		if ie.Name != root+"/"+rel {
			t.Errorf("%s: named %q, want it as given beneath the root", rel, ie.Name)
		}
	}
	// A root the person names through a link is theirs: it is followed.
	via := filepath.Join(parent, "via")
	if err := os.Symlink(root, via); err != nil {
		t.Fatal(err)
	}
	v, err := OpenRoot(via)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if got, err := v.ReadText("a.txt", 1<<20); err != nil || got != "mine\n" {
		t.Errorf("through the person's own link: %q, %v", got, err)
	}
}

// Writing beneath a root (arena install's home or project directory): the
// root is the person's, what is below it is opened without following a
// link, and the link is named.
func TestOpenDirBeneathARootRefusesALinkBelowIt(t *testing.T) {
	parent := t.TempDir()
	home := filepath.Join(parent, "home")
	elsewhere := filepath.Join(parent, "elsewhere")
	for _, dir := range []string{filepath.Join(home, ".claude"), elsewhere} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(elsewhere, filepath.Join(home, ".claude", "commands")); err != nil {
		t.Fatal(err)
	}
	_, err := OpenDirBeneath(home, filepath.Join(home, ".claude", "commands"), true)
	var we *WriteError
	if !errors.Is(err, ErrSymlink) || !errors.As(err, &we) || we.Path != filepath.Join(home, ".claude", "commands") {
		t.Fatalf("through a linked .claude/commands: %v", err)
	}
	if _, err := OpenDirBeneath(home, filepath.Join(home, ".claude", "commands", "sub"), true); !errors.Is(err, ErrSymlink) {
		t.Fatalf("below a linked directory: %v", err)
	}
	if _, err := OpenDirBeneath(home, parent, true); !errors.Is(err, ErrOutside) {
		t.Fatalf("a directory above the root: %v", err)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("made something where the link points: %v", entries)
	}
	// What is missing is made, 0700, and the root itself may be a link.
	linkedHome := filepath.Join(parent, "linked-home")
	if err := os.Symlink(home, linkedHome); err != nil {
		t.Fatal(err)
	}
	d, err := OpenDirBeneath(linkedHome, filepath.Join(linkedHome, ".gemini", "x"), true)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Path() != filepath.Join(linkedHome, ".gemini", "x") {
		t.Errorf("path %q", d.Path())
	}
	if st, err := os.Stat(filepath.Join(home, ".gemini", "x")); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("made: %v %v", st, err)
	}
	same, err := OpenDirBeneath(home, home, false)
	if err != nil || !strings.HasSuffix(same.Path(), "home") {
		t.Fatalf("the root itself: %v", err)
	}
	same.Close()
}
