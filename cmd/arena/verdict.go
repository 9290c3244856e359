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

// The verdict's own exit codes. 3 is the only code left between 0 and 4
// (1, 2 and 4 are shared), so reject and escalate take 5 and 6: a script
// or hook can tell every decision apart.
const (
	exitAccept   = exitOK
	exitImprove  = 3
	exitReject   = 5
	exitEscalate = 6
)

var verdictExits = runExits(
	exit{code: exitAccept, means: "accept", outcomes: []engine.OutcomeKind{verdict.OutcomeAccept}},
	exit{code: exitUsage, means: "usage error (bad flag, config, missing or unreadable work)"},
	exit{code: exitImprove, means: "improve: the work needs changes (a judge's scores said so, and it was final)", outcomes: []engine.OutcomeKind{verdict.OutcomeImprove}},
	aborted("aborted (no usable judge)"),
	exit{code: exitReject, means: "reject", outcomes: []engine.OutcomeKind{verdict.OutcomeReject}},
	exit{code: exitEscalate, means: "escalate: a human must decide (judges disagree, a judge failed, both said improve, or --sensitive)", outcomes: []engine.OutcomeKind{verdict.OutcomeEscalate}},
)

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
		name:    verdict.Name,
		command: "verdict",
		seating: verdict.Seating,
		exits:   verdictExits,
		resume: resume.Rule{Args: true,
			Flags: []string{"task-id", "task", "thorough", "sensitive", "log", "author",
				"quick-judge", "deep-judge", "tiebreaker", "quick-timeout", "deep-timeout", "tiebreaker-timeout"},
			Writes: []string{"log"}},
		build: (*app).verdictCmd,
		tool: tool{
			about: "Rubric quality gate for finished work (files or a diff): quick judge, then deep judge, then a tiebreaker, deciding accept, improve, reject or escalate. arena applies the thresholds to the parsed scores. The caller's own agent is kept out of the seats by default.",
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
			guard: mcpserver.Guard{Author: "author", Judges: []string{"quick_judge", "deep_judge", "tiebreaker"}},
		},
	}
}

func (a *app) verdictCmd(cf *commonFlags) *cobra.Command {
	f := &verdictFlags{judges: map[verdict.Mode]*string{}, timeouts: map[verdict.Mode]*string{}}
	cmd := &cobra.Command{
		Use:   "verdict [FILE... | -] --task-id ID",
		Short: "Judge finished work against a rubric: accept, improve, reject or escalate",
		Long: `verdict is a quality gate for finished work (files, or a diff on stdin). Judges
score it 1–5 on the three dimensions of quality of the KLS framework
(Krogstie, Lindland and Sindre's, from conceptual modelling): semantic
(accurate to the domain), pragmatic (enables the intended decision or
action) and syntactic (consistent and well-structured). Arena, not the model, applies
the thresholds to the scores: every score ≥ 3 and average ≥ 3.5 → accept;
any score < 2 → reject; otherwise improve.

The quick judge goes first: accept or reject is final, improve goes to the
deep judge, whose accept or reject is final and whose improve escalates to
a human. With --thorough both run in parallel; if they differ, the
tiebreaker (best a different provider) decides, unless it sides with
neither. At most three judges are asked. A judge that times out after one
retry, or whose reply is not valid JSON after one repair request,
escalates; --sensitive always escalates, with the verdicts still recorded.

Seats come from --quick-judge, --deep-judge and --tiebreaker, else the
config file (verdict: {quick: gemini, deep: claude, tiebreaker: codex}),
else the defender and challengers. --author keeps the agent that wrote the
work out of every seat the config or the defaults would give it.

Every judge's verdict, then the final decision, is appended as one JSON
line to the verdict log (--log, default verdicts/verdicts.jsonl in the log
directory); arena verdict --schema prints the records' JSON Schema. A
verdict leaves nothing in the work tree: unless a log directory was chosen
(--log-dir, debate_log_path), its logs go to $XDG_STATE_HOME/arena/verdict-logs
(~/.local/state/arena/verdict-logs). --brief prints one line, the decision
and the log, as the pre-push hook does (the whole run with
ARENA_VERDICT_VERBOSE=1).`,
		Example: `  arena verdict report.md --task-id issue-18 --task "document the API"
  git diff main... | arena verdict - --task-id "$(git branch --show-current)"
  arena verdict - --task-id issue-18 --thorough --json < change.diff
  arena verdict --install-hook     # judge every git push in this repository
  arena verdict --uninstall-hook   # stop: remove the hook arena wrote
  arena verdict --schema           # the verdict log's JSON Schema
  arena verdict --stats ~/.local/state/arena/verdict-logs/verdicts/verdicts.jsonl`,
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
	return exitCode(verdictExits.code(res.Result))
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
