package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
	"github.com/arenadebate/arena/engine/protocols"
	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/tui/plain"
)

// Exit codes, documented in docs/usage.md and in each command's --help.
// Every command shares these; each protocol adds its own between 0 and 4.
const (
	exitOK          = engine.ExitOK
	exitError       = engine.ExitError
	exitUsage       = engine.ExitUsage
	exitAborted     = engine.ExitAborted
	exitOverBudget  = engine.ExitOverBudget
	exitInterrupted = engine.ExitInterrupted
)

// usageError is an error in what the user typed or configured: exit 2.
// As with settings.Error, the sentence for the user (msg) is kept apart
// from the cause (err), so that a caller can still ask errors.Is(err,
// runlog.ErrNotALog) or errors.Is(err, fs.ErrNotExist) however the
// sentence is worded.
type usageError struct {
	msg string // what arena prints; "" means err's own text
	err error  // the cause, for errors.Is and errors.As; nil for none
}

func (e usageError) Error() string {
	if e.msg != "" || e.err == nil {
		return e.msg
	}
	return e.err.Error()
}

func (e usageError) Unwrap() error { return e.err }

// usagef is a usage error worded by format. Wrap a cause with %w, never
// %v: %v keeps only its text, and errors.Is can no longer find it.
func usagef(format string, args ...any) error {
	return usageError{err: fmt.Errorf(format, args...)}
}

// usageCause is a usage error whose sentence, worded by format, does not
// simply end with the cause's text (a shorter or friendlier account of
// it); the cause is kept whole for errors.Is and errors.As.
func usageCause(cause error, format string, args ...any) error {
	return usageError{msg: fmt.Sprintf(format, args...), err: cause}
}

// exitError carries an exit code out of a command that already reported.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

// app holds arena's streams and environment, so tests run it in-process.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	env            settings.Env
	agentEnv       []string // environment for agents; nil: this process's
	isTTY          func() bool
	// stdinRead is what the command read from stdin: a run's log records
	// it, so that arena resume can run the same request again.
	stdinRead *recorder
	// resume is set while arena resume runs a logged request again.
	resume *resumeRun
	// specs are the protocols (engine/protocols'; a test adds its own).
	specs []engine.Spec
	// requests are the requests the protocols' commands fill, by command.
	requests map[*cobra.Command]engine.Request
	// asked is what the run was asked with, for its log to record.
	asked engine.Invocation
	// settings are the latest loaded: a follow-up asked on the screen
	// finds its seat's agent there.
	settings *settings.Settings
	// internalError is set when a run ended on a bug of arena's (a
	// panic): whatever the protocol's own exit codes say, arena exits 1.
	internalError bool
	// reaper watches over what the command starts and makes (run.go).
	reaper *challengers.Reaper
	// seatNotes are what the seating said of the seats (seats one agent
	// or one vendor family holds, the author's family kept out, a judge
	// of its own family's work): warned, shown by the dry run, and said
	// in the run and its outcome (seats.go).
	seatNotes []string
	// startDir is the directory arena was started in: the files it names
	// are named from it (shown), though a resume goes on in its run's own.
	startDir string
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	return &app{
		// Warnings and errors quote file names, arguments and agents'
		// complaints: stderr carries no escape sequence of theirs.
		stdin: stdin, stdout: stdout, stderr: trust.Writer{W: stderr},
		env: settings.DefaultEnv(), specs: protocols.All(),
		isTTY: func() bool { return isTerminal(stdout) && isTerminal(stdin) },
	}
}

// shown is how arena names a file to the person: relative to the
// directory it was started in when beneath it, else absolute.
func (a *app) shown(path string) string { return plain.RelativeTo(a.startDir)(path) }

