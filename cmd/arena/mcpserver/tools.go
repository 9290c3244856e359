package mcpserver

import (
	"fmt"
	"strconv"
	"strings"
)

// The protocols' tools take typed inputs, turned here into the command
// line a person would type: the run is that command, so it checks its
// input with the same code and words its refusals the same way, and its
// log records that command line, which arena resume runs again.

// Follow is what every run tool shares: how long the call follows the
// run before it returns.
type Follow struct {
	WaitSeconds int `json:"wait_seconds,omitempty" jsonschema:"follow the run for up to this many seconds (0 to 50) before returning; a run that ends sooner returns its outcome at once"`
}

// DebateIn is the adversarial debate's input (arena "topic").
type DebateIn struct {
	Topic       string   `json:"topic" jsonschema:"the question or decision to debate"`
	Context     []string `json:"context,omitempty" jsonschema:"files the debate is about, attached to every prompt (paths relative to the server's directory)"`
	Defender    string   `json:"defender,omitempty" jsonschema:"the agent that opens and defends a position (default claude)"`
	Challengers []string `json:"challengers,omitempty" jsonschema:"the challenger agents (default: the usable ones arena doctor finds)"`
	MaxRounds   int      `json:"max_rounds,omitempty" jsonschema:"maximum confrontation rounds (default 5)"`
	Timeout     string   `json:"timeout,omitempty" jsonschema:"timeout per agent call, e.g. 90s or 5m"`
	Follow
}

// Args is the command line of a debate with this input, and its stdin.
func (in DebateIn) Args() ([]string, string) {
	var a []string
	a = flag(a, "defender", in.Defender)
	a = list(a, "challengers", in.Challengers)
	a = number(a, "max-rounds", in.MaxRounds)
	a = flag(a, "timeout", in.Timeout)
	a = each(a, "context", in.Context)
	return append(a, "--no-tui", "-f", "-"), in.Topic
}

// CompareIn is arena compare's input.
type CompareIn struct {
	Decision     string   `json:"decision" jsonschema:"the decision the options are for"`
	Options      []string `json:"options" jsonschema:"two to four options to compare"`
	Criteria     string   `json:"criteria,omitempty" jsonschema:"weighted criteria, e.g. throughput:high,ops cost:medium (default: the judge proposes them)"`
	Context      []string `json:"context,omitempty" jsonschema:"files of evidence every seat reads"`
	Stakeholders string   `json:"stakeholders,omitempty" jsonschema:"a file describing the stakeholders and their preferences"`
	Quick        bool     `json:"quick,omitempty" jsonschema:"skip the rebuttals"`
	Single       bool     `json:"single,omitempty" jsonschema:"one agent scores the options alone, for a quick look"`
	Advocates    []string `json:"advocates,omitempty" jsonschema:"advocate agents, one per option in option order"`
	Judge        string   `json:"judge,omitempty" jsonschema:"the judge's agent"`
	Author       string   `json:"author,omitempty" jsonschema:"the agent that proposed the options: it gets no judge seat (default: the calling agent, when it is one of arena's agents)"`
	Timeout      string   `json:"timeout,omitempty" jsonschema:"timeout per agent call, e.g. 90s or 5m"`
	Follow
}

// Args is the command line of a comparison with this input, and its stdin.
func (in CompareIn) Args() ([]string, string) {
	a := []string{"compare"}
	a = each(a, "option", in.Options)
	a = flag(a, "criteria", in.Criteria)
	a = each(a, "context", in.Context)
	a = flag(a, "stakeholders", in.Stakeholders)
	a = boolean(a, "quick", in.Quick)
	a = boolean(a, "single", in.Single)
	a = list(a, "advocates", in.Advocates)
	a = flag(a, "judge", in.Judge)
	a = flag(a, "author", in.Author)
	a = flag(a, "timeout", in.Timeout)
	return append(a, "--no-tui", "-f", "-"), in.Decision
}

