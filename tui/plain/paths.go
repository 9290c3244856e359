package plain

import (
	"path/filepath"
	"strings"
)

// RelativeTo is how arena names a file it wrote or reads: relative to dir
// (the directory arena was started in) when the file is beneath it, and
// absolute otherwise, so that a run and its resume, which goes on in the
// run's own directory, name the same file alike (issue 40, item 12: a
// resume printed "debate-logs/X.md" for the run and "/home/…/X.md" for
// the rest). The directory itself is named absolute, not ".". A relative path is taken from the process's working
// directory at the time; a path that cannot be made absolute is kept.
func RelativeTo(dir string) func(string) string {
	return func(path string) string {
		if path == "" || dir == "" {
			return path
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return path
		}
		rel, err := filepath.Rel(dir, abs)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return abs
		}
		return rel
	}
}
