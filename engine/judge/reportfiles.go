package judge

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"

	"github.com/arenadebate/arena/challengers/trust"
)

// ReportFiles is the ReportSink of a reports directory: the judges'
// reports go there as {base}.{N}.md, and the outcome's copy as {base}.md.
// The set is reserved whole on the first write: when any of its names is
// taken, the next suffix (-2, -3, ...) is tried for all of them, so a set
// is never mixed with, nor written over, an earlier one.
type ReportFiles struct {
	dir, base string
	n         int
	paths     []string // once reserved
	stem      string
}

// NewReportFiles is the reports of n judges in dir, named from base (the
// solution's name and the date).
func NewReportFiles(dir, base string, n int) *ReportFiles {
	return &ReportFiles{dir: dir, base: base, n: n}
}

func (r *ReportFiles) reserve() error {
	if r.paths != nil {
		return nil
	}
	d, err := trust.OpenDir(r.dir, true)
	if err != nil {
		return err
	}
	defer d.Close()
	for k := 1; k < 1000; k++ {
		stem := r.base
		if k > 1 {
			stem += "-" + strconv.Itoa(k)
		}
		if _, err := d.Stat(stem + ".md"); err == nil {
			continue
		}
		names, err := createSet(d, stem, r.n)
		if errors.Is(err, fs.ErrExist) || errors.Is(err, trust.ErrSymlink) {
			continue
		}
		if err != nil {
			return err
		}
		r.paths, r.stem = names, stem
		return nil
	}
	return fmt.Errorf("no free name for %s in %s", r.base, r.dir)
}

// createSet creates stem.1.md ... stem.n.md in d, all new, or none.
func createSet(d *trust.Dir, stem string, n int) ([]string, error) {
	var made []string
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("%s.%d.md", stem, i)
		f, err := d.Create(name, 0o600)
		if err != nil {
			for _, m := range made {
				_ = d.Remove(m)
			}
			return nil, err
		}
		f.Close()
		made = append(made, name)
	}
	return made, nil
}

// openDir opens the reports' directory, once they are reserved.
func (r *ReportFiles) openDir() (*trust.Dir, error) {
	if err := r.reserve(); err != nil {
		return nil, err
	}
	return trust.OpenDir(r.dir, false)
}

// Append adds text to judge n's report (n from 1) and returns its path.
func (r *ReportFiles) Append(n int, text string) (string, error) {
	d, err := r.openDir()
	if err != nil {
		return "", err
	}
	defer d.Close()
	f, err := d.OpenAppend(r.paths[n-1], false)
	if err != nil {
		return "", err
	}
	_, werr := f.WriteString(trust.Text(text))
	return filepath.Join(r.dir, r.paths[n-1]), errors.Join(werr, f.Close())
}

// Outcome saves the outcome document as {stem}.md beside the reports.
func (r *ReportFiles) Outcome(md string) (string, error) {
	d, err := r.openDir()
	if err != nil {
		return "", err
	}
	defer d.Close()
	// A judge dropped before it wrote leaves its reserved file empty:
	// arena made it, and removes it rather than leave a blank report.
	for _, name := range r.paths {
		if st, err := d.Stat(name); err == nil && st.Size == 0 && st.Mode&0o170000 == 0o100000 {
			_ = d.Remove(name)
		}
	}
	return d.WriteNew(r.stem+".md", []byte(trust.Text(md)))
}
