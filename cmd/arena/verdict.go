package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/mcpserver"
	"github.com/arenadebate/arena/engine/resume"
	"github.com/arenadebate/arena/engine/verdict"
	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/tui/plain"
)

// arena verdict: the rubric quality gate of engine/verdict, its JSONL
// verdict log, its schema, its stats and its pre-push hook.

var verdictExits = verdict.Spec.AllExits()

type verdictFlags struct {
	noTUI, json, brief  bool
	moderate            moderateFile
	taskID, task        string
	thorough, sensitive bool
	logPath             string
	judges              map[verdict.Mode]*string
	timeouts            map[verdict.Mode]*string
	author              string
	installHook, force  bool
	uninstallHook       bool
	schema              bool
	stats               string
	includeSecrets      bool
	dryRun              bool
}

func verdictProtocol() protocol {
	return protocol{
		Spec: verdict.Spec,
		resume: resume.Rule{Args: true,
			Flags: []string{"task-id", "task", "thorough", "sensitive", "log", "author",
				"quick-judge", "deep-judge", "tiebreaker", "quick-timeout", "deep-timeout", "tiebreaker-timeout"},
			Writes: []string{"log"}},
		build: (*app).verdictCmd,
		tool: tool{
			inputs: []mcpserver.Param{
				{Name: "files", About: "the files of the work to judge", Type: mcpserver.Repeated, Place: mcpserver.AsArgs},
				{Name: "work", About: "the work as text (a diff, a report), instead of files", Place: mcpserver.AsStdinArg},
			},
			flags: []mcpserver.FlagInput{{Flag: "task-id", Required: true}, {Flag: "task"}, {Flag: "thorough"}, {Flag: "sensitive"},
				{Flag: "quick-judge"}, {Flag: "deep-judge"}, {Flag: "tiebreaker"},
				{Flag: "author", About: "the agent that wrote the work: kept out of every seat it would hold (default: the calling agent, when it is one of arena's agents)"},
				{Flag: "quick-timeout"}, {Flag: "deep-timeout"}},
			// --json: its stdout is the final record alone, kept for the outcome.
			fixed: []string{"--json"},
		},
	}
}

func (a *app) verdictCmd(cf *commonFlags) *cobra.Command {
	f := &verdictFlags{judges: map[verdict.Mode]*string{}, timeouts: map[verdict.Mode]*string{}}
	h := verdict.Spec.Help
	cmd := &cobra.Command{
		Use: h.Use, Short: h.Short, Long: h.Long, Example: h.Example,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return a.runVerdict(cmd, cf, f, args) },
	}
	f.register(cmd)
	return cmd
}

func (f *verdictFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.taskID, "task-id", "", "what the work is for, as the log records it (an issue, a branch)")
	fl.StringVar(&f.task, "task", "", "what the work had to do, for the judges")
	fl.BoolVar(&f.thorough, "thorough", false, "ask the quick and deep judges in parallel, and the tiebreaker when they differ")
	fl.BoolVar(&f.sensitive, "sensitive", false, "security- or compliance-critical work: always escalate to a human")
	fl.StringVar(&f.logPath, "log", "", "the verdict log to append to (default verdicts/verdicts.jsonl in the log directory)")
	fl.BoolVar(&f.noTUI, "no-tui", false, "print the run as plain text instead of the live screen")
	fl.BoolVar(&f.json, "json", false, "print only the final record, as one JSON object")
	fl.BoolVar(&f.brief, "brief", false, "print one line: the decision, and the log's path (what the pre-push hook shows)")
	fl.Var(&f.moderate, "moderate", "read moderator's notes for every seat from FILE (or a fifo), a line each, as they are written")
	fl.BoolVar(&f.includeSecrets, "include-secrets", false, "send work files that look like secrets (.env, keys, tokens) to the judges anyway")
	fl.BoolVar(&f.dryRun, "dry-run", false, "show what each judge would receive, and call none")
	for _, m := range []verdict.Mode{verdict.Quick, verdict.Deep, verdict.Tiebreaker} {
		f.judges[m] = fl.String(verdict.JudgeFlag(m), "", fmt.Sprintf("agent for the %s judge's seat", m))
		f.timeouts[m] = fl.String(string(m)+"-timeout", "", fmt.Sprintf("the %s judge's timeout per call (default %s)", m, verdict.Timeouts[m]))
	}
	fl.StringVar(&f.author, "author", "", "the agent that wrote the work: kept out of every seat it would hold")
	fl.BoolVar(&f.installHook, "install-hook", false, "write a git pre-push hook that judges what is pushed")
	fl.BoolVar(&f.force, "force", false, "with --install-hook: replace a hook arena did not write (it is backed up)")
	fl.BoolVar(&f.uninstallHook, "uninstall-hook", false, "remove the pre-push hook arena wrote (never another), putting back the one it replaced")
	fl.BoolVar(&f.schema, "schema", false, "print the verdict log records' JSON Schema")
	fl.StringVar(&f.stats, "stats", "", "summarise a verdict log: verdicts per model, quick/deep agreement, escalations")
}

