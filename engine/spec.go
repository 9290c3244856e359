package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine/layout"
)

// Spec is one protocol as everything outside it knows it: its names, its
// words, its seats and phases, its reply shapes, its command's help, its
// exit codes, its resume rule and its MCP tool. Each protocol declares
// one (engine/NAME's Spec), and engine/protocols lists them: the command
// line, arena mcp, arena resume, stats, replay, the printers, demo and
// the fakes all read that list, so a protocol is declared once.
type Spec struct {
	// Name is what its runs' logs call it (the start event's Protocol).
	Name string
	// Command is its name wherever a person or an agent names it: the
	// command (arena compare), the MCP tool, arena stats --protocol and
	// arena demo.
	Command string
	// Root says that arena itself runs it too, given only a topic (arena
	// "topic" is arena debate "topic").
	Root bool
	// Title is how it introduces itself; Noun what a person calls one of
	// its runs ("Stop the comparison?").
	Title, Noun string
	// Words are what its banner calls the topic and the files.
	Words Words
	// Seating is its seats, by which the settings read its section of
	// the config file; the debate has none (its seats are the top-level
	// defender and challengers).
	Seating seating.Plan
	// ConfigExample is its section of the starter config file, each line
	// as it reads once uncommented ("" when it has none).
	ConfigExample string
	// Phases are its phases in order; Layouts say how each of its reply
	// shapes reads, by the shape's name (the tag its prompts carry).
	Phases  []PhaseInfo
	Layouts map[string]layout.Layout
	// Help is its command's help.
	Help Help
	// Exits are its command's own exit codes (0, 2, and any it adds, each
	// with the outcomes that end with it); RunExits adds those every run
	// shares.
	Exits Exits
	// Tool is its MCP tool.
	Tool Tool
	// Resume is what arena resume checks and shows of a request its log
	// records before it starts the run again.
	Resume ResumeRule
	// New is a request of the protocol with its defaults, for the command
	// line, arena mcp and arena resume to fill.
	New func() Request
	// Uses are the settings its runs read besides those every run reads
	// (the config file, the log directory, the budget, the defender and
	// challengers, who seat its default seats): its command takes them
	// as flags, and no other.
	Uses Uses
	// LogsOutOfTree: unless a log directory was chosen, its logs go to
	// arena's state directory, out of the work tree it judges (a
	// verdict, often run by a pre-push hook).
	LogsOutOfTree bool
}

// Uses are the settings a protocol's runs read besides those every run
// reads.
type Uses struct {
	// Rounds says what --max-rounds counts ("": its runs have no rounds),
	// and RoundsDefault its default (0: the settings' max_rounds).
	Rounds        string
	RoundsDefault int
	// Timeout: each seat's timeout per call is the settings'
	// timeout_per_cli (--timeout).
	Timeout bool
	// Findings: its outcome document holds findings at places in the
	// work (doc.SectionFindings), which --sarif writes as SARIF.
	Findings bool
}

// ResumeRule is what arena resume checks and shows of a run's request
// before it starts the run again; fields are named as in the log (their
// JSON names).
type ResumeRule struct {
	Reads  []string // fields naming files it reads
	Writes []string // fields naming where it writes
	// Runs are bool fields that make it run something, and what: shown
	// before the resume runs it.
	Runs map[string]string
	// Attached are fields naming files the run attached (its context):
	// each must be one the log's start event lists.
	Attached []string
	// First is a field naming the file the run attached first (rank's
	// spec): it must name it again.
	First string
	// Again makes the request start the run as it was started, from the
	// log's start event (rank: the seed of its judges' orders); nil:
	// the request as recorded.
	Again func(DebateStarted, Request)
}

// Words are a protocol's words for the banner of its runs: a judging's
// topic is its task and its files the solution judged, not a "Topic" and
// "Context".
type Words struct {
	Topic   string `json:"topic,omitempty"`
	Context string `json:"context,omitempty"`
	// First is what its first file is, when it is another thing (rank's
	// spec); "": the same.
	First string `json:"first,omitempty"`
}

// DefaultWords are the banner's words for a protocol that names none.
var DefaultWords = Words{Topic: "Topic", Context: "Context"}

// Or is w, with what it leaves empty taken from d.
func (w Words) Or(d Words) Words {
	if w.Topic == "" {
		w.Topic = d.Topic
	}
	if w.Context == "" {
		w.Context = d.Context
	}
	if w.First == "" {
		w.First = d.First
	}
	return w
}

// Help is a command's help, as --help shows it.
type Help struct {
	Use, Short, Long, Example string
}

