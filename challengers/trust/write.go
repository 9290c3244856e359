package trust

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Writing files. arena writes logs, outcome documents, reports, a verdict
// log and git hooks, often inside a directory it was pointed at: a
// repository, whose files are someone else's data. A repository can
// commit a symbolic link where arena will write (debate-logs/ pointing at
// ~/.ssh, verdicts.jsonl pointing at ~/.bashrc), and a log can name a
// file. So every write goes through a Dir:
//
//   - every component of a relative path is opened without following a
//     symbolic link (the current directory is where the person is; what
//     is below it may be a repository's); an absolute path is the
//     person's own choice and is resolved as they typed it;
//   - directories arena creates are 0700, files 0600 (a hook 0700);
//   - a file is created only if it does not exist (O_EXCL), appended to
//     only if it is a regular file of the user's with one link, and never
//     opened through a symbolic link (O_NOFOLLOW).

// Dir is a directory arena writes in, held open so that nothing renamed
// or linked into its path afterwards changes where the writes go.
type Dir struct {
	fd   int
	path string
}

// ErrSymlink says a write was refused because a symbolic link stood where
// arena would write.
var ErrSymlink = errors.New("a symbolic link stands in the way")

// WriteError says which write was refused and why.
type WriteError struct {
	Path    string
	Problem string
	Err     error
}

func (e *WriteError) Error() string { return e.Path + ": " + e.Problem }
func (e *WriteError) Unwrap() error { return e.Err }

func writeErr(path string, err error) error {
	var we *WriteError
	if errors.As(err, &we) {
		return err
	}
	switch {
	case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR) && isSymlink(path):
		return &WriteError{Path: path, Problem: "is a symbolic link; arena does not write through a link inside the directory it was given (name the real path)", Err: ErrSymlink}
	case errors.Is(err, fs.ErrExist):
		return &WriteError{Path: path, Problem: "already exists", Err: fs.ErrExist}
	case errors.Is(err, fs.ErrPermission):
		return &WriteError{Path: path, Problem: "cannot be written (permission denied)", Err: err}
	}
	return &WriteError{Path: path, Problem: "cannot be written: " + errText(err), Err: err}
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func isSymlink(path string) bool {
	st, err := os.Lstat(path)
	return err == nil && st.Mode()&fs.ModeSymlink != 0
}

// OpenDir opens the directory at path for writing in, creating what is
// missing of it (0700) when create is set.
func OpenDir(path string, create bool) (*Dir, error) {
	if path == "" {
		path = "."
	}
	clean := filepath.Clean(path)
	start := "."
	rest := clean
	if filepath.IsAbs(clean) {
		// The person's own path: resolved as typed, down to the deepest
		// part that exists; what arena creates below it is its own.
		start, rest = existingPrefix(clean)
	}
	fd, err := unix.Open(start, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, writeErr(start, err)
	}
	d := &Dir{fd: fd, path: start}
	if rest == "." {
		d.path = clean
		return d, nil
	}
	for _, part := range strings.Split(rest, string(filepath.Separator)) {
		if part == "" || part == "." {
			continue
		}
		next, err := d.sub(part, create)
		d.Close()
		if err != nil {
			return nil, err
		}
		d = next
	}
	d.path = clean
	return d, nil
}

// existingPrefix splits an absolute path into its deepest existing
// directory and the rest, relative to it.
func existingPrefix(p string) (string, string) {
	var missing []string
	for dir := p; ; dir = filepath.Dir(dir) {
		if st, err := os.Stat(dir); err == nil && st.IsDir() || dir == filepath.Dir(dir) {
			for i, j := 0, len(missing)-1; i < j; i, j = i+1, j-1 {
				missing[i], missing[j] = missing[j], missing[i]
			}
			if len(missing) == 0 {
				return dir, "."
			}
			return dir, filepath.Join(missing...)
		}
		missing = append(missing, filepath.Base(dir))
	}
}

// Sub opens (creating it 0700 when create is set) the directory name in d,
// refusing a symbolic link.
func (d *Dir) Sub(name string, create bool) (*Dir, error) {
	return d.sub(name, create)
}

