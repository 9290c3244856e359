package trust

import (
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Every kind of file that is not a regular one is refused by name before
// anything is read, and promptly: a FIFO with no writer must not block.
func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	cases := map[string]string{
		fifo:                          "is a FIFO (named pipe), not a regular file",
		sock:                          "is a socket, not a regular file",
		"/dev/zero":                   "is a character device, not a regular file",
		"/dev/null":                   "is a character device, not a regular file",
		dir:                           "is a directory, not a regular file",
		filepath.Join(dir, "missing"): "does not exist",
	}
	for path, want := range cases {
		done := make(chan error, 1)
		go func() {
			_, err := ReadText(path, 1<<20)
			done <- err
		}()
		select {
		case err := <-done:
			var ie *InputError
			if !errors.As(err, &ie) || ie.Problem != want || ie.Name != path {
				t.Errorf("%s: got %v, want %q", path, err, want)
			}
		case <-time.After(time.Minute): // a hang, not slowness
			t.Fatalf("%s: reading it blocked", path)
		}
	}
}

// A symlink to a regular file is read; the size limit holds whatever
// Stat says, and a sparse file of a gigabyte is refused after reading
// just past the limit.
func TestReadIsBoundedByTheLimit(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.txt")
	if err := os.WriteFile(small, []byte("hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(small, link); err != nil {
		t.Fatal(err)
	}
	if s, err := ReadText(link, 6); err != nil || s != "hello\n" {
		t.Fatalf("link: %q, %v", s, err)
	}
	if _, err := ReadText(small, 5); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "larger than 5 bytes") {
		t.Fatalf("over the limit: %v", err)
	}
	sparse := filepath.Join(dir, "sparse.md")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// All NULs: binary, known from the first SniffBytes.
	if _, err := ReadText(sparse, 10<<20); !errors.Is(err, ErrBinary) {
		t.Fatalf("sparse: %v", err)
	}
	head, err := ReadHead(sparse, 100)
	if err != nil || !head.Cut || len(head.Data) != 100 || head.Size != 1<<30 {
		t.Fatalf("head of sparse: cut %v, %d bytes, size %d, %v", head.Cut, len(head.Data), head.Size, err)
	}
	if _, err := ReadFile(sparse, 1<<20); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "1 MiB") {
		t.Fatalf("sparse whole: %v", err)
	}
}

func TestReadTextRefusesBinaryAndInvalidUTF8(t *testing.T) {
	if _, err := ReadAllText(strings.NewReader("a\x00b"), "stdin", 100); !errors.Is(err, ErrBinary) || err.Error() != "stdin: is binary (it holds a NUL byte)" {
		t.Fatalf("NUL: %v", err)
	}
	if _, err := ReadAllText(strings.NewReader("caf\xe9"), "stdin", 100); !errors.Is(err, ErrNotText) {
		t.Fatalf("latin-1: %v", err)
	}
	long := strings.Repeat("é", SniffBytes) // a rune across the sniffed prefix's end
	if s, err := ReadAllText(strings.NewReader(long), "stdin", int64(len(long))); err != nil || s != long {
		t.Fatalf("long text: %v", err)
	}
	if _, err := ReadAllText(strings.NewReader(long), "stdin", int64(len(long))-1); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("long text over the limit: %v", err)
	}
	if _, err := ReadAllText(strings.NewReader(long[:100]), "stdin", 50); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("short limit: %v", err)
	}
}

// An endless reader (stdin fed from /dev/zero) is read only to the limit.
func TestReadAllStopsAnEndlessReader(t *testing.T) {
	_, err := ReadAll(endless{}, "stdin", 1<<20)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatal(err)
	}
	_, err = ReadAllText(io.LimitReader(endless{}, 1<<40), "stdin", 1<<20)
	if !errors.Is(err, ErrBinary) {
		t.Fatal(err)
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{1: "1 byte", 100: "100 bytes", 1024: "1 KiB", 1536: "1.5 KiB", 10 << 20: "10 MiB", 3 << 30: "3 GiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
