package hostconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/arenadebate/arena/challengers/trust"
)

// arena install --uninstall: what install wrote goes, and nothing else.
// The entry named arena goes from the CLI's configuration only when it
// carries arena's marker (HostEnv); every other byte stays as it was, and
// the result is checked as an install's is (everything but arena's entry
// equal). A configuration left holding nothing (a project's .mcp.json
// that install made) is removed. A slash command file goes only when it
// still carries arena's marker and is a regular file.

// Unregister removes arena's entry from the configuration at path (dry:
// says what it would change, and writes nothing). A configuration that
// holds nothing else goes, and so do the directories under root (the home
// or project directory) that it leaves empty.
func (h Host) Unregister(w io.Writer, path, home, root string, dry bool) error {
	show := Tilde(path, home)
	refuse := func(format string, args ...any) error { return refused(w, show, format, args...) }
	before, mode, err := readConfig(w, root, path, show)
	if err != nil {
		return err
	}
	after, removed, err := h.Unedit(before)
	switch {
	case errors.Is(err, ErrNotOurs):
		return refuse("its MCP server named arena was not written by arena install (%v); it stays", strings.TrimPrefix(err.Error(), ErrNotOurs.Error()+": "))
	case err != nil:
		return refuse("%v", err)
	case !removed:
		fmt.Fprintf(w, "  %s: arena is not registered there (nothing to remove)\n", show)
		return nil
	}
	empty := h.holdsNothing(after)
	what, would := "removed the MCP server arena", "would remove the MCP server arena"
	if empty {
		what, would = what+", and the file, which held nothing else", would+", and the file, which would hold nothing else"
	}
	if dry {
		fmt.Fprintf(w, "  %s: %s\n%s", show, would, indent(Diff(show, before, after), "    "))
		return nil
	}
	if empty {
		if err = removeFile(root, path); err == nil {
			RemoveEmptyDirs(filepath.Dir(path), root)
		}
	} else {
		err = Replace(root, path, after, mode)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  %s: %s\n", show, what)
	return nil
}

// removeFile removes the regular file at path beneath root, never a
// link's target, nor a file reached through a link.
func removeFile(root, path string) error {
	d, err := openBeneath(root, filepath.Dir(path), false)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := CheckReplace(d, filepath.Base(path)); err != nil {
		return err
	}
	return d.Remove(filepath.Base(path))
}

// RemoveEmptyDirs removes dir and the directories above it, up to root
// and not root itself, while each is empty: those install made. Each is
// removed from its parent, opened beneath root as install opened it: no
// link on the way is followed, and a link itself is no directory to
// remove.
func RemoveEmptyDirs(dir, root string) {
	rel, err := filepath.Rel(root, dir)
	if err != nil || !filepath.IsLocal(rel) {
		return
	}
	parts := strings.Split(rel, string(filepath.Separator))
	for i := len(parts); i > 0; i-- {
		parent, err := trust.OpenDirBeneath(root, filepath.Join(append([]string{root}, parts[:i-1]...)...), false)
		if err != nil {
			return
		}
		err = parent.RemoveDir(parts[i-1])
		parent.Close()
		if err != nil {
			return
		}
	}
}

// Unedit removes arena's entry from the CLI's configuration doc: removed
// is false when there is none. errors.Is(err, ErrNotOurs) when the entry
// named arena is someone else's.
func (h Host) Unedit(doc []byte) (out []byte, removed bool, err error) {
	if h.toml {
		return RemoveTOML(doc)
	}
	return RemoveJSON(doc, "mcpServers", "arena")
}

// holdsNothing says whether a configuration, once arena's entry is gone,
// holds nothing at all: blank, or an empty list of servers.
func (h Host) holdsNothing(doc []byte) bool {
	if len(bytes.TrimSpace(doc)) == 0 {
		return true
	}
	if h.toml {
		return false // a TOML file that is not blank holds a comment at least
	}
	var m map[string]any
	if json.Unmarshal(doc, &m) != nil {
		return false
	}
	withoutEmpty(m, "mcpServers")
	return len(m) == 0
}

// RemoveJSON removes key (mcpServers) → name (arena) from a JSON
// document, splicing its text so that every other byte stays.
func RemoveJSON(doc []byte, key, name string) ([]byte, bool, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return doc, false, nil
	}
	before, err := parseJSON(doc)
	if err != nil {
		return nil, false, err
	}
	oStart, oEnd, err := jsonObjectSpan(doc)
	if err != nil {
		return nil, false, err
	}
	sStart, sEnd, found, err := jsonMember(doc, oStart, oEnd, key)
	if err != nil || !found || doc[sStart] != '{' {
		return doc, false, err
	}
	members, err := jsonMembers(doc, sStart, sEnd)
	if err != nil {
		return nil, false, err
	}
	i := len(members) - 1
	for i >= 0 && members[i].key != name {
		i--
	}
	if i < 0 {
		return doc, false, nil
	}
	m := members[i]
	var cur any
	_ = json.Unmarshal(doc[m.valStart:m.valEnd], &cur)
	if !ours(cur) {
		return nil, false, fmt.Errorf("%w: %s", ErrNotOurs, oneLine(string(doc[m.valStart:m.valEnd]), 160))
	}
	out := spliceOut(doc, members, i)
	if len(members) == 1 { // the servers were arena alone: the key goes too, as install added it
		top, err := jsonMembers(doc, oStart, oEnd)
		if err != nil {
			return nil, false, err
		}
		j := len(top) - 1
		for top[j].key != key {
			j--
		}
		out = spliceOut(doc, top, j)
	}
	var after map[string]any
	if err := json.Unmarshal(out, &after); err != nil {
		return nil, false, fmt.Errorf("internal error: the edit is not JSON (%w); nothing written", err)
	}
	if err := checkRemoved(before, after, key); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// spliceOut is doc without members[i], its comma and the space before
// the next member's key.
func spliceOut(doc []byte, members []jsonSpan, i int) []byte {
	m := members[i]
	switch {
	case i > 0: // from the end of the member before it
		return concat(doc[:members[i-1].valEnd], doc[m.valEnd:])
	case len(members) > 1: // the first: up to the key after it
		return concat(doc[:m.keyStart], doc[members[1].keyStart:])
	}
	// the only one: the object becomes {}
	end := m.valEnd
	for end < len(doc) && doc[end] != '}' {
		end++
	}
	start := m.keyStart
	for start > 0 && doc[start-1] != '{' {
		start--
	}
	return concat(doc[:start], doc[end:])
}

// RemoveTOML removes the [mcp_servers.arena] table and its sub-tables
// from a TOML document, with the blank line install put before it.
func RemoveTOML(doc []byte) ([]byte, bool, error) {
	before, _, exists, err := parseTOML(doc)
	if err != nil || !exists {
		return doc, false, err
	}
	lines := strings.SplitAfter(string(doc), "\n")
	start, end, err := tomlArenaSpan(lines)
	if err != nil {
		return nil, false, err
	}
	blank := func(i int) bool { return strings.TrimSpace(lines[i]) == "" }
	switch {
	case start > 0 && blank(start-1):
		start--
	case end < len(lines) && blank(end):
		end++
	}
	out := strings.Join(lines[:start], "") + strings.Join(lines[end:], "")
	after, err := decodeTOML(out)
	if err != nil {
		return nil, false, fmt.Errorf("removing arena's [mcp_servers.arena] table would make it invalid TOML (%w)", err)
	}
	if err := checkRemoved(before, after, "mcp_servers"); err != nil {
		return nil, false, err
	}
	return []byte(out), true, nil
}

// checkRemoved is the check of a removal: before and after are equal once
// arena's entry is gone from before, an emptied list of servers counting
// as none.
func checkRemoved(before, after map[string]any, key string) error {
	if servers, _ := before[key].(map[string]any); servers != nil {
		delete(servers, "arena")
	}
	withoutEmpty(before, key)
	withoutEmpty(after, key)
	if !reflect.DeepEqual(normal(before), normal(after)) {
		return errors.New("internal error: the edit changes more than arena's entry; nothing written")
	}
	return nil
}

// withoutEmpty deletes key from m when it holds an empty object.
func withoutEmpty(m map[string]any, key string) {
	if s, ok := m[key].(map[string]any); ok && len(s) == 0 {
		delete(m, key)
	}
}

// UninstallCommands removes from dir the slash command files named as
// those of commands that arena wrote (they carry its marker), leaving
// alone a file arena did not write, a link, and anything else, then the
// directories under root left empty; dry removes nothing.
func UninstallCommands(w io.Writer, commands fs.FS, dir, home, root string, dry bool) error {
	entries, err := fs.ReadDir(commands, ".")
	if err != nil {
		return err
	}
	d, err := openBeneath(root, dir, false)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.Is(err, ErrUnsafe):
		return refused(w, Tilde(dir, home), "%v", err)
	case err != nil:
		return err
	}
	defer d.Close()
	removed := false
	defer func() {
		if removed {
			RemoveEmptyDirs(dir, root)
		}
	}()
	for _, e := range entries {
		name := e.Name()
		show, slash := Tilde(filepath.Join(dir, name), home), "/"+strings.TrimSuffix(name, ".md")
		why, err := commandRemovable(d, name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return err
		case why != "":
			fmt.Fprintf(w, "  %s: kept: %s\n", show, why)
		case dry:
			fmt.Fprintf(w, "  %s: %s would be removed\n", show, slash)
		default:
			if err := d.Remove(name); err != nil {
				return fmt.Errorf("%s: %w", show, err)
			}
			fmt.Fprintf(w, "  %s: %s removed\n", show, slash)
			removed = true
		}
	}
	return nil
}

// commandRemovable says why the command file name in d stays ("" when it
// is arena's to remove); fs.ErrNotExist when there is none.
func commandRemovable(d *trust.Dir, name string) (string, error) {
	st, err := d.Stat(name)
	switch {
	case err != nil && os.IsNotExist(err):
		return "", fs.ErrNotExist
	case err != nil:
		return "", err
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return "it is not a regular file", nil
	}
	body, err := d.ReadFile(name, 1<<20)
	switch {
	case err != nil:
		return err.Error(), nil
	case !CommandOurs(body):
		return "arena did not write it", nil
	}
	return "", nil
}