func (d *Dir) sub(name string, create bool) (*Dir, error) {
	path := filepath.Join(d.path, name)
	if name == ".." {
		fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, writeErr(path, err)
		}
		return &Dir{fd: fd, path: path}, nil
	}
	if err := checkName(name); err != nil {
		return nil, &WriteError{Path: path, Problem: err.Error(), Err: err}
	}
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	fd, err := unix.Openat(d.fd, name, flags, 0)
	if errors.Is(err, unix.ENOENT) && create {
		if err = unix.Mkdirat(d.fd, name, 0o700); err == nil || errors.Is(err, unix.EEXIST) {
			fd, err = unix.Openat(d.fd, name, flags, 0)
		}
	}
	if err != nil {
		if errors.Is(err, unix.ENOTDIR) && d.lstatIsLink(name) {
			err = unix.ELOOP
		}
		return nil, writeErr(path, err)
	}
	return &Dir{fd: fd, path: path}, nil
}

func (d *Dir) lstatIsLink(name string) bool {
	var st unix.Stat_t
	return unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK
}

// checkName refuses a name that is not one component.
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') || strings.ContainsRune(name, 0) {
		return fmt.Errorf("%q is not a file name", name)
	}
	return nil
}

// Path is the directory's path as it was given.
func (d *Dir) Path() string { return d.path }

// Close releases the directory.
func (d *Dir) Close() error {
	if d == nil || d.fd < 0 {
		return nil
	}
	err := unix.Close(d.fd)
	d.fd = -1
	return err
}

// Create creates the file name in d (mode perm), failing if anything is
// there already, a symbolic link included.
func (d *Dir) Create(name string, perm os.FileMode) (*os.File, error) {
	path := filepath.Join(d.path, name)
	if err := checkName(name); err != nil {
		return nil, &WriteError{Path: path, Problem: err.Error(), Err: err}
	}
	fd, err := unix.Openat(d.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		if errors.Is(err, unix.EEXIST) && d.lstatIsLink(name) {
			err = unix.ELOOP
		}
		return nil, writeErr(path, err)
	}
	return os.NewFile(uintptr(fd), path), nil
}

// MaxNameTries bounds the names CreateNew tries: name, then name-2 up to
// name-1000. A name carries what makes it unique (a log's, the
// millisecond), so more than a few are rarely needed.
const MaxNameTries = 1000

// CreateNew creates a new file (0600) named name in d, or, when that is
// taken, the first free of name-2, name-3, ... (before the extension). It
// never opens an existing file, so of several processes taking one name
// at once exactly one gets it. The path says which it got.
func (d *Dir) CreateNew(name string) (*os.File, string, error) {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 1; ; i++ {
		n := name
		if i > 1 {
			n = stem + "-" + strconv.Itoa(i) + ext
		}
		f, err := d.Create(n, 0o600)
		if (errors.Is(err, fs.ErrExist) || errors.Is(err, ErrSymlink)) && i < MaxNameTries {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		return f, f.Name(), nil
	}
}

// WriteNew writes data to a new file as CreateNew names it; a file that
// could not be written whole is removed.
func (d *Dir) WriteNew(name string, data []byte) (string, error) {
	f, path, err := d.CreateNew(name)
	if err != nil {
		return "", err
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		_ = unix.Unlinkat(d.fd, filepath.Base(path), 0)
		return "", writeErr(path, err)
	}
	return path, nil
}

// OpenAppend opens the file name in d for appending (every write lands at
// its end, whoever else appends), creating it 0600 when create is set. An
// existing file must be a regular file of this user's with a single link:
// a symbolic or hard link planted there could send the writes elsewhere.
func (d *Dir) OpenAppend(name string, create bool) (*os.File, error) {
	path := filepath.Join(d.path, name)
	if err := checkName(name); err != nil {
		return nil, &WriteError{Path: path, Problem: err.Error(), Err: err}
	}
	flags := unix.O_WRONLY | unix.O_APPEND | unix.O_NOFOLLOW | unix.O_CLOEXEC | unix.O_NONBLOCK | unix.O_NOCTTY
	if create {
		flags |= unix.O_CREAT
	}
	fd, err := unix.Openat(d.fd, name, flags, 0o600)
	if err != nil {
		return nil, writeErr(path, err)
	}
	f := os.NewFile(uintptr(fd), path)
	if err := checkOwnFile(f); err != nil {
		f.Close()
		return nil, &WriteError{Path: path, Problem: err.Error(), Err: err}
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		f.Close()
		return nil, writeErr(path, err)
	}
	return f, nil
}

// ErrNotOwnFile says a file arena would write to is not one it can trust
// to be its own.
var ErrNotOwnFile = errors.New("not a file of arena's")

func checkOwnFile(f *os.File) error {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return err
	}
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return fmt.Errorf("is not a regular file: %w", ErrNotOwnFile)
	case int(st.Uid) != os.Geteuid():
		return fmt.Errorf("belongs to another user (uid %d): %w", st.Uid, ErrNotOwnFile)
	case st.Nlink > 1:
		return fmt.Errorf("has %d hard links: %w", st.Nlink, ErrNotOwnFile)
	}
	return nil
}

