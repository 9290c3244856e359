// Package settings works out arena's effective settings: built-in defaults,
// then the debate plugin's ~/.claude/debate.local.md, then arena's own
// config file, then command-line flags, later layers winning. Every value
// remembers where it came from, so `arena config` can explain it and every
// error can point at the file line or flag that caused it.
package settings

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
)

// Limits and defaults. The defaults match the debate plugin's, so a user
// moving from it sees the same behaviour.
const (
	DefaultMaxRounds     = 5
	MaxRoundsLimit       = 20 // more rounds than this is almost surely a typo
	DefaultTimeoutPerCLI = 120 * time.Second
	DefaultDebateLogPath = "./debate-logs"
	DefaultDefender      = "claude"
)

// Settings are the effective settings of one arena run.
type Settings struct {
	MaxRounds                 int
	TimeoutPerCLI             time.Duration
	SaveDebateLogs            bool
	DebateLogPath             string // "~" expanded; a relative path is relative to the working directory
	SkepticalOfEarlyAgreement bool
	OutputCap                 int64 // default per-call output cap for agents that set none
	// ShadowEscalationGate turns on the learned escalation gate's report
	// in arena stats (shadow mode: it decides nothing). Off by default.
	ShadowEscalationGate bool

	// MinFamilies is how many vendor families a run's deciding seats
	// must span, once the author's are kept out (families.go; 0: no
	// minimum).
	MinFamilies int

	// The run's budget (budget.go): 0 is no limit.
	MaxCostUSD float64
	MaxCalls   int
	MaxTokens  int64

	Defender    string
	Challengers []string // never holds the defender

	// Agents holds every built-in plus the custom agents, with overrides
	// applied and Timeout and OutputCap filled in, each passing Validate.
	Agents map[string]challengers.Agent

	Warnings []string // non-fatal problems, each naming its file and line
	// NoChallengers, when no challenger was named and none was found,
	// says so ("challengers: none usable (found on PATH); run arena
	// doctor, …"). It is not among the Warnings: only a command that
	// needs challengers (a debate) says it.
	NoChallengers string
	Files         []string // files whose settings were applied, in order
	// Looked lists every file the settings were looked for in, in order,
	// found or not: arena config names each path it read or did not find
	// (issue 32, point 10).
	Looked []Looked

	src       map[string]origin
	agents    map[string]*agentMeta
	protocols map[string]map[string]protocolSeat // protocol → seat key → agents (seats.go)
	values    map[string]protocolValue           // "rank.test_command" → its value
}

// Looked is a file the settings were looked for in.
type Looked struct {
	Path  string
	What  string // "the debate plugin's settings", "arena's config", ...
	Found bool
}

// agentMeta records where an agent's definition came from.
type agentMeta struct {
	builtin bool
	def     origin // the agents: entry that defines or overrides it; zero if none
	timeout string // why Timeout has its value when the agent set none
	billing string // why Billing has its value when the agent set none
}

// Flags are the command-line settings. A nil field was not given, which
// keeps "not given" apart from a zero value such as --max-rounds 0.
type Flags struct {
	Config      *string  // --config FILE: replaces the default config file, which must then exist
	Defender    *string  // --defender NAME
	Challengers []string // --challengers a,b,c; nil: not given. Elements may hold commas.
	MaxRounds   *int     // --max-rounds N
	Timeout     *string  // --timeout: "90s", "2m" or seconds; also overrides every agent's timeout
	LogDir      *string  // --log-dir DIR
	NoLog       *bool    // --no-log
	MaxCost     *string  // --max-cost USD
	MaxCalls    *int     // --max-calls N
	MaxTokens   *string  // --max-tokens N
	MinFamilies *int     // --min-families N
}

// Env is everything the loader reads from the outside world, so tests can
// supply their own. A zero field means "unknown": the file under it is not
// read, and a nil LookPath finds nothing.
type Env struct {
	Home       string // home directory: ~ expansion and ~/.claude/debate.local.md
	ConfigHome string // $XDG_CONFIG_HOME; "" means Home/.config
	CacheDir   string // user cache directory, where arena doctor records usable challengers
	LookPath   func(file string) (string, error)
	// Getenv reads this process's environment, for the guess of how an
	// agent is billed (nil: nothing is set).
	Getenv func(string) string
}

