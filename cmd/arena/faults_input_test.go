package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
)

// Hostile input: logs given to arena replay, config files, a huge topic,
// and shell metacharacters in topics and context files.

// logLines is a real debate's log, line by line (without newlines).
func logLines(t *testing.T, s *sandbox) []string {
	t.Helper()
	if r := s.run("--no-tui", "a topic to log"); r.code != exitConsensus {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(s.logs()[0])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func joinLines(lines ...[]string) []byte {
	var all []string
	for _, l := range lines {
		all = append(all, l...)
	}
	return []byte(strings.Join(all, "\n") + "\n")
}

// mutateEvent decodes a log line, lets f change it, and encodes it again.
func mutateEvent(t *testing.T, line string, f func(e map[string]any)) string {
	t.Helper()
	var e map[string]any
	if err := json.Unmarshal([]byte(line), &e); err != nil {
		t.Fatal(err)
	}
	f(e)
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hostileLog is one of TestReplayHostileLogs' logs, and what replaying it
// must do.
type hostileLog struct {
	name    string
	content []byte // nil: path is used as is
	path    string
	code    int
	want    string // in stderr
	outcome bool   // the replay plays to the outcome
}

// check checks one replay of the log, printed as mode.
func (tc hostileLog) check(t *testing.T, mode string, r result) {
	t.Helper()
	if r.code != tc.code {
		t.Errorf("replay %s: exit %d, want %d\nstderr: %q", mode, r.code, tc.code, tail(r.stderr, 500))
	}
	if !strings.Contains(r.stderr, tc.want) {
		t.Errorf("replay %s: stderr %q lacks %q", mode, tail(r.stderr, 500), tc.want)
	}
	if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
		t.Fatalf("replay %s panicked:\n%s", mode, r.stderr)
	}
	// No time limit here but the run's own (a hang): reading a 70 MiB line
	// under the race detector on a loaded machine takes what it takes.
	assertTerminalSafe(t, "replay "+mode+" stdout", r.stdout)
	assertTerminalSafe(t, "replay "+mode+" stderr", r.stderr)
	if tc.outcome != strings.Contains(r.stdout, `# Debate outcome`) && mode == "--no-tui" {
		t.Errorf("replay %s: outcome shown %v, want %v", mode, !tc.outcome, tc.outcome)
	}
	if tc.code == exitUsage && r.stdout != "" {
		t.Errorf("replay %s printed for a file it refused: %q", mode, tail(r.stdout, 300))
	}
}

// hostileLines are a log's lines with terminal escape sequences around
// every text a screen shows.
func hostileLines(t *testing.T, lines []string) []string {
	evil := "\x1b]0;pwned\x07\x1b[2J\x1b[?1049h\x1b]52;c;cm0gLXJmIH4=\x07\x9b31m\r"
	hostile := make([]string, len(lines))
	for i, l := range lines {
		hostile[i] = mutateEvent(t, l, func(e map[string]any) {
			d := e["data"].(map[string]any)
			for _, k := range []string{"topic", "text", "display", "message", "summary", "markdown", "position", "title", "decision"} {
				if v, ok := d[k].(string); ok {
					d[k] = evil + v + evil
				}
			}
		})
	}
	return hostile
}

// TestReplayHostileLogs gives arena replay logs that are damaged, foreign
// or malicious: each gets a clear message and the right exit code, in
// bounded time, never a panic, and nothing in them reaches the terminal as
// an escape sequence.
func TestReplayHostileLogs(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	lines := logLines(t, s)
	dir := t.TempDir()
	huge := `{"seq":3,"t":"2026-01-01T00:00:00Z","type":"chunk","data":{"agent":"gemini","text":"` + strings.Repeat("x", 65<<20) + `"}}`
	junk := make([]byte, 64<<10)
	rand.New(rand.NewSource(1)).Read(junk)
	junk[0] = 0x1b // an escape sequence at the very start
	first := func(f func(e map[string]any)) string { return mutateEvent(t, lines[0], f) }
	data := func(e map[string]any) map[string]any { return e["data"].(map[string]any) }
	hostile := hostileLines(t, lines)
	cases := []hostileLog{
		{name: "empty", content: []byte{}, code: exitUsage, want: "not an arena debate log: the file is empty"},
		{name: "blank-lines", content: []byte("\n\n  \n"), code: exitUsage, want: "not an arena debate log"},
		{name: "not-a-log", content: []byte("# Notes\nThis is a Markdown file.\n"), code: exitUsage, want: "not an arena debate log"},
		{name: "binary-junk", content: junk, code: exitUsage, want: "not an arena debate log"},
		{name: "nul-bytes", content: make([]byte, 1<<20), code: exitUsage, want: "not an arena debate log"},
		{name: "json-but-not-events", content: []byte("[1,2,3]\n{\"a\":1}\n"), code: exitUsage, want: "not an arena debate log"},
		{name: "starts-elsewhere", content: joinLines(lines[1:]), code: exitUsage, want: `not an arena debate log: it starts with a "phase_started" event`},
		{name: "newer-version", content: joinLines([]string{first(func(e map[string]any) { data(e)["version"] = 99 })}, lines[1:]),
			code: exitUsage, want: "format version 99, this arena reads up to version " + fmt.Sprint(engine.LogVersion) + "; upgrade arena"},
		{name: "wrong-type-first", content: joinLines([]string{first(func(e map[string]any) { data(e)["version"] = "one" })}, lines[1:]),
			code: exitUsage, want: "not an arena debate log: line 1 is not a valid event"},
		{name: "wrong-type-mid-log", content: joinLines(lines[:3], []string{`{"seq":4,"t":"2026-01-01T00:00:00Z","type":"chunk","data":{"agent":5,"text":[1]}}`}, lines[3:]),
			code: 0, want: "line 4 is not a valid event", outcome: true},
		{name: "no-data", content: joinLines(lines[:2], []string{`{"seq":3,"type":"outcome"}`}), code: 0, want: "line 3 is not a valid event"},
		{name: "unknown-events", content: joinLines(lines[:2], []string{`{"seq":3,"t":"2026-01-01T00:00:00Z","type":"hologram","data":{"x":[1,{"y":null}]}}`}, lines[2:]),
			code: 0, want: "1 events of kinds this arena does not know were skipped", outcome: true},
		{name: "cut-mid-line", content: []byte(strings.Join(lines[:6], "\n") + "\n" + lines[6][:len(lines[6])/2]), code: 0, want: "line 7 is cut short"},
		{name: "garbage-line-mid-log", content: joinLines(lines[:4], []string{"\x1b[2J\xff\xfe garbage"}, lines[4:]), code: 0, want: "line 5 is not a valid event", outcome: true},
		{name: "huge-line-mid-log", content: joinLines(lines[:2], []string{huge}, lines[2:]), code: 0, want: "line 3 is longer than 64 MiB", outcome: true},
		{name: "huge-first-line", content: joinLines([]string{huge}, lines), code: exitUsage, want: "not an arena debate log: line 1 is longer than 64 MiB"},
		{name: "huge-last-line-without-newline", content: append(joinLines(lines[:5]), bytes.Repeat([]byte("y"), 70<<20)...), code: 0, want: "line 6 is longer than 64 MiB"},
		{name: "escape-sequences-in-text", content: joinLines(hostile), code: 0, outcome: true},
		{name: "a-directory", path: dir, code: exitUsage, want: "is a directory, not a regular file"},
		{name: "missing", path: filepath.Join(dir, "nope.jsonl"), code: exitUsage, want: "no such file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s.t = t
			path := tc.path
			if tc.content != nil {
				path = filepath.Join(dir, tc.name+".jsonl")
				if err := os.WriteFile(path, tc.content, 0o600); err != nil {
					t.Fatal(err)
				}
				defer os.Remove(path)
			}
			modes := []string{"--no-tui"}
			if tc.code == 0 {
				modes = append(modes, "--json") // the same reader; what it lets through goes out as JSON
			}
			for _, mode := range modes {
				tc.check(t, mode, s.run("replay", mode, path))
			}
		})
	}
	// arena logs lists the hostile ones without letting them drive the
	// terminal either.
	logDir := filepath.Join(dir, "logs")
	os.Mkdir(logDir, 0o700)
	os.WriteFile(filepath.Join(logDir, "20260101-000000-evil.jsonl"), joinLines(hostile), 0o600)
	os.WriteFile(filepath.Join(logDir, "20260101-000001-junk.jsonl"), junk, 0o600)
	os.WriteFile(filepath.Join(logDir, "20260101-000002-empty.jsonl"), nil, 0o600)
	s.t = t
	r := s.run("logs", "--log-dir", logDir)
	if r.code != 0 || strings.Count(r.stdout, ".jsonl") != 3 {
		t.Errorf("arena logs: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	assertTerminalSafe(t, "arena logs", r.stdout+r.stderr)
}

// TestMalformedConfigFiles: each kind of broken config file, given with
// --config or found in the config directory, stops arena before anything
// runs with exit 2 and the file, line and key at fault.
func TestMalformedConfigFiles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, yaml, want string // want follows "FILE:"
		// found: also as the config file arena finds by itself
		// ($XDG_CONFIG_HOME/arena/config.yaml); every case is given with
		// --config.
		found bool
	}{
		{"yaml-syntax", "max_rounds: 5\ntimeout_per_cli: [1, 2\n", "2: invalid YAML", true},
		{"tab-indent", "max_rounds: 3\n\tchallengers: [gemini]\n", "2: invalid YAML: found a tab character", false},
		{"not-a-mapping", "- just\n- a list\n", "1: expected settings as \"key: value\" lines, found a list", false},
		{"wrong-type", "max_rounds: five\n", "1: max_rounds: \"five\" is not a whole number", true},
		{"out-of-range", "skeptical_of_early_agreement: true\nmax_rounds: 0\n", "2: max_rounds: must be at least 1, got 0", false},
		{"bad-bool", "save_debate_logs: maybe\n", "1: save_debate_logs: \"maybe\" is not true or false", false},
		{"bad-size", "output_cap: lots\n", "1: output_cap: \"lots\" is not a size", false},
		{"duplicate-key", "max_rounds: 3\nmax_rounds: 4\n", "2: max_rounds: set twice (first at line 1)", false},
		{"unknown-agent", "challengers: [gemini, gpt5]\n", "1: challengers: unknown agent \"gpt5\"", false},
		{"bad-duration", "agents:\n  llama:\n    command: [ollama, run]\n    timeout: ninety\n", "4: agents.llama.timeout: \"ninety\" is not a duration", true},
		{"bad-format", "agents:\n  llama:\n    command: [ollama]\n    format: xml\n", "4: agents.llama.format: \"xml\" is not one of", false},
		{"agent-not-a-mapping", "agents:\n  gemini: 5\n", "2: agents.gemini: must be a mapping", false},
		{"new-agent-without-command", "agents:\n  llama:\n    prompt: stdin\n", "2: agents.llama: a new agent needs a command", false},
		{"env-not-a-string", "agents:\n  llama:\n    command: [ollama]\n    env: {A: [1]}\n", "4: agents.llama.env: the value of A must be a string", false},
		{"binary-junk", "\x1b[2J\xff\xfe\x00\x01garbage", " invalid YAML", true}, // no line to name
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newFaultSandbox(t)
			explicit := filepath.Join(s.dir, "arena.yaml")
			os.WriteFile(explicit, []byte(tc.yaml), 0o600)
			runs := []struct {
				file string
				args []string
			}{
				{explicit, []string{"--config", explicit, "--no-tui", "a topic"}},
			}
			if tc.found {
				runs = append(runs, struct {
					file string
					args []string
				}{s.writeConfig(tc.yaml), []string{"--no-tui", "a topic"}})
			}
			for _, run := range runs {
				r := s.run(run.args...)
				if r.code != exitUsage || !strings.Contains(r.stderr, run.file+":"+tc.want) {
					t.Errorf("arena %q: exit %d, stderr %q; want exit 2 and %q", run.args, r.code, r.stderr, run.file+":"+tc.want)
				}
				assertTerminalSafe(t, "stderr", r.stderr)
			}
			if n := len(s.fakes.Calls()); n != 0 {
				t.Errorf("%d agent calls despite a broken config", n)
			}
			if len(s.logs()) != 0 {
				t.Error("a debate log was written despite a broken config")
			}
		})
	}
}