func isTerminal(x any) bool {
	f, ok := x.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (a *app) execute(args []string) int {
	if a.stdinRead == nil && a.stdin != nil {
		a.stdinRead = &recorder{r: a.stdin, max: inputs.MaxBytes + 1}
		a.stdin = a.stdinRead
	}
	if a.startDir == "" {
		a.startDir, _ = os.Getwd()
	}
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	var err error
	defer a.stopReaper()
	if pn := challengers.Catch(func() { err = root.Execute() }); pn != nil {
		fmt.Fprintf(a.stderr, "arena: internal error: %s\n%s\n", pn.Error(), pn.Stack)
		return exitError
	}
	if a.internalError {
		return exitError
	}
	var code exitCode
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &code):
		return int(code)
	}
	fmt.Fprintf(a.stderr, "arena: %v\n", err)
	if errors.Is(err, seating.ErrFamilies) {
		return engine.ExitFamilies
	}
	var se *settings.Error
	var ue usageError
	if errors.As(err, &se) || errors.As(err, &ue) || isCobraUsage(err) {
		return exitUsage
	}
	return exitError
}

// recorder keeps what is read through it, up to max bytes.
type recorder struct {
	r   io.Reader
	max int
	buf []byte
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if room := r.max - len(r.buf); room > 0 {
		r.buf = append(r.buf, p[:min(n, room)]...)
	}
	return n, err
}

// isCobraUsage recognises cobra's own flag and argument errors.
func isCobraUsage(err error) bool {
	var fe flagError
	return errors.As(err, &fe)
}

type flagError struct{ error }

// nearFlag is a flag of cmd that an unknown flag's name is part of, or
// that is part of it (--rounds for --max-rounds, --judge for --judges),
// or "".
func nearFlag(cmd *cobra.Command, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok || len(name) < 3 {
		return ""
	}
	near := ""
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if near == "" && !f.Hidden && (strings.Contains(f.Name, name) || strings.Contains(name, f.Name) && len(f.Name) >= 4) {
			near = f.Name
		}
	})
	return near
}

func (a *app) warn(format string, args ...any) {
	fmt.Fprintf(a.stderr, "arena: warning: "+format+"\n", args...)
}

// commonFlags are the settings' flags; each command binds only those it
// uses (settingsUse), so a flag it would ignore is a usage error, and its
// help says its own defaults.
type commonFlags struct {
	config, defender, timeout, logDir string
	challengers                       []string
	maxRounds                         int
	noLog                             bool
	maxCost, maxTokens                string
	maxCalls                          int
	minFamilies                       int
}

// settingsUse says which of the settings' flags a command takes.
type settingsUse uint

const (
	useConfig     settingsUse = 1 << iota // --config
	useSeats                              // --defender, --challengers
	useRounds                             // --max-rounds
	useTimeout                            // --timeout
	useLogDir                             // --log-dir
	useNoLog                              // --no-log
	useBudget                             // --max-cost, --max-calls, --max-tokens
	useFamilies                           // --min-families
	useOwnLogs                            // its logs go out of the work tree unless --log-dir says (verdict)
	usePersistent                         // its subcommands take them too (config init)
	useAsStarted                          // they change a run started before (resume): its own by default
)

