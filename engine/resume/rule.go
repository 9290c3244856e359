// Package resume is arena resume's policy: what the command line a log
// records may start again, checked before anything runs.
//
// A log is data, never a command line. The invocation a log records is
// parsed by the protocol's own command, every flag checked against what
// that protocol's runs record (Rule), and the command rebuilt from the
// parsed values: a log cannot name another command (a hook installer, a
// resume of itself), a flag its protocol does not take, or a file its run
// did not attach. What is left is shown before it runs (Plan: the files
// it reads, where it writes, the seats), and run only when the log was
// signed by this user's arena (runlog.Signed), or the person says so.
package resume

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/pflag"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// Rule is what a protocol's command may be started again with.
type Rule struct {
	Flags  []string // its own flags a run may record
	Reads  []string // flags naming files it reads
	Args   bool     // its arguments name the files and directories it reads
	Writes []string // flags naming where it writes
	// Runs are flags that make it run something, and what: shown before
	// the resume runs it.
	Runs map[string]string
	// Spec: its first argument is the file the run attached first (rank's
	// specification), and must name it again.
	Spec bool
	// Again is the command line that starts a run again, from its log's
	// start event; nil: the one the log records (ByInvocation).
	Again func(engine.DebateStarted) ([]string, error)
}

// CommonFlags are the settings every protocol's command takes.
var CommonFlags = []string{"defender", "challengers", "max-rounds", "timeout", "config", "max-cost", "max-calls", "max-tokens"}

// DroppedFlags are a run's front end and log, which the resume decides
// for itself: they are left out of the rebuilt command.
var DroppedFlags = []string{"no-tui", "json", "brief", "moderate", "log-dir", "no-log"}

// StartAgain is the command line that starts a run again from its log's
// start event.
func (r Rule) StartAgain(st engine.DebateStarted) ([]string, error) {
	if r.Again != nil {
		return r.Again(st)
	}
	return ByInvocation(st)
}

// ByInvocation starts a run again with the arguments it was started
// with: what every command that builds its protocol from its arguments
// alone (and the files and stdin they name) needs.
func ByInvocation(st engine.DebateStarted) ([]string, error) {
	if st.Invocation == nil || len(st.Invocation.Args) == 0 {
		return nil, errors.New("the log does not record how the run was started (it was written by an older arena); start it again")
	}
	return slices.Clone(st.Invocation.Args), nil
}

// Take says what becomes of a flag a logged command line gives: kept,
// dropped (the resume's own say), or refused, and why.
func (r Rule) Take(name, protocol string) (keep bool, refused string) {
	switch {
	case slices.Contains(DroppedFlags, name):
		return false, ""
	case slices.Contains(CommonFlags, name), slices.Contains(r.Flags, name):
		return true, ""
	}
	return false, fmt.Sprintf("--%s: not a flag a %s run records (%s)", name, protocol, refusedWhy(name))
}

// refusedWhy says why a flag is never taken from a log.
func refusedWhy(name string) string {
	switch name {
	case "install-hook", "uninstall-hook", "force":
		return "a resume never installs a hook"
	case "help", "version", "schema", "stats", "dry-run":
		return "it does not start a run"
	case "include-secrets":
		return "a log cannot ask for secrets to be sent; give --include-secrets to arena resume yourself"
	}
	return "a log cannot add it"
}

// Check says what in a logged command line (its kept flags' values by
// name, and its arguments) does not match the run its log records: a file
// the run did not attach, another specification, a directory that is not
// one here.
func (r Rule) Check(st engine.DebateStarted, values map[string][]string, pos []string) []string {
	var why []string
	// What the run attached is in its start event: a file the command
	// line names that the run did not attach was put there by a hand.
	attached := map[string]bool{}
	for _, c := range st.Context {
		attached[c.Name] = true
	}
	for _, v := range values["context"] {
		if !attached[v] {
			why = append(why, fmt.Sprintf("--context %s: the run this log records attached no such file", trust.Text(v)))
		}
	}
	if r.Spec && (len(pos) == 0 || len(st.Context) == 0 || st.Context[0].Name != pos[0]) {
		why = append(why, "the specification it names is not the one the run judged against")
	}
	if st.Invocation == nil {
		return append(why, "the log does not record how the run was started")
	}
	dir := st.Invocation.Dir
	if !filepath.IsAbs(dir) {
		why = append(why, fmt.Sprintf("the directory it ran in (%q) is not an absolute path", trust.Text(dir)))
	} else if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		why = append(why, fmt.Sprintf("the directory it ran in, %s, is not a directory here", trust.Text(dir)))
	}
	return why
}

// WithFlags adds flags to a command line, before a "--" that ends its
// flags.
func WithFlags(args []string, flags ...string) []string {
	i := slices.Index(args, "--")
	if i < 0 {
		return append(slices.Clone(args), flags...)
	}
	return slices.Concat(args[:i], flags, args[i:])
}

// Logged are the flags of a logged command line, parsed into fs by its
// protocol's own command, that the rule lets through (Take), written
// again as --name=value, and their values by name; why says what it
// refused.
func (r Rule) Logged(fs *pflag.FlagSet, protocol string) (flags []string, values map[string][]string, why []string) {
	values = map[string][]string{}
	fs.Visit(func(f *pflag.Flag) {
		keep, refused := r.Take(f.Name, protocol)
		if refused != "" {
			why = append(why, refused)
		}
		if !keep {
			return
		}
		vs := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			vs = sv.GetSlice()
		}
		values[f.Name] = vs
		for _, v := range vs {
			flags = append(flags, "--"+f.Name+"="+v)
		}
	})
	return flags, values, why
}
