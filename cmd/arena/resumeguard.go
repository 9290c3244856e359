package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// A log is data, never a command line. The invocation a log records is
// parsed by the protocol's own command, every flag checked against what
// that protocol's runs record, and the command rebuilt from the parsed
// values: a log cannot name another command (a hook installer, a resume
// of itself), a flag its protocol does not take, or a file its run did
// not attach. What is left is shown before it runs (the files it reads,
// where it writes, the seats) and run only when the log was signed by
// this user's arena (logkey.go), or the person says so.

// resumeRule is what a protocol's command may be started again with.
type resumeRule struct {
	flags  []string // its own flags a run may record
	reads  []string // flags naming files it reads
	args   bool     // its arguments name the files and directories it reads
	writes []string // flags naming where it writes
	runs   map[string]string
	// spec: its first argument is the file the run attached first (rank's
	// specification), and must name it again.
	spec bool
	// again is the command line that starts a run again, from its log's
	// start event; nil: the one the log records (resumeByInvocation).
	again func(engine.DebateStarted) ([]string, error)
}

// commonResumeFlags are the settings every protocol's command takes.
var commonResumeFlags = []string{"defender", "challengers", "max-rounds", "timeout", "config", "max-cost", "max-calls", "max-tokens"}

// droppedResumeFlags are a run's front end and log, which the resume
// decides for itself: they are left out of the rebuilt command.
var droppedResumeFlags = []string{"no-tui", "json", "moderate", "log-dir", "no-log"}

// resumePlan is what a resume will run, as a person checks it.
type resumePlan struct {
	args   []string // the command, rebuilt
	dir    string
	reads  []string
	writes []string
	runs   []string
	stdin  int
	signed bool
}

// refusal is a log's command line refused: exit 2, nothing run.
func (rr *resumeRun) refusal(why []string) error {
	return usagef("cannot resume %s: the command line its log records is refused (nothing was run):\n  - %s",
		rr.path, strings.Join(why, "\n  - "))
}

// planResume checks the command line raw (from the log) against what
// the run's protocol can record, and rebuilds it.
func (a *app) planResume(rr *resumeRun, raw []string) (*resumePlan, error) {
	st, rule := rr.start, rr.protocol.resume
	root := a.rootCmd()
	cmd, rest, err := root.Find(raw)
	if err != nil {
		return nil, rr.refusal([]string{fmt.Sprintf("it is not a command of arena's (%v)", err)})
	}
	if !rr.protocol.runBy(cmd) {
		by := fmt.Sprintf("%q", "arena "+rr.protocol.command)
		if rr.protocol.root {
			by = fmt.Sprintf("%q or %s", "arena", by)
		}
		return nil, rr.refusal([]string{fmt.Sprintf("it runs %q, and the run this log records (%s) is started by %s only", trust.Text(cmd.CommandPath()), st.Protocol, by)})
	}
	if err := cmd.ParseFlags(rest); err != nil {
		return nil, rr.refusal([]string{"its flags do not parse: " + trust.Text(err.Error())})
	}
	flags, values, why := rule.loggedFlags(cmd, st.Protocol)
	pos := cmd.Flags().Args()
	why = append(why, rule.check(st, values, pos)...)
	inv := st.Invocation
	if len(why) > 0 {
		return nil, rr.refusal(why)
	}
	plan := &resumePlan{dir: inv.Dir, stdin: len(inv.Stdin), signed: a.signedHere(st.Protocol, *inv)}
	if cmd != root {
		plan.args = append(plan.args, cmd.Name())
	}
	plan.args = append(append(plan.args, flags...), "--")
	plan.args = append(plan.args, pos...)
	plan.touches(rule, inv.Dir, values, pos)
	return plan, nil
}