// Replace writes data to name in d (mode perm, exactly) through a temporary file
// renamed over it, so a reader sees the old file or the new one, never
// half of one, and a symbolic link at name is replaced, not followed.
func (d *Dir) Replace(name string, data []byte, perm os.FileMode) error {
	path := filepath.Join(d.path, name)
	if err := checkName(name); err != nil {
		return &WriteError{Path: path, Problem: err.Error(), Err: err}
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := "." + name + ".arena-" + hex.EncodeToString(rnd[:])
	f, err := d.Create(tmp, perm)
	if err != nil {
		return err
	}
	// The mode asked for, not what the umask leaves of it: a file
	// replaced keeps its owner's mode (0644 stays 0644 under umask 077).
	cerr := f.Chmod(perm.Perm())
	_, werr := f.Write(data)
	if err := errors.Join(cerr, werr, f.Sync(), f.Close()); err != nil {
		_ = unix.Unlinkat(d.fd, tmp, 0)
		return writeErr(path, err)
	}
	if err := unix.Renameat(d.fd, tmp, d.fd, name); err != nil {
		_ = unix.Unlinkat(d.fd, tmp, 0)
		return writeErr(path, err)
	}
	return nil
}

// Remove removes the file name from d (never following a link: a link
// itself is what goes).
func (d *Dir) Remove(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	return unix.Unlinkat(d.fd, name, 0)
}

// RemoveDir removes the empty directory name from d (a link, a file or a
// directory holding anything stays).
func (d *Dir) RemoveDir(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	return unix.Unlinkat(d.fd, name, unix.AT_REMOVEDIR)
}

// Stat describes the file name in d without following a symbolic link.
func (d *Dir) Stat(name string) (unix.Stat_t, error) {
	var st unix.Stat_t
	err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	return st, err
}

// The path-based forms, for one write in a directory: they open the
// directory (creating it), write, and close it.

// CreateNew creates a new file at path, or at the first free numbered
// variant of it, as Dir.CreateNew names them.
func CreateNew(path string) (*os.File, string, error) {
	d, err := OpenDir(filepath.Dir(path), true)
	if err != nil {
		return nil, "", err
	}
	defer d.Close()
	return d.CreateNew(filepath.Base(path))
}

// WriteNew writes data to a new file at path, as Dir.WriteNew does.
func WriteNew(path string, data []byte) (string, error) {
	d, err := OpenDir(filepath.Dir(path), true)
	if err != nil {
		return "", err
	}
	defer d.Close()
	return d.WriteNew(filepath.Base(path), data)
}

// WriteExclusive writes data to a file it creates at path (0600), in a
// directory that exists: never over anything already there (its error
// is then fs.ErrExist), never through a symbolic link. A file it could
// not write whole is removed. It is how arena writes a file a person
// names (an export, a SARIF report).
func WriteExclusive(path string, data []byte) error {
	d, err := OpenDir(filepath.Dir(path), false)
	if err != nil {
		return err
	}
	defer d.Close()
	f, err := d.Create(filepath.Base(path), 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		_ = d.Remove(filepath.Base(path))
		return writeErr(path, err)
	}
	return nil
}

// OpenAppend opens the file at path for appending, as Dir.OpenAppend
// does, creating its directory too when create is set.
func OpenAppend(path string, create bool) (*os.File, error) {
	d, err := OpenDir(filepath.Dir(path), create)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.OpenAppend(filepath.Base(path), create)
}

// MkdirPrivate makes sure the directory at path exists, creating what is
// missing of it 0700, and refuses one reached through a symbolic link
// below the current directory.
func MkdirPrivate(path string) error {
	d, err := OpenDir(path, true)
	if err != nil {
		return err
	}
	return d.Close()
}
