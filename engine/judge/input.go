package judge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/arenadebate/arena/challengers/trust"
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
	Skipped []string     // what was not sent: "logo.png (binary)", ".env (an environment file (.env*), where keys live)"
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

// LoadOptions say how much of the solution goes to the judges and what
// may.
type LoadOptions struct {
	Budget int // bytes of the solution in a prompt (DefaultBudget)
	// IncludeSecrets sends files that look like secrets, which are
	// otherwise skipped and named.
	IncludeSecrets bool
}

// gitTimeout bounds git's listing of a directory's files.
const gitTimeout = time.Minute

// Load reads a solution: files, directories, or "-" for stdin. A
// directory's files are the ones git counts as the work (trust.WorkFiles:
// every ignore rule git honours, and outside a work tree its .gitignore
// files as git reads them), in git's order. Binary files, files that look
// like secrets, symbolic links and files that cannot be read are skipped
// and named; what does not fit in the budget is cut and named. Every read
// is bounded, whatever the file system says of a file's size.
func Load(paths []string, stdin io.Reader, o LoadOptions) (Solution, error) {
	var s Solution
	if len(paths) == 0 {
		return s, inputErr("no solution given: name its files or directories, or - for stdin")
	}
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	var files []file
	for _, p := range paths {
		if p == "-" {
			text, err := trust.ReadAllText(stdin, "stdin", int64(o.Budget)*4)
			if err != nil {
				return s, inputErr("%v", err)
			}
			files = append(files, file{Doc: engine.Doc{Name: "stdin", Content: text}, size: int64(len(text))})
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return s, inputErr("solution %s: %s", trust.Text(p), problem(err))
		}
		if !st.IsDir() {
			f, why, err := readFile(p, o)
			if err != nil {
				return s, inputErr("solution %v", err)
			}
			if why != "" {
				s.Skipped = append(s.Skipped, trust.Text(p)+" ("+why+")")
				continue
			}
			files = append(files, f)
			continue
		}
		walked, skipped, err := walk(p, o)
		if err != nil {
			return s, inputErr("%s: %v", trust.Text(p), err)
		}
		files = append(files, walked...)
		s.Skipped = append(s.Skipped, skipped...)
	}
	s.Name = solutionName(paths[0])
	s.Files, s.Cut = fit(files, o.Budget)
	if s.Bytes() == 0 || len(s.Files) == 0 {
		what := "the solution is empty"
		if len(s.Skipped) > 0 {
			what += " (skipped: " + strings.Join(s.Skipped, ", ") + ")"
		}
		return s, inputErr("%s: nothing to judge", what)
	}
	return s, nil
}

// file is a file as read: its head when it is larger than the budget.
type file struct {
	engine.Doc
	size int64
}

// readFile reads a file of the solution the person named, up to the
// budget. A file that is not to be sent comes back with why, and a file
// that cannot be sent at all (a FIFO, a device) as an error.
func readFile(p string, o LoadOptions) (file, string, error) {
	f, err := trust.ReadHead(p, int64(o.Budget))
	if err != nil {
		return file{}, "", err
	}
	return solutionFile(filepath.Clean(p), f, o)
}

// readFileIn reads the file rel of a directory of the solution, beneath
// it, as readFile does.
func readFileIn(dir *trust.Dir, rel string, o LoadOptions) (file, string, error) {
	f, err := dir.ReadHead(rel, int64(o.Budget))
	if err != nil {
		return file{}, "", err
	}
	return solutionFile(filepath.Join(dir.Path(), filepath.FromSlash(rel)), f, o)
}

// solutionFile is what was read of the file at p as the judges see it,
// or why it is not sent.
func solutionFile(p string, f trust.File, o LoadOptions) (file, string, error) {
	name := trust.Text(p)
	if err := trust.CheckText(name, trimPartialRune(f.Data, f.Cut)); err != nil {
		return file{Doc: engine.Doc{Name: name}}, "binary", nil
	}
	text := string(trimPartialRune(f.Data, f.Cut))
	if !o.IncludeSecrets {
		if why := trust.LooksSecret(p, f.Data); why != "" {
			return file{Doc: engine.Doc{Name: name}}, "looks like a secret: " + why + "; --include-secrets sends it", nil
		}
	}
	return file{Doc: engine.Doc{Name: name, Content: text}, size: f.Size}, "", nil
}

// trimPartialRune drops a character cut in two at the end of a head.
func trimPartialRune(b []byte, cut bool) []byte {
	if !cut {
		return b
	}
	for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	return b
}

func problem(err error) string {
	var ie *trust.InputError
	if errors.As(err, &ie) {
		return ie.Problem
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "does not exist"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "cannot be read: " + pe.Err.Error()
	}
	return "cannot be read: " + err.Error()
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

// fit keeps the files, in order, within budget bytes. The file that
// crosses the budget keeps its head, cut at a line break; the rest are
// left out. Each cut is named.
func fit(files []file, budget int) ([]engine.Doc, []string) {
	var out []engine.Doc
	var cut []string
	left := budget
	for _, f := range files {
		switch {
		case len(f.Content) <= left && f.size <= int64(len(f.Content)):
			out = append(out, f.Doc)
			left -= len(f.Content)
		case left >= 1024:
			head := f.Content[:min(left, len(f.Content))]
			if i := strings.LastIndexByte(head, '\n'); i > 0 {
				head = head[:i+1]
			}
			for len(head) > 0 && !utf8.ValidString(head) {
				head = head[:len(head)-1]
			}
			cut = append(cut, fmt.Sprintf("%s: first %d of %d bytes kept", f.Name, len(head), max(f.size, int64(len(f.Content)))))
			out = append(out, engine.Doc{Name: f.Name, Content: head})
			left = 0
		default:
			cut = append(cut, fmt.Sprintf("%s: left out (%d bytes)", f.Name, max(f.size, int64(len(f.Content)))))
			left = 0
		}
	}
	return out, cut
}

// walk reads the text files git counts as the work under root, in git's
// order. Nothing it meets stops it: a file that is not sent is named in
// skipped with the reason.
func walk(root string, o LoadOptions) (files []file, skipped []string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	names, err := trust.WorkFiles(ctx, root)
	if err != nil {
		return nil, nil, err
	}
	// Every file is opened beneath root: git's index may name a path that
	// climbs out (../victim/notes.txt), and a tracked directory may have
	// become a link (src -> ~/.ssh). Neither is followed.
	dir, err := trust.OpenRoot(root)
	if err != nil {
		return nil, nil, err
	}
	defer dir.Close()
	for _, rel := range names {
		f, why, err := readFileIn(dir, rel, o)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // tracked, deleted from the work tree
		case err != nil:
			skipped = append(skipped, trust.Text(inputName(err, rel))+" ("+problem(err)+")")
		case why != "":
			skipped = append(skipped, f.Name+" ("+why+")")
		default:
			files = append(files, f)
		}
	}
	return files, skipped, nil
}

// inputName is the name an input error gives the file, or rel.
func inputName(err error, rel string) string {
	var ie *trust.InputError
	if errors.As(err, &ie) {
		return ie.Name
	}
	return rel
}