// Tool is what a protocol's MCP tool says of itself.
type Tool struct {
	// About is its description, for the agent choosing a tool.
	About string
	// Guard names the inputs the self-preference guard reads and sets.
	Guard Guard
	// Record says that the run's standard output is its final record
	// (arena verdict --json), which the tool's result carries.
	Record bool
	// Seats says that the caller may name the defender and the
	// challengers (the debate's seats).
	Seats bool
}

// Guard names a tool's inputs that the self-preference guard reads and
// sets; "" where the tool has none.
type Guard struct {
	Author  string   // the work's author: the caller, unless named
	Judges  []string // the inputs naming judging seats
	Authors string   // each candidate's author, in order (rank)
	Against string   // the seats attacking the caller's position (the debate's challengers)
}

// Shapes are the names of the protocol's reply shapes, sorted.
func (s Spec) Shapes() []string {
	return slices.Sorted(maps.Keys(s.Layouts))
}

// AllExits are the protocol's exit codes with those every run shares.
func (s Spec) AllExits() Exits { return RunExits(s.Exits...) }

// The exit codes every command shares; each protocol adds its own
// between 0 and 4, and above 4.
const (
	ExitOK    = 0
	ExitError = 1 // something went wrong that is not the user's input
	ExitUsage = 2 // bad flags, bad config, missing file
	// ExitAborted: the run could not go on (no usable agent for a seat, ...).
	ExitAborted = 4
	// ExitOverBudget: the run's budget was spent, and it stopped before a
	// call (sysexits' EX_TEMPFAIL: arena resume carries it on).
	ExitOverBudget = 75
	// ExitFamilies: the run was refused before any call, for its deciding
	// seats span fewer vendor families than --min-families asks, or only
	// the author's (sysexits' EX_CONFIG: the panel is the person's to
	// change).
	ExitFamilies    = 78
	ExitInterrupted = 130
)

// Exit is one exit code of a command, what it means, and the outcomes of
// a run that end with it.
type Exit struct {
	Code     int
	Means    string
	Outcomes []OutcomeKind
}

// Exits are a command's exit codes.
type Exits []Exit

// RunExits are a protocol's exit codes: its own (0 and 2, and any it
// adds, each with the outcomes that end with it) and those every run
// shares, by code.
func RunExits(own ...Exit) Exits {
	all := append(Exits{
		{Code: ExitError, Means: "internal error"},
		{Code: ExitOverBudget, Means: "over budget: --max-cost, --max-calls or --max-tokens was spent (arena resume LOG --max-... carries on)", Outcomes: []OutcomeKind{OutcomeOverBudget}},
		{Code: ExitInterrupted, Means: "interrupted (Ctrl+C, SIGTERM, SIGHUP)", Outcomes: []OutcomeKind{OutcomeInterrupted}},
	}, own...)
	slices.SortStableFunc(all, func(a, b Exit) int { return a.Code - b.Code })
	return all
}

// Aborted is a protocol's exit 4: its run could not go on, and why.
func Aborted(why string) Exit {
	return Exit{Code: ExitAborted, Means: why, Outcomes: []OutcomeKind{OutcomeAborted}}
}

// TooFewFamilies is a protocol's exit 78: its deciding seats (seats says
// which they are) span fewer vendor families than --min-families, or only
// the author's, and the run was refused before any call.
func TooFewFamilies(seats string) Exit {
	return Exit{Code: ExitFamilies, Means: "refused before any call: " + seats + " span fewer vendor families than --min-families (min_families), or only the author's"}
}

// Code is the exit code a run's outcome ends with: that of the exit
// listing it, else 4 (a result the command does not know could not have
// been its own).
func (x Exits) Code(k OutcomeKind) int {
	for _, e := range x {
		if slices.Contains(e.Outcomes, k) {
			return e.Code
		}
	}
	return ExitAborted
}

// Help is the exit codes as --help ends with them.
func (x Exits) Help() string {
	var b strings.Builder
	b.WriteString("Exit codes:")
	for _, e := range x {
		lines := strings.Split(e.Means, "\n")
		fmt.Fprintf(&b, "\n  %-4d %s", e.Code, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "\n       %s", l)
		}
	}
	return b.String()
}

// Meanings are the codes' meanings, by code, on one line each.
func (x Exits) Meanings() map[int]string {
	out := map[int]string{}
	for _, e := range x {
		out[e.Code] = strings.ReplaceAll(e.Means, "\n", " ")
	}
	return out
}

// Named is the spec of specs that a person or a log names: by its command
// (debate, compare) or by the name its logs give it (adversarial).
func Named(specs []Spec, name string) (Spec, bool) {
	for _, s := range specs {
		if s.Command == name || s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// Commands are the specs' commands, as people type them.
func Commands(specs []Spec) []string {
	out := make([]string, 0, len(specs))
	for _, s := range specs {
		out = append(out, s.Command)
	}
	return out
}