// register binds the flags of use to cmd; rounds is what --max-rounds
// says, with its default.
func (f *commonFlags) register(cmd *cobra.Command, use settingsUse, rounds string) {
	fl := cmd.Flags()
	if use&usePersistent != 0 {
		fl = cmd.PersistentFlags()
	}
	if use&useConfig != 0 {
		fl.StringVar(&f.config, "config", "", "config file (default $XDG_CONFIG_HOME/arena/config.yaml)")
	}
	if use&useSeats != 0 {
		fl.StringVar(&f.defender, "defender", "", "agent that opens and defends (default claude)")
		fl.StringSliceVar(&f.challengers, "challengers", nil, "challenger agents, comma-separated (default: usable ones found by arena doctor)")
	}
	if use&useRounds != 0 {
		fl.IntVar(&f.maxRounds, "max-rounds", 0, rounds)
	}
	switch {
	case use&useTimeout != 0 && use&useAsStarted != 0:
		fl.StringVar(&f.timeout, "timeout", "", "timeout per agent call, e.g. 90s, 2m, or seconds (default: the run's)")
	case use&useTimeout != 0:
		fl.StringVar(&f.timeout, "timeout", "", "timeout per agent call, e.g. 90s, 2m, or seconds (default 120)")
	}
	switch {
	case use&useOwnLogs != 0:
		fl.StringVar(&f.logDir, "log-dir", "", "directory for the logs (default: verdict-logs in arena's state directory, ~/.local/state/arena, out of the work tree)")
	case use&useLogDir != 0:
		fl.StringVar(&f.logDir, "log-dir", "", "directory for debate logs (default ./debate-logs)")
	}
	if use&useNoLog != 0 {
		fl.BoolVar(&f.noLog, "no-log", false, "do not save a debate log")
	}
	if use&useBudget != 0 {
		fl.StringVar(&f.maxCost, "max-cost", "", "stop the run before a call once USD dollars are spent, e.g. 2 or 0.50 (0: no limit)")
		fl.IntVar(&f.maxCalls, "max-calls", 0, "stop the run before a call once N calls are made (0: no limit)")
		fl.StringVar(&f.maxTokens, "max-tokens", "", "stop the run before a call once N tokens are used, e.g. 200000 or 200k (0: no limit)")
	}
	if use&useFamilies != 0 {
		fl.IntVar(&f.minFamilies, "min-families", 0, "refuse the run, before any call, unless its deciding seats span N vendor families, the author's left out (0: any)")
	}
	inGroup(fl, groupSettings, "config", "defender", "challengers", "max-rounds", "timeout", "log-dir", "no-log", "max-cost", "max-calls", "max-tokens", "min-families")
}

// protocolUse are the settings' flags a protocol's command takes, and what
// its --max-rounds says.
func protocolUse(p engine.Spec) (settingsUse, string) {
	use := useConfig | useSeats | useLogDir | useNoLog | useBudget | useFamilies
	if p.Uses.Timeout {
		use |= useTimeout
	}
	if p.LogsOutOfTree {
		use |= useOwnLogs
	}
	rounds := ""
	if p.Uses.Rounds != "" {
		use |= useRounds
		def := p.Uses.RoundsDefault
		if def == 0 {
			def = settings.DefaultMaxRounds
		}
		rounds = fmt.Sprintf("%s (default %d)", p.Uses.Rounds, def)
	}
	return use, rounds
}

// settingsFlags turns the flags the user actually gave into settings.Flags.
func (f *commonFlags) settingsFlags(cmd *cobra.Command) settings.Flags {
	var sf settings.Flags
	changed := func(name string) bool { return cmd.Flags().Changed(name) }
	if changed("config") {
		sf.Config = &f.config
	}
	if changed("defender") {
		sf.Defender = &f.defender
	}
	if changed("challengers") {
		sf.Challengers = append([]string{}, f.challengers...)
	}
	if changed("max-rounds") {
		sf.MaxRounds = &f.maxRounds
	}
	if changed("timeout") {
		sf.Timeout = &f.timeout
	}
	if changed("log-dir") {
		sf.LogDir = &f.logDir
	}
	if changed("no-log") {
		sf.NoLog = &f.noLog
	}
	if changed("max-cost") {
		sf.MaxCost = &f.maxCost
	}
	if changed("max-calls") {
		sf.MaxCalls = &f.maxCalls
	}
	if changed("max-tokens") {
		sf.MaxTokens = &f.maxTokens
	}
	if changed("min-families") {
		sf.MinFamilies = &f.minFamilies
	}
	return sf
}

// loadSettings loads the effective settings and prints their warnings.
func (a *app) loadSettings(cmd *cobra.Command, f *commonFlags) (*settings.Settings, error) {
	return a.loadSettingsFlags(f.settingsFlags(cmd))
}

// loadSettingsFlags loads the effective settings with the flags sf, and
// prints their warnings.
func (a *app) loadSettingsFlags(sf settings.Flags) (*settings.Settings, error) {
	s, err := settings.Load(sf, a.env, a.seatingPlans()...)
	if err != nil {
		return nil, err
	}
	for _, w := range s.Warnings {
		a.warn("%s", w)
	}
	a.settings = s
	return s, nil
}
