package hostconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/arenadebate/arena/challengers/trust"
)

// ErrUnsafe is a configuration arena does not edit, whatever it holds: a
// symbolic link, not a regular file, or one it cannot read.
var ErrUnsafe = errors.New("arena does not edit it")

// unsafeError is why, worded for the person: its text is the reason alone.
type unsafeError struct {
	reason string
	cause  error
}

func (e *unsafeError) Error() string        { return e.reason }
func (e *unsafeError) Is(target error) bool { return target == ErrUnsafe }
func (e *unsafeError) Unwrap() error        { return e.cause }

// Read is the configuration at path, nil if there is none, and the mode
// to write it back with.
func Read(path string) ([]byte, fs.FileMode, error) {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, 0o600, nil
	case err != nil:
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	case st.Mode()&fs.ModeSymlink != 0:
		return nil, 0, &unsafeError{reason: "it is a symbolic link, and arena writes a file by replacing it, which would replace the link"}
	case !st.Mode().IsRegular():
		return nil, 0, &unsafeError{reason: "it is not a regular file"}
	}
	doc, err := trust.ReadFile(path, 64<<20)
	if err != nil {
		return nil, 0, &unsafeError{reason: err.Error(), cause: err}
	}
	return doc, st.Mode().Perm(), nil
}

// Replace writes data to path through trust's replacing write, refusing a
// symbolic link that appeared since Read looked.
func Replace(path string, data []byte, mode fs.FileMode) error {
	d, err := trust.OpenDir(filepath.Dir(path), true)
	if err != nil {
		return err
	}
	defer d.Close()
	name := filepath.Base(path)
	if st, err := d.Stat(name); err == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return fmt.Errorf("%s became a symbolic link: nothing written", path)
	}
	return d.Replace(name, data, mode)
}

// Tilde is path as the person knows it: ~/ for their home directory.
func Tilde(path, home string) string {
	if home != "" {
		if rest, ok := strings.CutPrefix(path, home+string(filepath.Separator)); ok {
			return "~/" + rest
		}
	}
	return path
}

// CommandMarker is the line a slash command file carries when arena
// install wrote it.
const CommandMarker = "<!-- written by arena install: it rewrites this file; delete this line to keep your edits -->"

// CommandFile is the file of a slash command whose text is body, as arena
// install writes it: marked.
func CommandFile(body []byte) []byte {
	return []byte(string(bytes.TrimRight(body, "\n")) + "\n\n" + CommandMarker + "\n")
}

// CommandOurs says whether a command file is arena's to rewrite: it
// still carries the marker, whatever else was edited.
func CommandOurs(file []byte) bool { return bytes.Contains(file, []byte(CommandMarker)) }