// loggedFlags are the flags of a logged command line the rule lets
// through, written again as --name=value, and their values by name; why
// says what it refused.
func (rule resumeRule) loggedFlags(cmd *cobra.Command, protocol string) (flags []string, values map[string][]string, why []string) {
	allowed := slices.Concat(commonResumeFlags, rule.flags)
	values = map[string][]string{}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		switch {
		case slices.Contains(droppedResumeFlags, f.Name):
			return
		case !slices.Contains(allowed, f.Name):
			why = append(why, fmt.Sprintf("--%s: not a flag a %s run records (%s)", f.Name, protocol, refusedFlagWhy(f.Name)))
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

// check says what in a logged command line does not match the run its
// log records: a file the run did not attach, another specification, a
// directory that is not one here.
func (rule resumeRule) check(st engine.DebateStarted, values map[string][]string, pos []string) []string {
	var why []string
	// What the run attached is in its start event: a file the command
	// line names that the run did not attach was put there by a hand.
	attached := map[string]bool{}
	for _, c := range st.Context {
		attached[c.Name] = true
	}
	for _, name := range []string{"context"} {
		for _, v := range values[name] {
			if !attached[v] {
				why = append(why, fmt.Sprintf("--%s %s: the run this log records attached no such file", name, trust.Text(v)))
			}
		}
	}
	if rule.spec && (len(pos) == 0 || len(st.Context) == 0 || st.Context[0].Name != pos[0]) {
		why = append(why, "the specification it names is not the one the run judged against")
	}
	inv := st.Invocation
	if !filepath.IsAbs(inv.Dir) {
		why = append(why, fmt.Sprintf("the directory it ran in (%q) is not an absolute path", trust.Text(inv.Dir)))
	} else if fi, err := os.Stat(inv.Dir); err != nil || !fi.IsDir() {
		why = append(why, fmt.Sprintf("the directory it ran in, %s, is not a directory here", trust.Text(inv.Dir)))
	}
	return why
}

// touches lists what the rebuilt command reads, writes and runs, paths
// taken from dir, the directory it runs in.
func (p *resumePlan) touches(rule resumeRule, dir string, values map[string][]string, pos []string) {
	at := func(path string) string {
		if path == "-" {
			return "stdin"
		}
		if !filepath.IsAbs(path) {
			return filepath.Join(dir, path)
		}
		return path
	}
	for _, name := range append([]string{"config"}, rule.reads...) {
		for _, v := range values[name] {
			p.reads = append(p.reads, at(v))
		}
	}
	if rule.args {
		for _, path := range pos {
			p.reads = append(p.reads, at(path))
		}
	}
	for _, name := range rule.writes {
		for _, v := range values[name] {
			p.writes = append(p.writes, at(v))
		}
	}
	for name, what := range rule.runs {
		if v := values[name]; len(v) > 0 && v[0] == "true" {
			p.runs = append(p.runs, what)
		}
	}
}

// refusedFlagWhy says why a flag is never taken from a log.
func refusedFlagWhy(name string) string {
	switch name {
	case "install-hook", "force":
		return "a resume never installs a hook"
	case "help", "version", "schema", "stats", "dry-run":
		return "it does not start a run"
	case "include-secrets":
		return "a log cannot ask for secrets to be sent; give --include-secrets to arena resume yourself"
	}
	return "a log cannot add it"
}

// show writes the plan for a person to read.
func (p *resumePlan) show(rr *resumeRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "arena resume %s\n", rr.path)
	fmt.Fprintf(&b, "  the run:    %s: %s\n", rr.start.Protocol, engine.OneLine(trust.Text(rr.start.Topic), 70))
	fmt.Fprintf(&b, "  runs:       arena %s\n", quoteArgs(p.args))
	fmt.Fprintf(&b, "  in:         %s\n", trust.Text(p.dir))
	var seats []string
	for _, s := range rr.start.Seats {
		agent := s.Agent
		if a, ok := rr.swap[s.Name]; ok {
			agent = a.Name + ", was " + s.Agent
		} else if a, ok := rr.swap[s.Agent]; ok {
			agent = a.Name + ", was " + s.Agent
		}
		seats = append(seats, s.Name+" ("+agent+")")
	}
	fmt.Fprintf(&b, "  seats:      %s\n", trust.Text(strings.Join(seats, ", ")))
	if len(p.reads) > 0 {
		fmt.Fprintf(&b, "  reads:      %s (sent to the seats)\n", trust.Text(strings.Join(p.reads, ", ")))
	}
	if p.stdin > 0 {
		fmt.Fprintf(&b, "  stdin:      %d bytes the log recorded\n", p.stdin)
	}
	if len(p.writes) > 0 {
		fmt.Fprintf(&b, "  writes to:  %s\n", trust.Text(strings.Join(p.writes, ", ")))
	}
	for _, r := range p.runs {
		fmt.Fprintf(&b, "  runs:       %s\n", r)
	}
	if p.signed {
		b.WriteString("  the log was written by arena on this machine (its signature holds)\n")
	} else {
		b.WriteString("  the log was NOT written by arena on this machine, or was changed since: check the above\n")
	}
	return b.String()
}

func quoteArgs(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\$`;&|<>*?()[]{}!#~") || strings.ContainsFunc(a, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			out[i] = strconv.Quote(a)
		}
	}
	return trust.Text(strings.Join(out, " "))
}

// confirm decides whether the plan runs: with --yes, or when the log was
// signed here and no one is at the terminal; on a terminal the person
// answers.
func (a *app) confirmResume(rr *resumeRun, p *resumePlan, yes bool) error {
	switch {
	case yes:
		if !p.signed {
			fmt.Fprint(a.stderr, p.show(rr))
		}
		return nil
	case a.isTTY():
		fmt.Fprint(a.stderr, p.show(rr))
		prompt, def := "Resume it? [Y/n] ", true
		if !p.signed {
			prompt, def = "Resume it anyway? [y/N] ", false
		}
		fmt.Fprint(a.stderr, prompt)
		answer, _ := bufio.NewReader(a.stdin).ReadString('\n')
		switch strings.ToLower(strings.TrimSpace(answer)) {
		case "y", "yes":
			return nil
		case "":
			if def {
				return nil
			}
		}
		return exitCode(exitOK)
	case p.signed:
		return nil
	}
	return usagef("cannot resume %s: the log was not written by arena on this machine (its command line carries no valid signature of this user's), so nothing was run; here is what resuming it would do:\n%sresume it with --yes if that is what you want", rr.path, p.show(rr))
}