// TestHugeTopicReachesAgentsWhole: a 2 MiB topic from -f FILE goes to
// every agent whole, on stdin (it is far over what one argument can
// carry): the prompt each agent received is exactly the prompt of a small
// run with the small topic replaced by the big one.
func TestHugeTopicReachesAgentsWhole(t *testing.T) {
	t.Parallel()
	const marker = "TOPIC-MARKER-7f3a?"
	small := newFaultSandbox(t)
	if r := small.run("--no-tui", marker); r.code != exitConsensus {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	var b strings.Builder
	rng := rand.New(rand.NewSource(2))
	const alphabet = "abcdefghij klmnopqrstuvwxyz\n$`\"'\\;|&<>(){}*?!#~%é€漢"
	chars := []rune(alphabet)
	b.WriteString("BEGIN ")
	for b.Len() < 2<<20 {
		b.WriteRune(chars[rng.Intn(len(chars))])
	}
	b.WriteString(" END")
	topic := b.String()

	s := newFaultSandbox(t)
	file := filepath.Join(s.dir, "topic.md")
	os.WriteFile(file, []byte(topic), 0o600)
	r := s.run("--no-tui", "-f", file)
	if r.code != exitConsensus {
		t.Fatalf("exit %d\n%s\n%s", r.code, tail(r.stdout, 2000), r.stderr)
	}
	want := map[string]clitest.Call{}
	for _, c := range small.fakes.Calls() {
		want[c.Agent+"/"+string(c.Kind)] = c
	}
	calls := s.fakes.Calls()
	if len(calls) < 4 {
		t.Fatalf("%d calls", len(calls))
	}
	for _, c := range calls {
		w, ok := want[c.Agent+"/"+string(c.Kind)]
		if !ok || w.Prompt == "" || strings.Count(w.Prompt, marker) != 1 {
			t.Fatalf("no small-topic prompt to compare %s's %s with", c.Agent, c.Kind)
		}
		full := strings.Replace(w.Prompt, marker, topic, 1)
		sum := sha256.Sum256([]byte(full))
		if c.PromptLen != len(full) || c.PromptSHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("%s's %s prompt: %d bytes (sha %.12s), want %d bytes (sha %.12s)", c.Agent, c.Kind, c.PromptLen, c.PromptSHA256, len(full), hex.EncodeToString(sum[:]))
		}
		if c.Error != "" || c.StdinIsTTY {
			t.Errorf("%s: %q, stdin a tty %v", c.Agent, c.Error, c.StdinIsTTY)
		}
		for _, a := range c.Argv {
			if len(a) > 100<<10 {
				t.Errorf("%s got a %d-byte argument", c.Agent, len(a))
			}
		}
	}
	lc := s.onlyLog()
	if ds := lc.Events[0].Payload.(engine.DebateStarted); ds.Topic != topic {
		t.Errorf("the log's topic is %d bytes, want %d", len(ds.Topic), len(topic))
	}
	assertNothingLeft(t, s, 5*time.Second)
}