// DefaultEnv reads the real environment.
func DefaultEnv() Env {
	home, _ := os.UserHomeDir() // unknown home: files under it are skipped
	cfg := os.Getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(cfg) {
		cfg = "" // the XDG spec says to ignore a relative value
	}
	cache, _ := os.UserCacheDir()
	return Env{Home: home, ConfigHome: cfg, CacheDir: cache, LookPath: exec.LookPath, Getenv: os.Getenv}
}

// CompatPath is the debate plugin's settings file, read before arena's own.
func CompatPath(env Env) string {
	if env.Home == "" {
		return ""
	}
	return filepath.Join(env.Home, ".claude", "debate.local.md")
}

// ConfigPath is arena's default config file ("" when no home is known).
func ConfigPath(env Env) string {
	dir := env.ConfigHome
	if dir == "" {
		if env.Home == "" {
			return ""
		}
		dir = filepath.Join(env.Home, ".config")
	}
	return filepath.Join(dir, "arena", "config.yaml")
}

// Load computes the effective settings. plans are the protocols' seating
// plans: the config file's section of each is read and checked by it (a
// section of a protocol not given is an unknown key). Its errors are
// *Error values.
func Load(flags Flags, env Env, plans ...seating.Plan) (*Settings, error) {
	l := &loader{s: defaults(), env: env, flags: flags, plans: plans}
	for _, step := range []func() error{l.loadCompat, l.loadConfig, l.applyFlags, l.finish} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return l.s, nil
}

// Source says where the value of key came from: "default", "file:line",
// "flag --max-rounds", "doctor cache PATH", "found on PATH". Keys are the
// file keys ("max_rounds") and "agents.NAME"; an unknown key gives "".
func (s *Settings) Source(key string) string {
	if name, ok := agentKey(key); ok {
		return s.agentSource(name)
	}
	o, ok := s.src[key]
	if !ok {
		return ""
	}
	return o.String()
}

func (s *Settings) agentSource(name string) string {
	m, ok := s.agents[name]
	switch {
	case !ok:
		return ""
	case m.builtin && m.def.isZero():
		return "built-in"
	case m.builtin:
		return "built-in, overridden at " + m.def.String()
	}
	return m.def.String()
}

// agentNames lists built-ins first, then custom agents, each sorted: the
// order of error messages and `arena config`.
func (s *Settings) agentNames() []string {
	var builtins, custom []string
	for name, m := range s.agents {
		if m.builtin {
			builtins = append(builtins, name)
		} else {
			custom = append(custom, name)
		}
	}
	slices.Sort(builtins)
	slices.Sort(custom)
	return append(builtins, custom...)
}

func defaults() *Settings {
	s := &Settings{
		MaxRounds:                 DefaultMaxRounds,
		TimeoutPerCLI:             DefaultTimeoutPerCLI,
		SaveDebateLogs:            true,
		DebateLogPath:             DefaultDebateLogPath,
		SkepticalOfEarlyAgreement: true,
		OutputCap:                 challengers.DefaultOutputCap,
		Defender:                  DefaultDefender,
		Agents:                    challengers.Builtins(),
		src:                       map[string]origin{},
		agents:                    map[string]*agentMeta{},
	}
	for _, key := range slices.Concat(topKeys, budgetKeys, []string{keyMinFamilies}) {
		s.src[key] = defaultOrigin
	}
	delete(s.src, keyChallengers) // discovered at the end unless set
	for name := range s.Agents {
		s.agents[name] = &agentMeta{builtin: true}
	}
	return s
}

// loader carries the state of one Load.
type loader struct {
	s     *Settings
	env   Env
	flags Flags
	// challengerSrc says where each explicitly named challenger was
	// written, so an unknown one is reported at its own line.
	challengerSrc []origin
	plans         []seating.Plan
	protocols     map[string]map[string]protocolSeat
	values        map[string]protocolValue
}

func (l *loader) warn(o origin, key, msg string) {
	l.s.Warnings = append(l.s.Warnings, o.warning(key, msg))
}
