package trust

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"
)

// Exporting a commit's tree for a model CLI to work in. A model CLI
// started in a repository reads that repository's own configuration for
// it: .claude/settings.json (hooks are shell commands), .gemini/
// settings.json and .mcp.json (MCP servers are commands), .codex/, .qwen/,
// and instruction files it loads as if the person had written them
// (CLAUDE.md, GEMINI.md, AGENTS.md, QWEN.md). A seat asked about a
// repository therefore runs in a private export of a commit's tree: the
// tracked files as git stores them (no filter, no attribute applied, no
// .git, so git itself finds no repository there), without any of that
// configuration.

// modelConfig says why a path is left out of an export, or "".
func modelConfig(p string) string {
	parts := strings.Split(p, "/")
	for _, dir := range parts[:len(parts)-1] {
		switch dir {
		case ".claude", ".gemini", ".codex", ".qwen":
			return "a model CLI's configuration (" + dir + "/)"
		}
	}
	switch parts[len(parts)-1] {
	case ".mcp.json":
		return "a model CLI's configuration (MCP servers)"
	case "CLAUDE.md", "CLAUDE.local.md", "GEMINI.md", "AGENTS.md", "AGENTS.override.md", "QWEN.md":
		return "a model CLI's instruction file"
	}
	return ""
}

// Export is what an export holds and what it left out.
type Export struct {
	Dir     string   // where the tree was written
	Files   int      // files written
	Bytes   int64    // their size
	LeftOut []string // "path: why", in tree order
}

// ExportTree writes the tree of rev in the repository at repo into dest
// (which must exist and be empty, and is arena's own: a fresh temporary
// directory), files 0600 (0700 when executable), directories 0700.
// Symbolic links and submodules are left out, like the model CLIs'
// configuration; each is named in LeftOut.
func ExportTree(ctx context.Context, repo, rev, dest string) (Export, error) {
	ex := Export{Dir: dest}
	if rev == "" || strings.HasPrefix(rev, "-") {
		return ex, fmt.Errorf("export: %q is not a revision", rev)
	}
	blobs, err := ex.list(ctx, repo, rev)
	if err != nil {
		return ex, err
	}
	root, err := OpenDir(dest, false)
	if err != nil {
		return ex, err
	}
	defer root.Close()
	err = ex.write(ctx, repo, root, blobs) // before ex is returned: it counts the files
	return ex, err
}

// blob is a file of the tree to export.
type blob struct {
	path string
	oid  string
	perm os.FileMode
}

// list lists the files of rev's tree to export, and names in LeftOut what
// is not exported and why.
func (ex *Export) list(ctx context.Context, repo, rev string) ([]blob, error) {
	list, err := Git(ctx, repo, "ls-tree", "-r", "-z", "--full-tree", rev+"^{tree}")
	if err != nil {
		return nil, err
	}
	var blobs []blob
	for _, entry := range bytes.Split(list, []byte{0}) {
		if len(entry) == 0 {
			continue
		}
		meta, p, ok := strings.Cut(string(entry), "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 3 {
			return nil, fmt.Errorf("export: git ls-tree printed %q", Text(string(entry)))
		}
		mode, kind, oid := fields[0], fields[1], fields[2]
		switch {
		case badPath(p) != "":
			ex.LeftOut = append(ex.LeftOut, Text(p)+": "+badPath(p))
		case kind == "commit":
			ex.LeftOut = append(ex.LeftOut, Text(p)+": a submodule")
		case mode == "120000":
			ex.LeftOut = append(ex.LeftOut, Text(p)+": a symbolic link")
		case kind != "blob":
			ex.LeftOut = append(ex.LeftOut, Text(p)+": a "+Text(kind))
		case modelConfig(p) != "":
			ex.LeftOut = append(ex.LeftOut, p+": "+modelConfig(p))
		default:
			perm := os.FileMode(0o600)
			if mode == "100755" {
				perm = 0o700
			}
			blobs = append(blobs, blob{p, oid, perm})
		}
	}
	return blobs, nil
}

// write writes the blobs under root, their contents from one git
// cat-file --batch.
func (ex *Export) write(ctx context.Context, repo string, root *Dir, blobs []blob) error {
	cmd, err := GitCommand(ctx, repo, "cat-file", "--batch")
	if err != nil {
		return err
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("export: git cat-file: %w", err)
	}
	// Ask for every blob at once from another goroutine: git answers as
	// it reads, and a pipe holds far less than a tree.
	go func() {
		w := bufio.NewWriter(in)
		for _, b := range blobs {
			fmt.Fprintln(w, b.oid)
		}
		w.Flush()
		in.Close()
	}()
	out := bufio.NewReaderSize(outPipe, 256<<10)
	dirs := &dirStack{root: root}
	defer dirs.close()
	for _, b := range blobs {
		n, err := readBlobHeader(out, b.oid)
		if err == nil {
			err = dirs.write(b.path, b.perm, out, n)
		}
		if err == nil {
			_, err = out.Discard(1) // the newline after the content
		}
		if err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return fmt.Errorf("export of %s: %w", Text(b.path), err)
		}
		ex.Files++
		ex.Bytes += n
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("export: git cat-file: %w", err)
	}
	return nil
}

func readBlobHeader(r *bufio.Reader, oid string) (int64, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("git cat-file: %w", err)
	}
	f := strings.Fields(line)
	if len(f) != 3 || f[0] != oid || f[1] != "blob" {
		return 0, fmt.Errorf("git cat-file answered %q", Text(strings.TrimSpace(line)))
	}
	return strconv.ParseInt(f[2], 10, 64)
}

// badPath says why a path from a tree cannot be written, or "": git
// refuses such paths when it checks out, and so does an export.
func badPath(p string) string {
	if p == "" || strings.HasPrefix(p, "/") {
		return "not a relative path"
	}
	for _, part := range strings.Split(p, "/") {
		switch {
		case part == "" || part == "." || part == "..":
			return "a path that leaves the tree"
		case strings.EqualFold(part, ".git"):
			return "a path inside .git"
		case strings.ContainsRune(part, 0):
			return "a name holding a NUL byte"
		}
	}
	return ""
}

// dirStack keeps open the directories of the path being written: a tree
// lists its paths depth first, so each is the last one's neighbour.
type dirStack struct {
	root  *Dir
	names []string
	dirs  []*Dir
}

func (s *dirStack) write(p string, perm os.FileMode, content io.Reader, n int64) error {
	parts := strings.Split(p, "/")
	parent := parts[:len(parts)-1]
	keep := 0
	for keep < len(s.names) && keep < len(parent) && s.names[keep] == parent[keep] {
		keep++
	}
	for len(s.dirs) > keep {
		s.dirs[len(s.dirs)-1].Close()
		s.dirs, s.names = s.dirs[:len(s.dirs)-1], s.names[:len(s.names)-1]
	}
	for _, name := range parent[keep:] {
		d, err := s.top().Sub(name, true)
		if err != nil {
			return err
		}
		s.dirs, s.names = append(s.dirs, d), append(s.names, name)
	}
	f, err := s.top().Create(path.Base(p), perm)
	if err != nil {
		return err
	}
	_, werr := io.CopyN(f, content, n)
	return errors.Join(werr, f.Close())
}

func (s *dirStack) top() *Dir {
	if len(s.dirs) == 0 {
		return s.root
	}
	return s.dirs[len(s.dirs)-1]
}

func (s *dirStack) close() {
	for _, d := range s.dirs {
		d.Close()
	}
}
