package hostconfig

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
)

// What arena install does to a CLI's configuration and its slash command
// files, said on w a line each, a file shown with ~ for home (Tilde).

// ErrRefused says Register left the configuration alone, and said why:
// nothing was written for the CLI.
var ErrRefused = errors.New("refused")

// Register registers entry in the configuration at path, beneath root
// (the home or project directory; see Read), and says so on w (dry: says
// what it would change, and writes nothing).
func (h Host) Register(w io.Writer, path, home, root string, entry Entry, dry bool) error {
	show := Tilde(path, home)
	refuse := func(format string, args ...any) error { return refused(w, show, format, args...) }
	before, mode, err := readConfig(w, root, path, show)
	if err != nil {
		return err
	}
	after, state, err := h.Edit(before, entry)
	switch {
	case errors.Is(err, ErrNotOurs):
		return refuse("it has an MCP server named arena that arena install did not write (%v); remove or rename it, then run arena install again", strings.TrimPrefix(err.Error(), ErrNotOurs.Error()+": "))
	case err != nil:
		return refuse("%v", err)
	case state == Unchanged:
		fmt.Fprintf(w, "  %s: arena is registered already, as it would be (unchanged)\n", show)
		return nil
	}
	what, would := "registered the MCP server arena (arena mcp)", "would register the MCP server arena (arena mcp)"
	if state == Updated {
		what, would = "updated the entry arena wrote", "would update the entry arena wrote"
	}
	if dry {
		fmt.Fprintf(w, "  %s: %s\n%s", show, would, indent(Diff(show, before, after), "    "))
		return nil
	}
	if err := Replace(root, path, after, mode); err != nil {
		return err
	}
	fmt.Fprintf(w, "  %s: %s\n", show, what)
	return nil
}

// refused says on w that the configuration shown as show is left alone,
// and why.
func refused(w io.Writer, show, format string, args ...any) error {
	fmt.Fprintf(w, "  %s: refused: %s\n", show, fmt.Sprintf(format, args...))
	return ErrRefused
}

// readConfig reads the configuration at path for an edit, refusing (and
// saying so on w) one arena does not edit.
func readConfig(w io.Writer, root, path, show string) ([]byte, fs.FileMode, error) {
	before, mode, err := Read(root, path)
	if errors.Is(err, ErrUnsafe) {
		return nil, 0, refused(w, show, "%v", err)
	}
	return before, mode, err
}

func indent(s, pad string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pad + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// InstallCommands writes the slash commands, the files of commands, into
// dir beneath root (no directory from root down is followed if it is a
// link), leaving alone a file of the same name that arena did not write
// (PlanCommand); dry writes nothing.
func InstallCommands(w io.Writer, commands fs.FS, dir, home, root string, dry bool) error {
	entries, err := fs.ReadDir(commands, ".")
	if err != nil {
		return err
	}
	d, err := openBeneath(root, dir, !dry)
	switch {
	case dry && errors.Is(err, fs.ErrNotExist):
		d = nil // nothing there yet: every command would be added
	case errors.Is(err, ErrUnsafe):
		return refused(w, Tilde(dir, home), "%v", err)
	case err != nil:
		return err
	default:
		defer d.Close()
	}
	for _, e := range entries {
		body, err := fs.ReadFile(commands, e.Name())
		if err != nil {
			return err
		}
		c, err := PlanCommand(d, e.Name(), body)
		if err != nil {
			return err
		}
		if err := installCommand(w, d, Tilde(filepath.Join(dir, e.Name()), home), c, dry); err != nil {
			return err
		}
	}
	return nil
}

// installCommand writes a command file into d as planned (nothing for a
// dry run), and says what it did to the file shown as show.
func installCommand(w io.Writer, d *trust.Dir, show string, c Command, dry bool) error {
	switch {
	case c.State == CommandKept:
		fmt.Fprintf(w, "  %s: kept: %s (%s not installed)\n", show, c.Why, c.Slash)
		return nil
	case c.State == CommandUnchanged:
		fmt.Fprintf(w, "  %s: %s is there already (unchanged)\n", show, c.Slash)
		return nil
	case dry:
		fmt.Fprintf(w, "  %s: %s would be %s\n", show, c.Slash, c.State)
		return nil
	}
	if err := WriteCommand(d, c); err != nil {
		return err
	}
	fmt.Fprintf(w, "  %s: %s %s\n", show, c.Slash, c.State)
	return nil
}
