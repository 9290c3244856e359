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
// symbolic link, not a regular file, one it cannot read, one made
// read-only, one with several hard links, or another user's.
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
// to write it back with. root is the home or project directory it lies
// in: no directory between root and the file is followed if it is a
// symbolic link (openBeneath), nor is the file itself.
func Read(root, path string) ([]byte, fs.FileMode, error) {
	d, err := openBeneath(root, filepath.Dir(path), false)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, 0o600, nil
	case err != nil:
		return nil, 0, err
	}
	defer d.Close()
	name := filepath.Base(path)
	st, err := d.Stat(name)
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil, 0o600, nil
	case err != nil:
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	case st.Mode&unix.S_IFMT == unix.S_IFLNK:
		return nil, 0, &unsafeError{reason: "it is a symbolic link, and arena writes a file by replacing it, which would replace the link"}
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return nil, 0, &unsafeError{reason: "it is not a regular file"}
	}
	perm := fs.FileMode(st.Mode).Perm()
	if err := replaceable(path, perm, uint64(st.Nlink), st.Uid); err != nil {
		return nil, 0, err
	}
	doc, err := d.ReadFile(name, 64<<20)
	if err != nil {
		return nil, 0, &unsafeError{reason: err.Error(), cause: err}
	}
	return doc, perm, nil
}

// openBeneath opens the directory dir beneath root (trust.OpenDirBeneath:
// root as the person has it, every directory below it without following a
// symbolic link), creating what is missing when create is set. A
// directory that is not beneath root is one the person named themselves
// (CODEX_HOME), and is opened as they named it. A link on the way is
// refused, by name: arena install writes nothing through a link.
func openBeneath(root, dir string, create bool) (*trust.Dir, error) {
	if rel, err := filepath.Rel(root, dir); root == "" || err != nil || !filepath.IsLocal(rel) && rel != "." {
		root = dir
	}
	d, err := trust.OpenDirBeneath(root, dir, create)
	var we *trust.WriteError
	if errors.Is(err, trust.ErrSymlink) && errors.As(err, &we) {
		return nil, &unsafeError{reason: we.Path + " is a symbolic link, and arena install writes nothing through a link: make it a directory of its own, or register arena by hand", cause: err}
	}
	return d, err
}

// replaceable refuses a file that arena, which writes by replacing, must
// not replace, saying how to go on: one its owner made read-only (rename
// would replace it anyway), one with several hard links (its other names
// would keep the old text: a dotfiles manager's twin, silently split from
// it), another user's (it would become arena's user's).
func replaceable(path string, perm fs.FileMode, links uint64, uid uint32) error {
	q := shellQuote(path)
	switch {
	case perm&0o200 == 0:
		return &unsafeError{reason: fmt.Sprintf("it is read-only (mode %04o), which says it is not to be changed; to let arena edit it, make it writable (chmod u+w %s) and try again", perm, q)}
	case links > 1:
		return &unsafeError{reason: fmt.Sprintf("it has %d hard links, and arena writes a file by replacing it: its other names would keep the old text; to let arena edit it, give it a name of its own (cp %s %s.copy && mv %s.copy %s) and try again", links, q, q, q, q)}
	case int64(uid) != int64(os.Geteuid()):
		return &unsafeError{reason: fmt.Sprintf("it belongs to another user (uid %d), and replacing it would make it yours; run arena as that user", uid)}
	}
	return nil
}

// Replace writes data to path, beneath root as Read reads it, through
// trust's replacing write, with the mode given (not what the umask leaves
// of it), once a strict parser of its format reads it (validate). It
// refuses what Read refuses, should the file have changed since Read
// looked: a symbolic link, a file made read-only or given a second name,
// another user's.
func Replace(root, path string, data []byte, mode fs.FileMode) error {
	if err := validate(path, data); err != nil {
		return fmt.Errorf("%s: %w; nothing written", path, err)
	}
	d, err := openBeneath(root, filepath.Dir(path), true)
	if err != nil {
		return err
	}
	defer d.Close()
	name := filepath.Base(path)
	if err := CheckReplace(d, name); err != nil {
		return err
	}
	return d.Replace(name, data, mode)
}

// CheckReplace says whether the file name in d may be replaced (by
// d.Replace): there is none, or it is a regular file Read would edit.
// The git hook arena installs is written through it too.
func CheckReplace(d *trust.Dir, name string) error {
	path := filepath.Join(d.Path(), name)
	st, err := d.Stat(name)
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", path, err)
	case st.Mode&unix.S_IFMT == unix.S_IFLNK:
		return &unsafeError{reason: "it became a symbolic link"}
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return &unsafeError{reason: "it is not a regular file"}
	}
	return replaceable(path, fs.FileMode(st.Mode).Perm(), uint64(st.Nlink), st.Uid)
}

// validate reads data as a strict parser of the file's format does:
// TOML 1.0 for .toml, as Codex's reader does (decodeTOML), JSON with each
// key once an object for .json.
func validate(path string, data []byte) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".toml":
		if err := strictTOML(string(data)); err != nil {
			return fmt.Errorf("the edit is not valid TOML (%w)", err)
		}
	case ".json":
		if err := strictJSON(data); err != nil {
			return fmt.Errorf("the edit is not valid JSON (%w)", err)
		}
	}
	return nil
}

// shellQuote quotes a path for a command shown to the person, when it
// needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./~+@%=:,") == "" {
		return s
	}
	return hookQuote(s)
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
