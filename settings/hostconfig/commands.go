package hostconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/arenadebate/arena/challengers/trust"
)

// CommandState is what installing a slash command file does to it.
type CommandState string

// What installing a command file does: add it, update the one arena
// wrote, find it as it would be, or keep a file arena did not write.
const (
	CommandAdded     CommandState = "added"
	CommandUpdated   CommandState = "updated"
	CommandUnchanged CommandState = "unchanged"
	CommandKept      CommandState = "kept"
)

// Command is a slash command file as installing it would leave it.
type Command struct {
	Name  string // its file name: debate.md
	Slash string // the command: /debate
	Data  []byte // the file arena writes (CommandFile)
	State CommandState
	// Why a file is kept: "it is not a regular file", "arena did not
	// write it", or why it cannot be read.
	Why string
}

// PlanCommand says what installing the slash command whose text is body,
// as the file name in d (nil: a directory not made yet), does. A file
// arena did not write (its marker is gone), a file that cannot be read and
// anything but a regular file (a symbolic link too) are kept as they are.
func PlanCommand(d *trust.Dir, name string, body []byte) (Command, error) {
	c := Command{Name: name, Slash: "/" + strings.TrimSuffix(name, ".md"), Data: CommandFile(body), State: CommandAdded}
	if d == nil {
		return c, nil
	}
	path := filepath.Join(d.Path(), name)
	st, err := d.Stat(name)
	switch {
	case errors.Is(err, unix.ENOENT):
		return c, nil
	case err != nil:
		return c, fmt.Errorf("%s: %w", path, err)
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		c.State, c.Why = CommandKept, "it is not a regular file"
		return c, nil
	}
	cur, err := d.ReadFile(name, 1<<20)
	switch {
	case err != nil:
		c.State, c.Why = CommandKept, err.Error()
	case bytes.Equal(cur, c.Data):
		c.State = CommandUnchanged
	case !CommandOurs(cur):
		c.State, c.Why = CommandKept, "arena did not write it"
	default:
		c.State = CommandUpdated
		if err := replaceable(path, fs.FileMode(st.Mode).Perm(), uint64(st.Nlink), st.Uid); err != nil {
			c.State, c.Why = CommandKept, err.Error()
		}
	}
	return c, nil
}

// CheckCommandsDir refuses, saying so on w as Register does, a slash
// commands directory that install could reach beneath root only through
// a symbolic link (a repository's .claude/commands linked elsewhere); one
// not made yet is fine. The command line asks before it writes anything.
func CheckCommandsDir(w io.Writer, root, dir, home string) error {
	d, err := openBeneath(root, dir, false)
	switch {
	case err == nil:
		return d.Close()
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.Is(err, ErrUnsafe):
		return refused(w, Tilde(dir, home), "%v", err)
	}
	return err
}

// WriteCommand writes a command file added or updated into d, the
// directory it was planned in. An added file is created new, and removed
// if it cannot be written whole.
func WriteCommand(d *trust.Dir, c Command) error {
	if c.State != CommandAdded {
		return d.Replace(c.Name, c.Data, 0o644)
	}
	f, err := d.Create(c.Name, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(c.Data)
	if err := errors.Join(werr, f.Close()); err != nil {
		_ = d.Remove(c.Name)
		return err
	}
	return nil
}
