package inputs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/arenadebate/arena/challengers/trust"
)

func write(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// wantInput checks that err is an input error worded exactly so.
func wantInput(t *testing.T, err error, words string) {
	t.Helper()
	if !errors.Is(err, ErrInput) || err.Error() != words {
		t.Fatalf("error %v (an input error: %v), want %q", err, errors.Is(err, ErrInput), words)
	}
}

func TestFileRefusesWhatIsNotAFileOfText(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "notes.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := File("context file", fifo, false)
	wantInput(t, err, "context file "+fifo+": is a FIFO (named pipe), not a regular file")
	if !errors.Is(err, trust.ErrNotRegular) {
		t.Errorf("the cause is lost: %v", err)
	}
	_, err = File("context file", filepath.Join(t.TempDir(), "gone.md"), false)
	if !errors.Is(err, ErrInput) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	_, err = File("work file", write(t, "a.bin", "x\x00y"), false)
	if !errors.Is(err, trust.ErrBinary) || !strings.HasPrefix(err.Error(), "work file ") {
		t.Errorf("a binary file: %v", err)
	}
}

func TestFileRefusesASecretUnlessTold(t *testing.T) {
	env := write(t, ".env", "API_KEY=abc\n")
	_, err := File("context file", env, false)
	wantInput(t, err, "context file "+env+" looks like a secret: an environment file (.env*), where keys live. arena sends its input to every seat's model vendor; if you mean to send it, add --include-secrets")
	doc, err := File("context file", env, true)
	if err != nil || doc.Content != "API_KEY=abc\n" || doc.Name != env {
		t.Fatalf("--include-secrets: %+v %v", doc, err)
	}
}

func TestTopicComesFromOnePlace(t *testing.T) {
	o := Options{Stdin: strings.NewReader("from stdin\x1b[2J\n")}
	if got, err := Topic("", []string{"-"}, o); err != nil || got != "from stdin\n" {
		t.Fatalf("stdin: %q %v (escape sequences must go)", got, err)
	}
	if got, err := Topic("", []string{"should", "we", "move?"}, Options{}); err != nil || got != "should we move?" {
		t.Fatalf("arguments: %q %v", got, err)
	}
	if got, err := Topic(write(t, "topic.md", "the file's topic"), nil, Options{}); err != nil || got != "the file's topic" {
		t.Fatalf("file: %q %v", got, err)
	}
	_, err := Topic("t.md", []string{"x"}, Options{})
	wantInput(t, err, "give the topic either as an argument or with -f, not both")
	_, err = Topic("", []string{"  "}, Options{})
	wantInput(t, err, `no topic given: run arena "your question or decision" (see arena --help)`)
	_, err = Topic("", []string{strings.Repeat("x", MaxBytes+1)}, Options{})
	wantInput(t, err, "the topic is larger than 4 MiB; attach big material with --context instead")
	_, err = Topic("-", nil, Options{Stdin: strings.NewReader("a\x00b")})
	wantInput(t, err, "the topic from stdin: is binary (it holds a NUL byte)")
}

func TestSpecAndStakeholders(t *testing.T) {
	empty := write(t, "spec.md", " \n")
	_, err := Spec(empty, false)
	wantInput(t, err, "spec file "+empty+" is empty (the first argument is the spec, then the repositories)")
	if s, err := Stakeholders("", false); s != "" || err != nil {
		t.Fatalf("no stakeholders file: %q %v", s, err)
	}
	if s, err := Stakeholders(write(t, "who.md", "\n ops team \n"), false); s != "ops team" || err != nil {
		t.Fatalf("stakeholders: %q %v", s, err)
	}
}

func TestWorkReadsFilesAndStdinOnce(t *testing.T) {
	f := write(t, "change.diff", "+ a line\n")
	docs, err := Work([]string{f, "-"}, Options{Stdin: strings.NewReader("the diff\n")})
	if err != nil || len(docs) != 2 || docs[0].Name != f || docs[1].Name != "stdin" || docs[1].Content != "the diff\n" {
		t.Fatalf("%+v %v", docs, err)
	}
	_, err = Work(nil, Options{})
	wantInput(t, err, "nothing to judge: name the files, or - to read the work (a diff) from stdin")
	_, err = Work([]string{"-", "-"}, Options{Stdin: strings.NewReader("x")})
	wantInput(t, err, "- (stdin) is named twice")
	_, err = Work([]string{"-"}, Options{Stdin: strings.NewReader("\n")})
	wantInput(t, err, "nothing to judge: stdin was empty")
}
