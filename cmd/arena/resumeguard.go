package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine/resume"
)

// arena resume's checks of the command line a log records are the
// resume policy's (engine/resume); here they meet cobra, which parses it
// as the protocol's own command would.

// refusal is a log's command line refused: exit 2, nothing run.
func (rr *resumeRun) refusal(why []string) error {
	return usagef("cannot resume %s: the command line its log records is refused (nothing was run):\n  - %s",
		rr.path, strings.Join(why, "\n  - "))
}

// planResume checks the command line raw (from the log) against what
// the run's protocol can record, and rebuilds it.
func (a *app) planResume(rr *resumeRun, raw []string) (*resume.Plan, error) {
	st, rule := rr.start, rr.protocol.resume
	root := a.rootCmd()
	cmd, rest, err := root.Find(raw)
	if err != nil {
		return nil, rr.refusal([]string{fmt.Sprintf("it is not a command of arena's (%v)", err)})
	}
	if !rr.protocol.runBy(cmd) {
		by := fmt.Sprintf("%q", "arena "+rr.protocol.Command)
		if rr.protocol.Root {
			by = fmt.Sprintf("%q or %s", "arena", by)
		}
		return nil, rr.refusal([]string{fmt.Sprintf("it runs %q, and the run this log records (%s) is started by %s only", trust.Text(cmd.CommandPath()), st.Protocol, by)})
	}
	if err := cmd.ParseFlags(rest); err != nil {
		return nil, rr.refusal([]string{"its flags do not parse: " + trust.Text(err.Error())})
	}
	flags, values, why := rule.Logged(cmd.Flags(), st.Protocol)
	pos := cmd.Flags().Args()
	why = append(why, rule.Check(st, values, pos)...)
	inv := st.Invocation
	if len(why) > 0 {
		return nil, rr.refusal(why)
	}
	plan := &resume.Plan{Dir: inv.Dir, Stdin: len(inv.Stdin), Signed: a.signedHere(st.Protocol, *inv)}
	if cmd != root {
		plan.Args = append(plan.Args, cmd.Name())
	}
	plan.Args = append(append(plan.Args, flags...), "--")
	plan.Args = append(plan.Args, pos...)
	plan.Touches(rule, inv.Dir, values, pos)
	return plan, nil
}

// confirm decides whether the plan runs: with --yes, or when the log was
// signed here and no one is at the terminal; on a terminal the person
// answers.
func (a *app) confirmResume(rr *resumeRun, p *resume.Plan, yes bool) error {
	switch {
	case yes:
		if !p.Signed {
			fmt.Fprint(a.stderr, p.Show(rr.path, rr.start, rr.swapped()))
		}
		return nil
	case a.isTTY():
		fmt.Fprint(a.stderr, p.Show(rr.path, rr.start, rr.swapped()))
		prompt, def := "Resume it? [Y/n] ", true
		if !p.Signed {
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
	case p.Signed:
		return nil
	}
	return usagef("cannot resume %s: the log was not written by arena on this machine (its command line carries no valid signature of this user's), so nothing was run; here is what resuming it would do:\n%sresume it with --yes if that is what you want", rr.path, p.Show(rr.path, rr.start, rr.swapped()))
}

// swapped is the seats' new agents by name, as the plan shows them.
func (rr *resumeRun) swapped() map[string]string {
	out := map[string]string{}
	for seat, ag := range rr.swap {
		out[seat] = ag.Name
	}
	return out
}
