package judge

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/arenadebate/arena/engine"
)

// DefaultBudget is how many bytes of the solution go into a prompt. Three
// judges each get the whole solution in every round, and the debate
// prompts add the other judges' reports on top: 200 KB keeps a prompt well
// inside every supported model's context.
const DefaultBudget = 200_000

// Solution is what the judges judge: its files as they go into prompts,
// and what was left out on the way, in words, so nothing is cut silently.
type Solution struct {
	Name    string       // for report file names: "users" for src/api/users.go
	Files   []engine.Doc // what the judges see
	Skipped []string     // binary files: "logo.png (binary)"
	Cut     []string     // what the budget cut: "big.go: first 1200 of 9000 bytes kept"
}

// Text is the solution as the evidence check reads it: every file's
// content the judges were shown.
func (s Solution) Text() string {
	var b strings.Builder
	for _, f := range s.Files {
		b.WriteString(f.Content)
		b.WriteByte('\n')
	}
	return b.String()
}

// Bytes is the size of what the judges see.
func (s Solution) Bytes() int {
	n := 0
	for _, f := range s.Files {
		n += len(f.Content)
	}
	return n
}

// ErrInput is an error in the solution's paths or content, the user's to
// fix.
var ErrInput = errors.New("solution input")

func inputErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInput, fmt.Sprintf(format, args...))
}

// Load reads a solution: files, directories (walked in name order,
// honouring .gitignore files and skipping .git), or "-" for stdin. Binary
// files are skipped and named; what does not fit in budget bytes is cut
// and named.
func Load(paths []string, stdin io.Reader, budget int) (Solution, error) {
	var s Solution
	if len(paths) == 0 {
		return s, inputErr("no solution given: name its files or directories, or - for stdin")
	}
	var files []engine.Doc
	for _, p := range paths {
		if p == "-" {
			b, err := io.ReadAll(io.LimitReader(stdin, int64(budget)*4+1))
			if err != nil {
				return s, inputErr("reading stdin: %v", err)
			}
			if isBinary(b) {
				return s, inputErr("stdin is not text")
			}
			files = append(files, engine.Doc{Name: "stdin", Content: string(b)})
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return s, inputErr("%v", err)
		}
		if !st.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return s, inputErr("%v", err)
			}
			if isBinary(b) {
				s.Skipped = append(s.Skipped, p+" (binary)")
				continue
			}
			files = append(files, engine.Doc{Name: filepath.Clean(p), Content: string(b)})
			continue
		}
		walked, skipped, err := walk(p)
		if err != nil {
			return s, inputErr("%v", err)
		}
		files = append(files, walked...)
		s.Skipped = append(s.Skipped, skipped...)
	}
	s.Name = solutionName(paths[0])
	s.Files, s.Cut = fit(files, budget)
	if s.Bytes() == 0 || len(s.Files) == 0 {
		what := "the solution is empty"
		if len(s.Skipped) > 0 {
			what += " (skipped: " + strings.Join(s.Skipped, ", ") + ")"
		}
		return s, inputErr("%s: nothing to judge", what)
	}
	return s, nil
}

// solutionName names the report files after the first path: its base
// name without the extension ("users" for src/api/users.go).
func solutionName(p string) string {
	if p == "-" {
		return "stdin"
	}
	base := filepath.Base(filepath.Clean(p))
	if base == "." || base == "/" {
		if abs, err := filepath.Abs(p); err == nil {
			base = filepath.Base(abs)
		}
	}
	return engine.Slug(strings.TrimSuffix(base, filepath.Ext(base)), 40)
}

// isBinary: a NUL byte in the first 8000 bytes (git's own test), or text
// that is not UTF-8.
func isBinary(b []byte) bool {
	head := b[:min(len(b), 8000)]
	return bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(b)
}

