package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/resume"
)

// arena resume's checks of the request a log records are the resume
// policy's (engine/resume); here the request is read back into its
// protocol's own type, and shown as the command a person would type.

// refusal is a log's request refused: exit 2, nothing run.
func (rr *resumeRun) refusal(why []string) error {
	return usagef("cannot resume %s: the request its log records is refused (nothing was run):\n  - %s",
		rr.shown, strings.Join(why, "\n  - "))
}

// loggedRequest is the request the log records, read into its protocol's
// own Request type (nothing but its fields: an unknown one is refused),
// and the settings it was asked with; an older log's command line goes
// through the compatibility reader (compatRequest), which also says what
// of it is left out.
func (a *app) loggedRequest(rr *resumeRun) (engine.Request, engine.RunSettings, []string, error) {
	inv := rr.start.Invocation
	if inv.Request == nil {
		return a.compatRequest(rr)
	}
	req, err := decodeRequest(rr.protocol, inv.Request)
	if err != nil {
		return nil, engine.RunSettings{}, nil, rr.refusal([]string{err.Error()})
	}
	var asked engine.RunSettings
	if inv.Settings != nil {
		asked = *inv.Settings
	}
	return req, asked, nil, nil
}

// planResume checks the request against what the run recorded, and
// says what resuming it will do.
func (a *app) planResume(rr *resumeRun, req engine.Request, asked engine.RunSettings, left []string) (*resume.Plan, error) {
	st, rule := rr.start, rr.protocol.Resume
	if why := resume.Check(rule, st, req); len(why) > 0 {
		return nil, rr.refusal(why)
	}
	inv := st.Invocation
	plan := &resume.Plan{Dir: inv.Dir, Stdin: len(inv.Stdin), Signed: a.signedHere(st.Protocol, *inv), Left: left,
		Args: commandLine(rr.protocol.Spec, req, asked)}
	plan.Touches(rule, inv.Dir, req)
	return plan, nil
}

// confirmResume shows the plan, the log it resumes first, and decides
// whether it runs: with --yes, or when the log was signed here and no one
// is at the terminal; on a terminal the person answers. Headless, the plan
// is shown all the same, before the run (issue 40, item 12: a headless
// resume named neither the log it picked nor what it would run).
func (a *app) confirmResume(rr *resumeRun, p *resume.Plan, yes bool) error {
	p.Path = a.shown
	plan := p.Show(rr.shown, rr.start, rr.swapped())
	switch {
	case yes, !a.isTTY() && p.Signed:
		fmt.Fprint(a.stderr, plan)
		return nil
	case a.isTTY():
		fmt.Fprint(a.stderr, plan)
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
	}
	return usagef("cannot resume %s: the log was not written by arena on this machine (its command line carries no valid signature of this user's), so nothing was run; here is what resuming it would do:\n%sresume it with --yes if that is what you want", rr.shown, plan)
}

// swapped is the seats' new agents by name, as the plan shows them.
func (rr *resumeRun) swapped() map[string]string {
	out := map[string]string{}
	for seat, ag := range rr.swap {
		out[seat] = ag.Name
	}
	return out
}
