package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
)

// cli is one impersonated program.
type cli struct {
	name    string
	version string
	// prepare parses the arguments, reads stdin the way the real CLI does
	// and applies the real CLI's checks, in the real CLI's order.
	prepare func(args []string) (*invocation, *failure)
	// emitter returns what writes this invocation's answer.
	emitter func(inv *invocation, s *stream) emitter
	// noise is what the real CLI prints on stderr on every run, even a
	// successful one.
	noise func() string
	// authStderr and authCode are the HTTP 401 failure from the samples.
	authStderr string
	authCode   int
}

var clis = map[string]*cli{
	"claude": claudeCLI,
	"gemini": geminiCLI,
	"codex":  codexCLI,
	"qwen":   qwenCLI,
	"agy":    agyCLI,
}

// invocation is what a CLI made of its arguments and stdin.
type invocation struct {
	format  string // text | json | stream-json
	partial bool   // claude and qwen --include-partial-messages
	model   string
	prompt  string
	version bool // print the version and exit
	// versionText replaces the CLI's version line (codex exec -V).
	versionText string
	// lastMessageFile is codex's -o: the final message is also written there.
	lastMessageFile string
	// permission is claude's permissionMode, reported in its init event.
	permission string
}

// failure is how the real CLI rejects an invocation: a message on stderr
// and an exit status. Help is a "failure" too: it ends the run early, but
// on stdout and with status 0.
type failure struct {
	msg    string
	code   int
	stdout bool
}

func failf(code int, format string, a ...any) *failure {
	return &failure{msg: fmt.Sprintf(format, a...), code: code}
}

// emitter writes one CLI's output for one call. The modes in modes.go are
// written once in terms of these four steps.
type emitter interface {
	// start writes what the CLI prints before the model's first token
	// (init events, the echoed user message, ...).
	start()
	// chunk writes one streamed piece of the reply; it writes nothing
	// where the CLI does not stream (claude without partial messages,
	// codex, the text formats that print at the end).
	chunk(text string)
	// finish writes the whole reply and the success result.
	finish(reply string)
	// fail writes the in-stream report of an HTTP 401 from the model API.
	fail()
}

// completer is an emitter with side effects beyond stdout once a whole
// answer is out (codex -o writes a file). A crash does not get there.
type completer interface {
	complete(reply string)
}

// run impersonates c and returns the exit status.
func run(c *cli, args []string) int {
	agent := agentName(c.name)
	rec := newCall(agent, args)
	inv, f := c.prepare(args)
	if f != nil {
		return reject(rec, f)
	}
	as, err := loadAgentScript(agent)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakecli: %v\n", err)
		return 99 // a broken test script must not look like a CLI failure
	}
	if inv.version {
		rec.Kind = fakeapi.KindVersion
		logCall(rec)
		return printVersion(c, inv, as)
	}
	p, err := resolvePlan(agent, as, inv.prompt)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakecli: %v\n", err)
		return 99
	}
	rec.setPrompt(inv.prompt)
	rec.Kind, rec.Repair, rec.Index, rec.Mode = p.kind, p.repair, p.index, p.mode
	logCall(rec)
	return perform(c, inv, p, agent)
}

// reject logs and reports an invocation the real CLI would refuse.
func reject(rec *record, f *failure) int {
	w := os.Stdout
	if !f.stdout {
		w, rec.Error = os.Stderr, strings.TrimSpace(f.msg)
	}
	logCall(rec)
	fmt.Fprint(w, f.msg)
	return f.code
}

// agentName is the name the script, counters and log use.
func agentName(cliName string) string {
	if n := os.Getenv(fakeapi.EnvAgent); n != "" {
		return n
	}
	return cliName
}

func printVersion(c *cli, inv *invocation, as fakeapi.AgentScript) int {
	switch as.VersionMode {
	case fakeapi.ModeFail:
		fmt.Fprintf(os.Stderr, "%s: failed to start: fake version failure\n", c.name)
		return 1
	case fakeapi.ModeHang:
		sleepForever()
	}
	fmt.Println(firstSet(inv.versionText, c.version))
	return 0
}

// interactive is the answer to an invocation the real CLI would take as
// a request for its full-screen UI, which the fakes do not have.
func interactive(name string) *failure {
	return failf(1, "fake %s: interactive mode is not supported; run it headless\n", name)
}