// JudgeIn is arena judge's input.
type JudgeIn struct {
	Paths      []string `json:"paths,omitempty" jsonschema:"the solution's files or directories (directories are walked, honouring .gitignore)"`
	Solution   string   `json:"solution,omitempty" jsonschema:"the solution as text (a diff, a document), instead of paths"`
	Task       string   `json:"task" jsonschema:"what the solution was supposed to accomplish"`
	Criteria   string   `json:"criteria,omitempty" jsonschema:"weighted criteria, e.g. correctness:30,design:25,security:20"`
	Preset     string   `json:"preset,omitempty" jsonschema:"criteria preset: code (default), design or docs"`
	Judges     []string `json:"judges,omitempty" jsonschema:"judge agents (default: three usable ones other than the author)"`
	Author     string   `json:"author,omitempty" jsonschema:"the agent that wrote the solution: it gets no judge seat unless judges names it (default: the calling agent, when it is one of arena's agents)"`
	MinScore   float64  `json:"min_score,omitempty" jsonschema:"the consensus overall score below which the outcome is below_min (1 to 5)"`
	MaxBytes   int      `json:"max_bytes,omitempty" jsonschema:"bytes of the solution per prompt (the rest is cut, and said so)"`
	ReportsDir string   `json:"reports_dir,omitempty" jsonschema:"write each judge's report and a copy of the outcome there"`
	MaxRounds  int      `json:"max_rounds,omitempty" jsonschema:"debate rounds between the judges (default 3)"`
	Timeout    string   `json:"timeout,omitempty" jsonschema:"timeout per agent call, e.g. 90s or 5m"`
	Follow
}

// Args is the command line of a judging with this input, and its stdin.
func (in JudgeIn) Args() ([]string, string) {
	a := []string{"judge"}
	a = flag(a, "task", in.Task)
	a = flag(a, "criteria", in.Criteria)
	a = flag(a, "preset", in.Preset)
	a = list(a, "judges", in.Judges)
	a = flag(a, "author", in.Author)
	if in.MinScore != 0 {
		a = append(a, "--min-score="+strconv.FormatFloat(in.MinScore, 'g', -1, 64))
	}
	a = number(a, "max-bytes", in.MaxBytes)
	a = flag(a, "reports-dir", in.ReportsDir)
	a = number(a, "max-rounds", in.MaxRounds)
	a = flag(a, "timeout", in.Timeout)
	a = append(a, "--no-tui")
	if in.Solution != "" && len(in.Paths) == 0 {
		return append(a, "-"), in.Solution
	}
	if in.Solution != "" {
		// Both: the command refuses stdin with paths, in its own words.
		return append(append(a, "--", "-"), in.Paths...), in.Solution
	}
	return append(a, append([]string{"--"}, in.Paths...)...), ""
}

// VerdictIn is arena verdict's input.
type VerdictIn struct {
	Files        []string `json:"files,omitempty" jsonschema:"the files of the work to judge"`
	Work         string   `json:"work,omitempty" jsonschema:"the work as text (a diff, a report), instead of files"`
	TaskID       string   `json:"task_id" jsonschema:"what the work is for, as the verdict log records it (an issue, a branch)"`
	Task         string   `json:"task,omitempty" jsonschema:"what the work had to do, for the judges"`
	Thorough     bool     `json:"thorough,omitempty" jsonschema:"ask the quick and deep judges in parallel, and the tiebreaker when they differ"`
	Sensitive    bool     `json:"sensitive,omitempty" jsonschema:"security- or compliance-critical work: always escalate to a human"`
	QuickJudge   string   `json:"quick_judge,omitempty" jsonschema:"agent for the quick judge's seat"`
	DeepJudge    string   `json:"deep_judge,omitempty" jsonschema:"agent for the deep judge's seat"`
	Tiebreaker   string   `json:"tiebreaker,omitempty" jsonschema:"agent for the tiebreaker's seat (with thorough)"`
	Author       string   `json:"author,omitempty" jsonschema:"the agent that wrote the work: kept out of every seat it would hold (default: the calling agent, when it is one of arena's agents)"`
	QuickTimeout string   `json:"quick_timeout,omitempty" jsonschema:"the quick judge's timeout per call (default 30s)"`
	DeepTimeout  string   `json:"deep_timeout,omitempty" jsonschema:"the deep judge's timeout per call (default 60s)"`
	Follow
}

// Args is the command line of a verdict with this input, and its stdin.
func (in VerdictIn) Args() ([]string, string) {
	a := []string{"verdict"}
	a = flag(a, "task-id", in.TaskID)
	a = flag(a, "task", in.Task)
	a = boolean(a, "thorough", in.Thorough)
	a = boolean(a, "sensitive", in.Sensitive)
	a = flag(a, "quick-judge", in.QuickJudge)
	a = flag(a, "deep-judge", in.DeepJudge)
	a = flag(a, "tiebreaker", in.Tiebreaker)
	a = flag(a, "author", in.Author)
	a = flag(a, "quick-timeout", in.QuickTimeout)
	a = flag(a, "deep-timeout", in.DeepTimeout)
	// --json: its stdout is the final record alone, kept for the outcome.
	a = append(a, "--json")
	stdin := ""
	args := append([]string{"--"}, in.Files...)
	if in.Work != "" {
		args, stdin = append(args, "-"), in.Work
	}
	return append(a, args...), stdin
}

