package settings

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/arenadebate/arena/challengers"
)

// ChallengerCachePath is where arena doctor records the challengers it
// found usable, one agent name a line.
func ChallengerCachePath(env Env) (string, error) {
	if env.CacheDir == "" {
		return "", errors.New("no user cache directory is known (set XDG_CACHE_HOME)")
	}
	return filepath.Join(env.CacheDir, "arena", "challengers"), nil
}

// A CacheEntry is one agent of doctor's saved list: whether it is in
// (arena uses it as a challenger by default) and why, in doctor's words
// ("answered --version in 8.1s (slow)", "not found on PATH").
type CacheEntry struct {
	Name string `json:"agent"`
	In   bool   `json:"in"`
	Why  string `json:"why"`
}

// SaveChallengerCache records doctor's verdict for later runs: the
// usable challengers one a line, each with why it is in after a "#", and
// after them, as comments, the agents left out and why. It writes a
// temporary file and renames it, so a concurrent run never reads half a
// list.
func SaveChallengerCache(env Env, entries []CacheEntry) error {
	path, err := ChallengerCachePath(env)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("saving usable challengers: %w", err)
	}
	var b strings.Builder
	b.WriteString("# Usable challengers found by arena doctor, one a line, each with why it is in.\n")
	for _, e := range entries {
		if e.In {
			fmt.Fprintf(&b, "%s\t# %s\n", e.Name, oneLine(e.Why))
		}
	}
	for _, e := range entries {
		if !e.In {
			fmt.Fprintf(&b, "# out: %s: %s\n", e.Name, oneLine(e.Why))
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".challengers-*")
	if err != nil {
		return fmt.Errorf("saving usable challengers: %w", err)
	}
	_, werr := tmp.WriteString(b.String())
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving usable challengers: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving usable challengers: %w", err)
	}
	return nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// ReadChallengerCache reads doctor's saved list (found is false when
// there is none): the agents in it, and those it names as left out.
func ReadChallengerCache(env Env) (entries []CacheEntry, found bool, err error) {
	path, err := ChallengerCachePath(env)
	if err != nil {
		return nil, false, nil
	}
	data, found, err := readFile(path)
	if err != nil || !found {
		return nil, found, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if e, ok := parseCacheLine(line); ok {
			entries = append(entries, e)
		}
	}
	return entries, true, nil
}

// parseCacheLine reads one line of the saved list: "name", "name # why",
// "# out: name: why", or another comment (not an entry).
func parseCacheLine(line string) (CacheEntry, bool) {
	line = strings.TrimSpace(line)
	if rest, ok := strings.CutPrefix(line, "# out: "); ok {
		name, why, _ := strings.Cut(rest, ": ")
		return CacheEntry{Name: strings.TrimSpace(name), Why: strings.TrimSpace(why)}, name != ""
	}
	if line == "" || strings.HasPrefix(line, "#") {
		return CacheEntry{}, false
	}
	name, why, _ := strings.Cut(line, "#")
	return CacheEntry{Name: strings.TrimSpace(name), In: true, Why: strings.TrimSpace(why)}, true
}

// discoverChallengers returns doctor's list if there is one, otherwise the
// built-in challengers whose program is on PATH.
func (l *loader) discoverChallengers() ([]string, []origin) {
	if names, srcs, ok := l.cachedChallengers(); ok {
		return names, srcs
	}
	o := origin{label: "found on PATH"}
	l.s.src[keyChallengers] = o
	var names []string
	var srcs []origin
	for _, name := range challengers.DefaultChallengerOrder {
		a, ok := l.s.Agents[name]
		if ok && name != l.s.Defender && l.installed(a) {
			names = append(names, name)
			srcs = append(srcs, o)
		}
	}
	return names, srcs
}

// cachedChallengers reads doctor's cache. An unreadable cache is not fatal:
// PATH is a fine second guess. Nor may the cache make arena blind to what
// was installed since doctor ran (issue 40, point 1): an agent it left
// out only because its program was not on PATH is in again once it is,
// and one it kept in whose program is gone is left out; each is said, with
// how to refresh the list.
func (l *loader) cachedChallengers() ([]string, []origin, bool) {
	path, err := ChallengerCachePath(l.env)
	if err != nil {
		return nil, nil, false
	}
	data, found, err := readFile(path)
	l.s.Looked = append(l.s.Looked, Looked{Path: path, What: "the challengers arena doctor found usable", Found: found})
	if err != nil {
		l.s.Warnings = append(l.s.Warnings, err.Error()+"; looking on PATH instead")
	}
	if err != nil || !found {
		return nil, nil, false
	}
	l.s.src[keyChallengers] = origin{label: "doctor cache " + path}
	var names, gone, since []string
	var srcs []origin
	seen := map[string]bool{}
	for i, line := range strings.Split(string(data), "\n") {
		e, ok := parseCacheLine(line)
		if !ok {
			continue
		}
		a, known := l.s.Agents[e.Name]
		seen[e.Name] = true
		switch {
		case e.In && known && e.Name != l.s.Defender && !l.installed(a):
			gone = append(gone, e.Name)
		case e.In:
			names = append(names, e.Name)
			srcs = append(srcs, origin{file: path, line: i + 1})
		case e.Why == challengers.NotOnPath && known && l.installed(a):
			since = append(since, e.Name)
			names = append(names, e.Name)
			srcs = append(srcs, origin{label: "found on PATH since arena doctor ran"})
		}
	}
	if len(names) == 0 {
		// A list with no challenger in it is checked against PATH for
		// agents it does not name at all (a hand-emptied list, an agent
		// added to the config since).
		for _, name := range challengers.DefaultChallengerOrder {
			if a, ok := l.s.Agents[name]; ok && !seen[name] && name != l.s.Defender && l.installed(a) {
				since = append(since, name)
				names = append(names, name)
				srcs = append(srcs, origin{label: "found on PATH since arena doctor ran"})
			}
		}
	}
	if len(since) > 0 {
		l.s.Warnings = append(l.s.Warnings, fmt.Sprintf("%s: installed since arena doctor last ran, so taken as %s; run `arena doctor` to check %s",
			strings.Join(since, ", "), plural(len(since), "a challenger", "challengers"), plural(len(since), "it", "them")))
	}
	if len(gone) > 0 {
		l.s.Warnings = append(l.s.Warnings, fmt.Sprintf("%s: in arena doctor's list but no longer on PATH, so left out; run `arena doctor` to refresh the list",
			strings.Join(gone, ", ")))
	}
	return names, srcs, true
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// installed reports whether an agent's program, or one of its alternatives
// (agy standing in for gemini), is on PATH.
func (l *loader) installed(a challengers.Agent) bool {
	if a.IsAPI() {
		return true // an endpoint the config names: doctor checks it
	}
	if l.env.LookPath == nil {
		return false
	}
	if _, err := l.env.LookPath(a.Executable()); err == nil {
		return true
	}
	for _, alt := range a.Alternatives {
		if len(alt.Command) > 0 {
			if _, err := l.env.LookPath(alt.Command[0]); err == nil {
				return true
			}
		}
	}
	return false
}
