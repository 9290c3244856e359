package trust

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A repository can commit a symbolic link where arena writes by default
// (debate-logs/, debate-logs/verdicts/verdicts.jsonl). Below the current
// directory, no write goes through one, and nothing appears where it
// points.
func TestNoWriteThroughASymlinkBelowTheCurrentDirectory(t *testing.T) {
	repo := t.TempDir()
	victim := t.TempDir()
	t.Chdir(repo)
	if err := os.Symlink(victim, "debate-logs"); err != nil {
		t.Fatal(err)
	}
	_, err := WriteNew("debate-logs/run.jsonl", []byte("x"))
	if !errors.Is(err, ErrSymlink) {
		t.Fatalf("through a linked directory: %v", err)
	}
	if _, err := OpenAppend("debate-logs/verdicts/verdicts.jsonl", true); !errors.Is(err, ErrSymlink) {
		t.Fatalf("append through a linked directory: %v", err)
	}
	if err := MkdirPrivate("debate-logs/sub"); !errors.Is(err, ErrSymlink) {
		t.Fatalf("mkdir through a linked directory: %v", err)
	}
	if entries, _ := os.ReadDir(victim); len(entries) != 0 {
		t.Fatalf("written where the link points: %v", entries)
	}

	// The file itself a link: refused for a new file and for an append.
	target := filepath.Join(victim, "bashrc")
	if err := os.WriteFile(target, []byte("mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("logs", 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, "logs/verdicts.jsonl"); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenAppend("logs/verdicts.jsonl", true); !errors.Is(err, ErrSymlink) {
		t.Fatalf("append to a link: %v", err)
	}
	d, err := OpenDir("logs", false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Create("verdicts.jsonl", 0o600); !errors.Is(err, ErrSymlink) {
		t.Fatalf("create over a link: %v", err)
	}
	// CreateNew takes the next free name instead of the link.
	f, path, err := d.CreateNew("verdicts.jsonl")
	if err != nil || path != "logs/verdicts-2.jsonl" {
		t.Fatalf("CreateNew: %s, %v", path, err)
	}
	f.Close()
	if b, _ := os.ReadFile(target); string(b) != "mine\n" {
		t.Fatalf("the link's target changed: %q", b)
	}
}

// A hard link to someone's file is refused for appending, and so is a
// file that is not regular.
func TestOpenAppendVerifiesTheFile(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "own")
	if err := os.WriteFile(own, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(own, filepath.Join(dir, "hard")); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenAppend(filepath.Join(dir, "hard"), false); !errors.Is(err, ErrNotOwnFile) {
		t.Fatalf("hard link: %v", err)
	}
	if _, err := OpenAppend("/dev/null", false); err == nil {
		t.Fatal("appended to /dev/null")
	}
	if _, err := OpenAppend(filepath.Join(dir, "missing"), false); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
}

// What arena creates is private: 0700 directories, 0600 files; a
// replaced file is replaced, a link at its name included, not followed.
func TestWritesArePrivateAndReplaceDoesNotFollow(t *testing.T) {
	base := t.TempDir()
	path := filepath.Join(base, "a", "b", "doc.md")
	got, err := WriteNew(path, []byte("hello"))
	if err != nil || got != path {
		t.Fatalf("%s, %v", got, err)
	}
	for p, want := range map[string]fs.FileMode{filepath.Join(base, "a"): 0o700 | fs.ModeDir, filepath.Join(base, "a", "b"): 0o700 | fs.ModeDir, path: 0o600} {
		if st, err := os.Stat(p); err != nil || st.Mode() != want {
			t.Errorf("%s: %v, want %v (%v)", p, st.Mode(), want, err)
		}
	}
	again, err := WriteNew(path, []byte("again"))
	if err != nil || again != filepath.Join(base, "a", "b", "doc-2.md") {
		t.Fatalf("second: %s, %v", again, err)
	}

	victim := filepath.Join(base, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(base, "pre-push")
	if err := os.Symlink(victim, hook); err != nil {
		t.Fatal(err)
	}
	d, err := OpenDir(base, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Replace("pre-push", []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("followed the link: %q", b)
	}
	if st, err := os.Lstat(hook); err != nil || st.Mode() != 0o700 {
		t.Fatalf("hook: %v, %v", st.Mode(), err)
	}
}