// RankIn is arena rank's input.
type RankIn struct {
	Spec         string   `json:"spec" jsonschema:"the specification file every repository implements"`
	Repos        []string `json:"repos" jsonschema:"two or more repositories (git work trees) implementing it"`
	Labels       []string `json:"labels,omitempty" jsonschema:"a label per repository, in order (default: directory names)"`
	Weights      string   `json:"weights,omitempty" jsonschema:"dimension weights, e.g. functionality:40,security:30"`
	Branch       string   `json:"branch,omitempty" jsonschema:"branch to judge in every repository (default: each one's current branch)"`
	Base         string   `json:"base,omitempty" jsonschema:"base to compare with (default: main, else master, else origin's default)"`
	RunTests     bool     `json:"run_tests,omitempty" jsonschema:"run each repository's own tests: this runs their code"`
	TestTimeout  string   `json:"test_timeout,omitempty" jsonschema:"timeout for one repository's tests (default 10m)"`
	Authors      []string `json:"authors,omitempty" jsonschema:"the agent that wrote each repository, in order: no judge seat goes to an author's agent where another exists"`
	ExpectWinner string   `json:"expect_winner,omitempty" jsonschema:"the label expected to rank first alone (exit code 3 otherwise)"`
	Seed         uint64   `json:"seed,omitempty" jsonschema:"seed of the judges' shuffled orders (default: random, logged)"`
	Timeout      string   `json:"timeout,omitempty" jsonschema:"timeout per agent call, e.g. 90s or 5m"`
	Follow
}

// Args is the command line of a ranking with this input, and its stdin.
func (in RankIn) Args() ([]string, string) {
	a := []string{"rank"}
	if len(in.Labels) > 0 {
		a = append(a, "--labels="+strings.Join(in.Labels, ","))
	}
	a = flag(a, "weights", in.Weights)
	a = flag(a, "branch", in.Branch)
	a = flag(a, "base", in.Base)
	a = boolean(a, "run-tests", in.RunTests)
	a = flag(a, "test-timeout", in.TestTimeout)
	a = list(a, "authors", in.Authors)
	a = flag(a, "expect-winner", in.ExpectWinner)
	if in.Seed != 0 {
		a = append(a, "--seed="+strconv.FormatUint(in.Seed, 10))
	}
	a = flag(a, "timeout", in.Timeout)
	a = append(a, "--no-tui", "--", in.Spec)
	return append(a, in.Repos...), ""
}

// StatusIn asks for a run's progress.
type StatusIn struct {
	RunID string `json:"run_id" jsonschema:"the run's id, as a run tool or list_runs gave it"`
	Since int    `json:"since,omitempty" jsonschema:"the cursor of the previous answer: only what happened since is listed"`
	Follow
}

// CancelIn stops a run.
type CancelIn struct {
	RunID string `json:"run_id" jsonschema:"the run to stop"`
	Follow
}

// ListIn lists runs.
type ListIn struct {
	Limit int `json:"limit,omitempty" jsonschema:"at most this many runs, newest first (default 20)"`
}

// ReadIn reads a run's outcome.
type ReadIn struct {
	RunID string `json:"run_id,omitempty" jsonschema:"the run's id"`
	Log   string `json:"log,omitempty" jsonschema:"or the path of its log"`
}

// flag appends --name=value when value is given. The = form keeps a
// value that starts with a dash a value.
func flag(a []string, name, value string) []string {
	if value == "" {
		return a
	}
	return append(a, "--"+name+"="+value)
}

func each(a []string, name string, values []string) []string {
	for _, v := range values {
		a = append(a, "--"+name+"="+v)
	}
	return a
}

func list(a []string, name string, values []string) []string {
	if len(values) == 0 {
		return a
	}
	return append(a, "--"+name+"="+strings.Join(values, ","))
}

func number(a []string, name string, n int) []string {
	if n == 0 {
		return a
	}
	return append(a, fmt.Sprintf("--%s=%d", name, n))
}

func boolean(a []string, name string, b bool) []string {
	if !b {
		return a
	}
	return append(a, "--"+name)
}
