package hostconfig

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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
// as the file name in dir, does. A file arena did not write (its marker
// is gone), a file that cannot be read and anything but a regular file
// (a symbolic link too) are kept as they are.
func PlanCommand(dir, name string, body []byte) (Command, error) {
	c := Command{Name: name, Slash: "/" + strings.TrimSuffix(name, ".md"), Data: CommandFile(body), State: CommandAdded}
	path := filepath.Join(dir, name)
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c, nil
	case err != nil:
		return c, err
	case st.Mode()&fs.ModeSymlink != 0 || !st.Mode().IsRegular():
		c.State, c.Why = CommandKept, "it is not a regular file"
		return c, nil
	}
	cur, err := trust.ReadFile(path, 1<<20)
	switch {
	case err != nil:
		c.State, c.Why = CommandKept, err.Error()
	case bytes.Equal(cur, c.Data):
		c.State = CommandUnchanged
	case !CommandOurs(cur):
		c.State, c.Why = CommandKept, "arena did not write it"
	default:
		c.State = CommandUpdated
		if err := statReplaceable(path, st); err != nil {
			c.State, c.Why = CommandKept, err.Error()
		}
	}
	return c, nil
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