// fit keeps the files, in order, within budget bytes. The file that
// crosses the budget keeps its head, cut at a line break; the rest are
// left out. Each cut is named.
func fit(files []engine.Doc, budget int) ([]engine.Doc, []string) {
	var out []engine.Doc
	var cut []string
	left := budget
	for _, f := range files {
		switch {
		case len(f.Content) <= left:
			out = append(out, f)
			left -= len(f.Content)
		case left >= 1024:
			head := f.Content[:left]
			if i := strings.LastIndexByte(head, '\n'); i > 0 {
				head = head[:i+1]
			}
			for len(head) > 0 && !utf8.ValidString(head) {
				head = head[:len(head)-1]
			}
			cut = append(cut, fmt.Sprintf("%s: first %d of %d bytes kept", f.Name, len(head), len(f.Content)))
			out = append(out, engine.Doc{Name: f.Name, Content: head})
			left = 0
		default:
			cut = append(cut, fmt.Sprintf("%s: left out (%d bytes)", f.Name, len(f.Content)))
			left = 0
		}
	}
	return out, cut
}

// walk reads a directory's text files in name order, honouring the
// .gitignore files in it and in its parents up to the repository's root.
func walk(root string) (files []engine.Doc, skipped []string, err error) {
	ig := &ignorer{}
	ig.loadParents(root)
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" && p != root {
				return filepath.SkipDir
			}
			if p != root && ig.ignored(p, true) {
				return filepath.SkipDir
			}
			ig.load(p)
			return nil
		}
		if !d.Type().IsRegular() || ig.ignored(p, false) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if isBinary(b) {
			skipped = append(skipped, p+" (binary)")
			return nil
		}
		files = append(files, engine.Doc{Name: p, Content: string(b)})
		return nil
	})
	return files, skipped, err
}

// ignorer matches paths against the .gitignore rules read so far. Rules
// are kept in the order read (parents first, deeper directories later),
// and the last rule that matches decides, as in git.
type ignorer struct{ rules []ignoreRule }

type ignoreRule struct {
	base    string // absolute directory of the .gitignore
	re      *regexp.Regexp
	neg     bool
	dirOnly bool
	anyDir  bool // no slash in the pattern: matches the name at any depth
}

// loadParents reads the .gitignore files above root, up to the directory
// holding .git (none when root is not in a repository).
func (ig *ignorer) loadParents(root string) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return
	}
	var dirs []string
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(abs, ".git")); err == nil {
			break // root itself is the repository's top
		}
		dirs = append(dirs, d)
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			break
		}
		if d == filepath.Dir(d) {
			dirs = nil // not in a repository: parents' ignores do not apply
			break
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		ig.load(dirs[i])
	}
}

// load reads dir/.gitignore, if there is one.
func (ig *ignorer) load(dir string) {
	f, err := os.Open(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return
	}
	defer f.Close()
	abs, err := filepath.Abs(dir)
	if err != nil {
		return
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if r, ok := parseIgnore(abs, sc.Text()); ok {
			ig.rules = append(ig.rules, r)
		}
	}
}

func parseIgnore(base, line string) (ignoreRule, bool) {
	line = strings.TrimRight(line, " \t\r")
	if line == "" || strings.HasPrefix(line, "#") {
		return ignoreRule{}, false
	}
	r := ignoreRule{base: base}
	if strings.HasPrefix(line, "!") {
		r.neg, line = true, line[1:]
	} else if strings.HasPrefix(line, `\`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	r.anyDir = !strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	if line == "" {
		return ignoreRule{}, false
	}
	re, err := regexp.Compile("^" + globRegexp(line) + "$")
	if err != nil {
		return ignoreRule{}, false
	}
	r.re = re
	return r, true
}

// globRegexp translates a gitignore glob: ** crosses directories, * and ?
// do not, [...] is a class.
func globRegexp(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		switch c := g[i]; {
		case strings.HasPrefix(g[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(g[i:], "/**") && i+3 == len(g):
			b.WriteString("(?:/.*)?")
			i += 2
		case strings.HasPrefix(g[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			j := strings.IndexByte(g[i:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := g[i+1 : i+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

func (ig *ignorer) ignored(p string, isDir bool) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	out := false
	for _, r := range ig.rules {
		rel, err := filepath.Rel(r.base, abs)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = filepath.ToSlash(rel)
		if r.dirOnly && !isDir {
			continue
		}
		subject := rel
		if r.anyDir {
			subject = rel[strings.LastIndexByte(rel, '/')+1:]
		}
		if r.re.MatchString(subject) {
			out = !r.neg
		}
	}
	return out
}
