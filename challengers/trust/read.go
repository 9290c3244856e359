package trust

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"unicode/utf8"
)

// Reading files from outside. A path a person gives arena, or one found in
// a directory it walks, may name a FIFO (a read that never ends), a device
// (/dev/zero: Stat says 0 bytes, reading says infinitely many), a socket, a
// sparse file of gigabytes, or text in no known encoding. Every input is
// read here: regular files only, refused before a single byte is read, and
// never more than a stated limit whatever Stat says.

// Why an input was refused; an *InputError wraps one of them.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("too large")
	ErrBinary     = errors.New("binary")
	ErrNotText    = errors.New("not UTF-8 text")
)

// InputError says which input was refused and why, in words a person can
// act on: "notes.md: is a FIFO, not a regular file".
type InputError struct {
	Name    string // the path as given, or "stdin"
	Problem string // "is larger than 10 MiB"
	Err     error  // one of the Err values above, or the system's error
}

func (e *InputError) Error() string { return e.Name + ": " + e.Problem }
func (e *InputError) Unwrap() error { return e.Err }

// SniffBytes is how much of a file decides whether it is binary: a NUL byte
// in it means binary, as git decides.
const SniffBytes = 8000

// Open opens path for reading if it is a regular file (following
// symlinks: a link to a regular file is one). A FIFO, device, socket or
// directory is refused by name; opening never blocks, even on a FIFO with
// no writer.
func Open(path string) (*os.File, error) {
	// O_NONBLOCK makes opening a FIFO return at once instead of waiting
	// for a writer; it changes nothing for a regular file, which is all
	// this returns. O_NOCTTY keeps a terminal device from becoming ours.
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		// A socket cannot be opened at all (ENXIO): name what it is.
		if st, serr := os.Stat(path); serr == nil && !st.Mode().IsRegular() {
			return nil, &InputError{Name: path, Problem: "is " + kindOf(st.Mode()) + ", not a regular file", Err: ErrNotRegular}
		}
		return nil, &InputError{Name: path, Problem: problemOf(err), Err: &fs.PathError{Op: "open", Path: path, Err: err}}
	}
	return regularFile(fd, path)
}

// regularFile is the open file fd, named name, if it is a regular file,
// made blocking again; anything else is closed and refused by name.
func regularFile(fd int, name string) (*os.File, error) {
	f := os.NewFile(uintptr(fd), name)
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &InputError{Name: name, Problem: problemOf(err), Err: err}
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &InputError{Name: name, Problem: "is " + kindOf(st.Mode()) + ", not a regular file", Err: ErrNotRegular}
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		f.Close()
		return nil, &InputError{Name: name, Problem: problemOf(err), Err: err}
	}
	return f, nil
}

// File is what was read of an input.
type File struct {
	Name string
	Data []byte
	// Size is the input's size as far as it is known: the bytes there
	// were when reading stopped at the limit, at least len(Data)+1.
	Size int64
	// Cut says the input holds more than the limit: Data is its head.
	Cut bool
}

// ReadHead reads at most limit bytes of the regular file at path. A
// longer file is not an error: Cut says so, and Size says how long Stat
// thinks it is (never less than what was seen).
func ReadHead(path string, limit int64) (File, error) {
	f, err := Open(path)
	if err != nil {
		return File{Name: path}, err
	}
	defer f.Close()
	return readOpenHead(f, path, limit)
}

// readOpenHead is ReadHead of a file opened for it.
func readOpenHead(f *os.File, name string, limit int64) (File, error) {
	out, err := readHead(f, name, limit)
	if err != nil {
		return out, err
	}
	if out.Cut {
		if st, err := f.Stat(); err == nil && st.Size() > out.Size {
			out.Size = st.Size()
		}
	}
	return out, nil
}

// ReadFile reads the regular file at path whole, refusing one of more
// than limit bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := ReadHead(path, limit)
	if err != nil {
		return nil, err
	}
	if f.Cut {
		return nil, tooLarge(path, limit)
	}
	return f.Data, nil
}

// ReadText reads the regular file at path whole as UTF-8 text, refusing
// one of more than limit bytes, a binary one, or one that is not UTF-8.
// A binary file is refused after reading only its first SniffBytes.
func ReadText(path string, limit int64) (string, error) {
	f, err := Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return readText(f, path, limit)
}

// ReadAll reads r whole (stdin, say), refusing more than limit bytes.
func ReadAll(r io.Reader, name string, limit int64) ([]byte, error) {
	out, err := readHead(r, name, limit)
	if err != nil {
		return nil, err
	}
	if out.Cut {
		return nil, tooLarge(name, limit)
	}
	return out.Data, nil
}

// ReadAllText is ReadText for a reader: stdin holding a topic or a diff.
func ReadAllText(r io.Reader, name string, limit int64) (string, error) {
	return readText(r, name, limit)
}

func readText(r io.Reader, name string, limit int64) (string, error) {
	head := make([]byte, min(limit+1, SniffBytes))
	n, err := io.ReadFull(r, head)
	head = head[:n]
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return "", &InputError{Name: name, Problem: problemOf(err), Err: err}
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "", &InputError{Name: name, Problem: "is binary (it holds a NUL byte)", Err: ErrBinary}
	}
	rest, err := readHead(r, name, limit-int64(n))
	if err != nil {
		return "", err
	}
	if rest.Cut || int64(n) > limit {
		return "", tooLarge(name, limit)
	}
	data := append(head, rest.Data...)
	if err := CheckText(name, data); err != nil {
		return "", err
	}
	return string(data), nil
}

// CheckText refuses data that is binary (a NUL byte in its first
// SniffBytes) or not UTF-8.
func CheckText(name string, data []byte) error {
	if bytes.IndexByte(data[:min(len(data), SniffBytes)], 0) >= 0 {
		return &InputError{Name: name, Problem: "is binary (it holds a NUL byte)", Err: ErrBinary}
	}
	if !utf8.Valid(data) {
		return &InputError{Name: name, Problem: "is not UTF-8 text", Err: ErrNotText}
	}
	return nil
}

// readHead reads at most limit bytes of r, and one more to know whether
// there was more.
func readHead(r io.Reader, name string, limit int64) (File, error) {
	if limit < 0 {
		limit = 0
	}
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return File{Name: name}, &InputError{Name: name, Problem: problemOf(err), Err: err}
	}
	out := File{Name: name, Data: buf.Bytes(), Size: n}
	if n > limit {
		out.Data, out.Cut = out.Data[:limit], true
	}
	return out, nil
}

func tooLarge(name string, limit int64) error {
	return &InputError{Name: name, Problem: "is larger than " + Size(limit) + " (the limit)", Err: ErrTooLarge}
}

// Size says a byte count as a person reads it: 512 bytes, 10 KiB, 8 MiB.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// kindOf names a file type that is not a regular file.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

// problemOf words a system error as the rest of a sentence that starts
// with the input's name.
func problemOf(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "does not exist"
	case errors.Is(err, fs.ErrPermission):
		return "cannot be read (permission denied)"
	case errors.Is(err, syscall.EISDIR):
		return "is a directory, not a regular file"
	case errors.Is(err, syscall.ENOTDIR):
		return "does not exist (a part of the path is not a directory)"
	case errors.Is(err, syscall.ELOOP):
		return "is a loop of symbolic links"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return "cannot be read: " + err.Error()
}