// TestShellMetacharactersReachAgentsByteForByte: a topic and context files
// (names and contents) full of shell syntax reach every agent literally,
// and nothing is run.
func TestShellMetacharactersReachAgentsByteForByte(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	canary := filepath.Join(s.dir, "pwned")
	topic := "Is `touch " + canary + "` or $(touch " + canary + ") safe; rm -rf ~ && echo $HOME | cat > " + canary +
		" ${IFS} 'single' \"double\" \\ back\\slash\n-- --help -p {prompt} %s %n * ? [a] ! # ~ <(echo) >(cat)\ttab\n"
	// A file name cannot hold a slash: its command touches ./pwned.
	ctxName := filepath.Join(s.dir, "ctx $(touch pwned) ; `id` 'q' \"d\" {prompt}.sql")
	ctxBody := "SELECT '$(touch " + canary + ")' || `whoami`; -- \"; exec xp_cmdshell 'calc' \\\n$PATH ${HOME} %d {prompt_file}\n"
	if err := os.WriteFile(ctxName, []byte(ctxBody), 0o600); err != nil {
		t.Fatal(err)
	}
	r := s.runIn([]byte(topic), "-", "--no-tui", "--context", ctxName)
	if r.code != exitConsensus {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	calls := s.fakes.Calls()
	if len(calls) < 4 {
		t.Fatalf("%d calls", len(calls))
	}
	for _, c := range calls {
		for _, want := range []string{topic, ctxName, ctxBody} {
			if !strings.Contains(c.Prompt, want) {
				t.Errorf("%s's %s prompt lacks %q", c.Agent, c.Kind, want)
			}
		}
	}
	if _, err := os.Stat(canary); err == nil {
		t.Fatal("a shell ran something from the topic or the context")
	}
	if ds := s.onlyLog().Events[0].Payload.(engine.DebateStarted); ds.Topic != topic {
		t.Errorf("the log's topic %q", ds.Topic)
	}
}

// Every input path refuses what is not a regular file before reading it,
// and reads no more than its limit whatever Stat says: /dev/zero (Stat
// says 0 bytes), a 3 GB sparse file and a FIFO with no writer, as a topic,
// context, the work to judge, a spec, stakeholders and stdin, each
// answered with exit 2 and a message naming the file and what it is, in
// bounded memory. (The deadline only tells a hang from an answer.)
func TestEveryInputPathIsBounded(t *testing.T) {
	s := newSandbox(t)
	s.writeConfig(verdictSeats)
	bin := clitest.Build(t, "./cmd/arena") // without the race detector: its memory is what a person runs
	fifo := filepath.Join(s.dir, "fifo.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(s.dir, "sparse.md")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(3 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// A sparse file that starts as text is read only to the limit.
	sparseText := filepath.Join(s.dir, "sparse-text.md")
	f, err = os.Create(sparseText)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Repeat("words of a topic\n", 1000))
	if err := f.Truncate(3 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	files := map[string]string{
		"/dev/zero": "is a character device, not a regular file",
		fifo:        "is a FIFO (named pipe), not a regular file",
		sparse:      "is binary (it holds a NUL byte)",
		sparseText:  "is larger than 4 MiB (the limit)",
	}
	paths := map[string]func(x string) []string{
		"topic file":   func(x string) []string { return []string{"-f", x, "--no-tui"} },
		"context file": func(x string) []string { return []string{"--context", x, "--no-tui", "topic?"} },
		"work file":    func(x string) []string { return []string{"verdict", x, "--task-id", "t", "--no-tui"} },
		"spec file":    func(x string) []string { return []string{"rank", x, "a", "b", "--no-tui"} },
		"stakeholders file": func(x string) []string {
			return []string{"compare", "d?", "--option", "A", "--option", "B", "--stakeholders", x, "--no-tui"}
		},
		"solution": func(x string) []string { return []string{"judge", x, "--task", "t", "--no-tui"} },
	}
	check := func(what string, r result, rss int64, want string) {
		t.Helper()
		if r.code != exitUsage || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d, want 2 and %q\n%s", what, r.code, want, r.stderr)
		}
		if rss > 100<<10 {
			t.Errorf("%s: peak RSS %d MiB", what, rss>>10)
		}
	}
	for what, argv := range paths {
		for file, problem := range files {
			want := what + " " + file + ": " + problem
			if what == "solution" && file == sparse {
				want = "sparse.md (binary)" // a file of a solution that is not text is skipped and named
			}
			if what == "solution" && file == sparseText {
				continue // cut to the prompt budget and judged: TestLoadRefusesWhatIsNotAFile
			}
			r, rss := runBounded(t, s, bin, nil, argv(file)...)
			check(what+" "+filepath.Base(file), r, rss, want)
		}
	}
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	defer zero.Close()
	for what, args := range map[string][]string{"the topic": {"-", "--no-tui"}, "the work": {"verdict", "-", "--task-id", "t", "--no-tui"}, "stdin": {"judge", "-", "--task", "t", "--no-tui"}} {
		r, rss := runBounded(t, s, bin, zero, args...)
		check(what+" on stdin", r, rss, "stdin: is binary")
	}
	if n := len(s.fakes.Calls()); n != 0 {
		t.Fatalf("%d model calls", n)
	}
}

// runBounded runs bin and returns its result and peak RSS in KiB.
func runBounded(t *testing.T, s *sandbox, bin string, stdin *os.File, args ...string) (result, int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = s.dir, s.env()
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("arena %v did not answer: it hangs", args)
	}
	r := result{stdout: out.String(), stderr: errb.String()}
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = int64(ru.Maxrss)
	}
	return r, rss
}