func (a *app) runVerdict(cmd *cobra.Command, cf *commonFlags, f *verdictFlags, args []string) error {
	if err := f.checkModes(cmd, args); err != nil {
		return err
	}
	switch {
	case f.schema:
		_, err := a.stdout.Write(verdict.Schema())
		return err
	case f.stats != "":
		return a.verdictStats(f)
	case f.installHook:
		return a.installHook(f.force)
	case f.uninstallHook:
		return a.uninstallHook()
	}
	f.taskID, f.task = trust.Text(f.taskID), trust.Text(f.task) // shown and saved: no escapes of an argument
	work, err := a.readWork(args, f.includeSecrets)
	if err != nil {
		return err
	}
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return err
	}
	cfg, err := a.verdictConfig(cmd, s, f, work)
	if err != nil {
		return err
	}
	if f.dryRun {
		return a.showManifest(verdict.New(cfg), f.json)
	}
	return a.judgeWork(s, f, cfg)
}

// judgeWork runs the verdict of cfg, appending its records to the verdict
// log, and exits with the code of its decision.
func (a *app) judgeWork(s *settings.Settings, f *verdictFlags, cfg verdict.Config) error {
	s.DebateLogPath = s.VerdictLogDir(a.env) // out of the work tree
	vlog, err := verdict.LogPath(f.logPath, s.DebateLogPath, s.SaveDebateLogs)
	if err != nil {
		return usageCause(err, "cannot append to the verdict log %v (choose another with --log PATH)", err)
	}
	logw, err := a.openLog(s, "verdict "+f.taskID)
	if err != nil {
		return err
	}
	logPath := ""
	if logw != nil {
		logPath = logw.Path()
	}
	cfg.ID = verdict.RunID(logPath, f.taskID)
	p := verdict.New(cfg)
	sink := verdict.NewLogSink(vlog, p)
	if rr := a.resume; rr != nil {
		sink.Resuming(rr.hist.Resumes)
	}
	front, out := a, outputFlags{noTUI: f.noTUI, moderate: f.moderate}
	if f.json || f.brief {
		quiet := *a
		quiet.stdout = io.Discard
		front, out = &quiet, outputFlags{noTUI: true, moderate: f.moderate}
	}
	res := front.runProtocol(verdict.WithLog(p, sink), logw, out)
	if err := sink.Err(); err != nil {
		a.warn("%v", err)
	}
	switch {
	case f.json:
		b, _ := json.Marshal(sink.Final())
		fmt.Fprintf(a.stdout, "%s\n", b)
	case f.brief:
		fmt.Fprintln(trust.Writer{W: a.stdout}, plain.BriefLine(res, a.env.Home))
	}
	return exitCode(verdictExits.Code(res.Result))
}

// checkModes refuses flags that do not go together.
func (f *verdictFlags) checkModes(cmd *cobra.Command, args []string) error {
	var modes []string
	for _, n := range []string{"schema", "stats", "install-hook", "uninstall-hook"} {
		if cmd.Flags().Changed(n) {
			modes = append(modes, "--"+n)
		}
	}
	return usageOf(verdict.CheckModes(modes, args, f.force, f.installHook, f.taskID))
}

// verdictConfig seats the judges, keeping the author out.
func (a *app) verdictConfig(cmd *cobra.Command, s *settings.Settings, f *verdictFlags, work []engine.Doc) (verdict.Config, error) {
	req := verdict.Request{TaskID: f.taskID, Task: f.task, Work: work, Thorough: f.thorough, Sensitive: f.sensitive,
		Author: f.author, Named: map[verdict.Mode]string{}, Timeouts: map[verdict.Mode]string{}, TiebreakerGiven: cmd.Flags().Changed("tiebreaker")}
	for m := range f.judges {
		req.Named[m], req.Timeouts[m] = *f.judges[m], *f.timeouts[m]
	}
	cfg, notes, err := verdict.Configure(roster(s), req, func(msg string) { a.warn("%s", msg) })
	a.noteSeats(notes...)
	for _, n := range cfg.Notes {
		a.warn("%s", n)
	}
	return cfg, usageOf(err)
}

func (a *app) verdictStats(f *verdictFlags) error {
	st, err := verdict.StatsOf(f.stats)
	if err != nil {
		return usageOf(err)
	}
	if f.json {
		b, _ := json.Marshal(st)
		fmt.Fprintf(a.stdout, "%s\n", b)
		return nil
	}
	fmt.Fprint(trust.Writer{W: a.stdout}, st.Text())
	return nil
}
