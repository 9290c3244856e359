// Package trusttest builds the hostile inputs the trust boundary's tests
// (and the end-to-end tests of the commands that read through it) feed
// arena: a repository that reaches outside itself.
package trusttest

import (
	"bytes"
	"crypto/sha1"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The markers of the files outside the repository: a test checks that
// none reaches a prompt, an output or a file.
const (
	BehindLink  = "SECRET-BEHIND-A-LINKED-DIRECTORY"
	OutsideRepo = "SECRET-NAMED-BY-DOT-DOT-IN-THE-INDEX"
)

// Repo is a repository that reaches outside itself.
type Repo struct {
	Dir string // the work tree
	// Victim is the directory beside it holding notes.txt (OutsideRepo),
	// which the index names as ../victim/notes.txt.
	Victim string
	// Secrets is where the tracked directory d now points (d ->
	// Secrets): its a.txt holds BehindLink.
	Secrets string
}

// HostileRepo makes, in a new temporary directory, a git repository whose
// tracked directory d was replaced by a symbolic link to a directory
// outside it, and whose index names ../victim/notes.txt (git refuses such
// a path itself; a hand-written index holds one, and git ls-files lists
// it). main.go and src/util.go are its own files.
func HostileRepo(tb testing.TB) Repo {
	tb.Helper()
	parent := tb.TempDir()
	r := Repo{Dir: filepath.Join(parent, "repo"), Victim: filepath.Join(parent, "victim"), Secrets: filepath.Join(parent, "secrets")}
	write(tb, filepath.Join(r.Victim, "notes.txt"), OutsideRepo+"\n")
	write(tb, filepath.Join(r.Secrets, "a.txt"), BehindLink+"\n")
	write(tb, filepath.Join(r.Dir, "main.go"), "package main\n\nfunc main() {}\n")
	write(tb, filepath.Join(r.Dir, "src", "util.go"), "package src\n\n// Util is a helper.\nfunc Util() int { return 1 }\n")
	write(tb, filepath.Join(r.Dir, "d", "a.txt"), "the repository's own a.txt\n")
	git(tb, r.Dir, nil, "init", "-q")
	git(tb, r.Dir, nil, "add", ".")
	// d becomes a link to the secrets; git still tracks d/a.txt.
	if err := os.RemoveAll(filepath.Join(r.Dir, "d")); err != nil {
		tb.Fatal(err)
	}
	if err := os.Symlink(r.Secrets, filepath.Join(r.Dir, "d")); err != nil {
		tb.Fatal(err)
	}
	IndexOutside(tb, r.Dir, "victim/notes.txt", []byte(OutsideRepo+"\n"))
	return r
}

// IndexOutside adds to the index of the repository at dir an entry named
// ../rel holding content: git refuses such a path (update-index says
// "Invalid path"), so the entry is added as XX/rel and renamed in the
// index file, whose checksum is then written anew.
func IndexOutside(tb testing.TB, dir, rel string, content []byte) {
	tb.Helper()
	oid := strings.TrimSpace(git(tb, dir, content, "hash-object", "-w", "--stdin"))
	git(tb, dir, nil, "update-index", "--add", "--cacheinfo", "100644,"+oid+",XX/"+rel)
	index := filepath.Join(dir, ".git", "index")
	b, err := os.ReadFile(index)
	if err != nil {
		tb.Fatal(err)
	}
	body := b[:len(b)-sha1.Size]
	if bytes.Count(body, []byte("XX/"+rel)) != 1 {
		tb.Fatalf("the index does not hold XX/%s once", rel)
	}
	body = bytes.Replace(body, []byte("XX/"+rel), []byte("../"+rel), 1)
	sum := sha1.Sum(body)
	if err := os.WriteFile(index, append(body, sum[:]...), 0o644); err != nil {
		tb.Fatal(err)
	}
	if out := git(tb, dir, nil, "ls-files"); !strings.Contains(out, "../"+rel) {
		tb.Fatalf("git ls-files does not list ../%s:\n%s", rel, out)
	}
}

func write(tb testing.TB, path, content string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

func git(tb testing.TB, dir string, stdin []byte, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}
