package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
)

// The README is a front door: short, with a picture of the screen, and
// every link in it and in the documentation it leads to goes somewhere.

func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := clitest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func TestREADMEIsAFrontDoor(t *testing.T) {
	root := moduleRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > 200 {
		t.Errorf("the README is %d lines: at most 200 (the rest belongs in docs/ or CONTRIBUTING.md)", n)
	}
	pic := regexp.MustCompile(`!\[[^\]]+\]\(([^)]+)\)`).FindStringSubmatch(string(b))
	if pic == nil {
		t.Fatal("the README has no picture")
	}
	if st, err := os.Stat(filepath.Join(root, pic[1])); err != nil || st.Size() == 0 {
		t.Fatalf("the README's picture %s: %v", pic[1], err)
	}
}

// docFiles are the Markdown files of the documentation: the README,
// CONTRIBUTING.md, docs/ and what sits beside the code (bench/README.md).
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md", "CONTRIBUTING.md", "bench/README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, _ := filepath.Rel(root, path)
			files = append(files, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// Every relative link of the documentation names a file that exists, and
// an anchor names a heading of its file, as GitHub makes them.
func TestNoDocumentationLinkIsDead(t *testing.T) {
	root := moduleRoot(t)
	checked := 0
	for _, file := range docFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(withoutCode(string(b)), -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			target, anchor, _ := strings.Cut(link, "#")
			path := filepath.Join(root, filepath.Dir(file), target)
			if target == "" {
				path = filepath.Join(root, file)
			}
			checked++
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s links to %s: no such file", file, link)
				continue
			}
			if anchor != "" && !hasAnchor(t, path, anchor) {
				t.Errorf("%s links to %s: no such heading", file, link)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d links checked", checked)
	}
}

// withoutCode is Markdown without its fenced code blocks.
func withoutCode(md string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// hasAnchor says whether the Markdown file at path has a heading whose
// GitHub anchor is anchor: lower case, spaces to dashes, punctuation other
// than dashes and underscores dropped.
func hasAnchor(t *testing.T, path, anchor string) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	drop := regexp.MustCompile(`[^\p{L}\p{N} _-]`)
	for _, l := range strings.Split(withoutCode(string(b)), "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		slug := strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(h), ""), " ", "-")
		if slug == anchor {
			return true
		}
	}
	return false
}

// The README's picture is made from a real capture of the binary
// (scripts/screenshot); the capture must still run and show the screen it
// is meant to: the phases, the panes and the verdicts.
func TestTheScreenshotsCaptureStillRuns(t *testing.T) {
	t.Parallel()
	clitest.SkipShort(t)
	needTmux(t)
	root := moduleRoot(t)
	out := filepath.Join(t.TempDir(), "screen.ansi")
	cmd := exec.Command(filepath.Join(root, "scripts", "screenshot"), "--capture", out)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/screenshot: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"● Challenger rebuttal", "claude · defender", "gemini · challenger", "MAINTAIN:", "Verdicts, round 1", "paused", "\x1b["} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the capture has no %q:\n%s", want, b)
		}
	}
}
