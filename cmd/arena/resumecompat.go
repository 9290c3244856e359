package main

import (
	"fmt"
	"slices"

	"github.com/spf13/pflag"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// The compatibility reader: a log an older arena wrote records its run's
// command line (engine.Invocation's Args), not its request. arena resume
// reads it once, the way the protocol's command reads its flags, into the
// same typed request a newer log records, and keeps no more of it: a flag
// that is not the request's or a setting a run is asked with is refused,
// the front end's and the log's are the resume's own say, and --config is
// left out (issue 36 item 2: a log chooses no configuration to run, and no
// agent).

// askedFlags are the settings' flags a run records (engine.RunSettings).
var askedFlags = []string{"defender", "challengers", "max-rounds", "timeout", "max-cost", "max-calls", "max-tokens"}

// droppedFlags are a run's front end and log, which the resume decides
// for itself.
var droppedFlags = []string{"no-tui", "json", "brief", "moderate", "log-dir", "no-log"}

// compatRequest reads the command line an older log records into its
// protocol's request, the settings it was asked with, and what of it is
// left out.
func (a *app) compatRequest(rr *resumeRun) (engine.Request, engine.RunSettings, []string, error) {
	var asked engine.RunSettings
	raw := rr.start.Invocation.Args
	if len(raw) == 0 {
		return nil, asked, nil, usagef("cannot resume %s: the log does not record how the run was started (it was written by an older arena); start it again", rr.shown)
	}
	root := a.rootCmd()
	cmd, rest, err := root.Find(raw)
	if err != nil {
		return nil, asked, nil, rr.refusal([]string{fmt.Sprintf("it is not a command of arena's (%v)", err)})
	}
	if !rr.protocol.runBy(cmd) {
		by := fmt.Sprintf("%q", "arena "+rr.protocol.Command)
		if rr.protocol.Root {
			by = fmt.Sprintf("%q or %s", "arena", by)
		}
		return nil, asked, nil, rr.refusal([]string{fmt.Sprintf("it runs %q, and the run this log records (%s) is started by %s only", trust.Text(cmd.CommandPath()), rr.start.Protocol, by)})
	}
	if err := cmd.ParseFlags(rest); err != nil {
		return nil, asked, nil, rr.refusal([]string{"its flags do not parse: " + trust.Text(err.Error())})
	}
	req := a.requests[cmd]
	var why, left []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		switch {
		case requestFlag(req, f.Name), slices.Contains(askedFlags, f.Name), slices.Contains(droppedFlags, f.Name):
		case f.Name == "config":
			left = append(left, "--config="+f.Value.String()+": a log chooses no configuration; the run goes on with yours")
		default:
			why = append(why, fmt.Sprintf("--%s: not a flag a %s run records (%s)", f.Name, rr.start.Protocol, refusedWhy(f.Name)))
		}
	})
	if len(why) > 0 {
		return nil, asked, nil, rr.refusal(why)
	}
	requestArgs(req, cmd.Flags().Args())
	return req, askedOf(cmd.Flags()), left, nil
}

// requestFlag says whether name is one of req's flags.
func requestFlag(req engine.Request, name string) bool {
	return slices.ContainsFunc(engine.FieldsOf(req), func(f engine.Field) bool { return f.Flag == name })
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

// askedOf are the settings fs's flags gave a run.
func askedOf(fs *pflag.FlagSet) engine.RunSettings {
	var rs engine.RunSettings
	fs.Visit(func(f *pflag.Flag) {
		v := f.Value.String()
		switch f.Name {
		case "defender":
			rs.Defender = v
		case "challengers":
			rs.Challengers, _ = fs.GetStringSlice(f.Name)
		case "max-rounds":
			n, _ := fs.GetInt(f.Name)
			rs.MaxRounds = &n
		case "timeout":
			rs.Timeout = v
		case "max-cost":
			rs.MaxCost = v
		case "max-calls":
			n, _ := fs.GetInt(f.Name)
			rs.MaxCalls = &n
		case "max-tokens":
			rs.MaxTokens = v
		}
	})
	return rs
}
