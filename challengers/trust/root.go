package trust

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Reading and writing beneath a root. A directory a person names (the
// solution to judge, their home, the project they install into) is
// theirs, and is opened as they typed it. What lies beneath it is data: a
// repository can commit a symbolic link where a directory was (src ->
// ~/.ssh), and git's index can name a path that climbs out of the work
// tree (../victim/notes.txt, written into the index by hand). Beneath a
// root, every component of a path is opened relative to the one before
// it, without following a symbolic link (openat with O_NOFOLLOW), and a
// path that is not local (.., an absolute path, a NUL) is refused before
// anything is opened. The error names the link.

// ErrOutside says a path was refused because it leaves the directory it
// is read or written beneath.
var ErrOutside = errors.New("the path leaves its directory")

// OpenRoot opens the directory at path, as typed (a link in the path a
// person gives is theirs to give), to read and write beneath it.
func OpenRoot(path string) (*Dir, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &InputError{Name: path, Problem: problemOf(err), Err: &fs.PathError{Op: "open", Path: path, Err: err}}
	}
	return &Dir{fd: fd, path: path}, nil
}

// OpenDirBeneath opens the directory dir, which must lie beneath root (or
// be root), creating what is missing of it (0700) when create is set.
// root is opened as typed; every directory from root down to dir is
// opened without following a symbolic link, and one that is a link is
// refused by name (ErrSymlink).
func OpenDirBeneath(root, dir string, create bool) (*Dir, error) {
	rel, err := filepath.Rel(root, dir)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return nil, &WriteError{Path: dir, Problem: "is not beneath " + root, Err: ErrOutside}
	}
	r, err := OpenDir(root, create)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	d, err := r.Beneath(filepath.ToSlash(rel), create)
	if err != nil {
		return nil, err
	}
	d.path = dir
	return d, nil
}

// Beneath opens the directory rel (slash-separated) beneath d, creating
// what is missing of it (0700) when create is set, never through a
// symbolic link.
func (d *Dir) Beneath(rel string, create bool) (*Dir, error) {
	if rel == "." || rel == "" {
		return d.dup()
	}
	if why := badPath(rel); why != "" {
		return nil, &WriteError{Path: d.join(rel), Problem: "is " + why, Err: ErrOutside}
	}
	cur := d
	for _, name := range strings.Split(rel, "/") {
		next, err := cur.sub(name, create)
		if cur != d {
			cur.Close()
		}
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

// dup is another Dir on the same directory, to be closed on its own.
func (d *Dir) dup() (*Dir, error) {
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, writeErr(d.path, err)
	}
	return &Dir{fd: fd, path: d.path}, nil
}

// join is rel shown beneath d's path, as it was given (not cleaned: a
// path that climbs out shows its "..").
func (d *Dir) join(rel string) string {
	if d.path == "" || d.path == "." {
		return rel
	}
	return strings.TrimSuffix(d.path, "/") + "/" + rel
}

// Open opens the regular file rel (slash-separated, relative) beneath d
// for reading, as the bounded reader's Open does a path: a FIFO, a device,
// a socket or a directory is refused by name, and opening never blocks.
// No component of rel may be a symbolic link (ErrSymlink, naming it) or
// climb out of d (ErrOutside).
func (d *Dir) Open(rel string) (*os.File, error) {
	name := d.join(rel)
	if why := badPath(rel); why != "" {
		return nil, &InputError{Name: name, Problem: "is " + why, Err: ErrOutside}
	}
	parent, base := path.Split(rel)
	dir := d
	if parent != "" {
		sub, err := d.Beneath(strings.TrimSuffix(parent, "/"), false)
		if err != nil {
			return nil, readErr(name, err)
		}
		defer sub.Close()
		dir = sub
	}
	fd, err := unix.Openat(dir.fd, base, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_NOFOLLOW, 0)
	if err != nil {
		if dir.lstatIsLink(base) {
			return nil, &InputError{Name: name, Problem: "is a symbolic link, not followed", Err: ErrSymlink}
		}
		// A socket cannot be opened at all (ENXIO): name what it is.
		if st, serr := dir.Stat(base); serr == nil && st.Mode&unix.S_IFMT != unix.S_IFREG {
			return nil, &InputError{Name: name, Problem: "is " + kindOf(unixMode(st.Mode)) + ", not a regular file", Err: ErrNotRegular}
		}
		return nil, &InputError{Name: name, Problem: problemOf(err), Err: &fs.PathError{Op: "open", Path: name, Err: err}}
	}
	return regularFile(fd, name)
}

// readErr words an error from opening the directories on the way to a
// file as the file's: "src/d/notes.txt: is reached through a symbolic
// link (src/d), not followed".
func readErr(name string, err error) error {
	var we *WriteError
	if !errors.As(err, &we) {
		return &InputError{Name: name, Problem: problemOf(err), Err: err}
	}
	switch {
	case errors.Is(err, ErrSymlink):
		return &InputError{Name: name, Problem: "is reached through a symbolic link (" + we.Path + "), not followed", Err: ErrSymlink}
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, unix.ENOENT):
		return &InputError{Name: name, Problem: "does not exist", Err: fs.ErrNotExist}
	case errors.Is(err, unix.ENOTDIR):
		return &InputError{Name: name, Problem: "does not exist (" + we.Path + " is not a directory)", Err: fs.ErrNotExist}
	}
	return &InputError{Name: name, Problem: we.Problem, Err: err}
}

// ReadHead is the bounded reader's ReadHead of the file rel beneath d.
func (d *Dir) ReadHead(rel string, limit int64) (File, error) {
	f, err := d.Open(rel)
	if err != nil {
		return File{Name: d.join(rel)}, err
	}
	defer f.Close()
	return readOpenHead(f, d.join(rel), limit)
}

// ReadFile is the bounded reader's ReadFile of the file rel beneath d.
func (d *Dir) ReadFile(rel string, limit int64) ([]byte, error) {
	f, err := d.ReadHead(rel, limit)
	if err != nil {
		return nil, err
	}
	if f.Cut {
		return nil, tooLarge(d.join(rel), limit)
	}
	return f.Data, nil
}

// ReadText is the bounded reader's ReadText of the file rel beneath d.
func (d *Dir) ReadText(rel string, limit int64) (string, error) {
	f, err := d.Open(rel)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return readText(f, d.join(rel), limit)
}

// unixMode is a stat mode's file type as fs says it.
func unixMode(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	case unix.S_IFLNK:
		return fs.ModeSymlink
	}
	return 0
}
