package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
	"github.com/arenadebate/arena/engine"
)

// Issue 19.1: one writer per log. While a run writes its log, a resume
// of it, a follow-up and a second resume are refused naming the process
// that holds it, arena resume without LOG does not pick it, and arena
// logs shows it running. Nothing is asked of a model twice.
func TestTwoArenasOnOneLog(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	c := resumeCases[0]
	s.fakes.SetScript(c.script(&clitest.Step{Mode: clitest.ModeHang}))
	cmd, out := s.start("--no-tui", "should we move sessions?")
	waitForCall(t, s, c.cutAgent, c.cutKind)
	waitForFinished(t, s, c.finished)
	log := s.logs()[0]
	calls := len(s.fakes.Calls())
	holder := fmt.Sprintf("being written by another arena (process %d)", cmd.Process.Pid)
	for _, args := range [][]string{{"resume", "--no-tui", log}, {"resume", "--yes", "--no-tui", log}, {"ask", log, "why?"}} {
		r := s.run(args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, holder) {
			t.Fatalf("%v while the run writes its log: exit %d, want 2 naming the holder (%q)\n%s", args, r.code, holder, r.stderr)
		}
	}
	if r := s.run("resume", "--no-tui"); r.code != exitUsage || !strings.Contains(r.stderr, "no interrupted, aborted or over-budget run") {
		t.Fatalf("resume without LOG picked a run going on: exit %d\n%s", r.code, r.stderr)
	}
	if r := s.run("logs"); r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf("running (process %d)", cmd.Process.Pid)) {
		t.Fatalf("arena logs does not show the run going on:\n%s\n%s", r.stdout, r.stderr)
	}
	if n := len(s.fakes.Calls()); n != calls {
		t.Fatalf("the refused commands asked the models %d more times", n-calls)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if code := exitCodeOf(cmd.Wait()); code != exitInterrupted {
		t.Fatalf("exit %d after SIGINT\n%s", code, out)
	}
	// Once it has ended the log is resumed, by one arena: a second resume
	// started while the first runs is refused too.
	s.fakes.SetScript(c.script(&clitest.Step{Mode: clitest.ModeHang}))
	first, out1 := s.start("resume", "--no-tui", log)
	waitUntil(t, 60e9, "the resumed run to ask qwen again", func() bool { return len(s.fakes.CallsTo("qwen")) >= 2 })
	r := s.run("resume", "--no-tui", log)
	if r.code != exitUsage || !strings.Contains(r.stderr, fmt.Sprintf("(process %d)", first.Process.Pid)) {
		t.Fatalf("a second resume: exit %d\n%s", r.code, r.stderr)
	}
	first.Process.Signal(syscall.SIGINT)
	if code := exitCodeOf(first.Wait()); code != exitInterrupted {
		t.Fatalf("exit %d after SIGINT\n%s", code, out1)
	}
	lc := s.onlyLog()
	if len(lc.Sequence) != 0 || len(lc.Damage) != 0 {
		t.Fatalf("the log has broken numbers %q or damage %v", lc.Sequence, lc.Damage)
	}
}

// A log two writers wrote (an older arena, a hand): replay and logs name
// the repeated and missing event numbers.
func TestReplayAndLogsReportBrokenNumbers(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	if r := s.run("--no-tui", "a topic"); r.code != exitConsensus {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	log := s.logs()[0]
	data, _ := os.ReadFile(log)
	lines := strings.SplitAfter(string(data), "\n")
	// Line 4 written twice; line 6 lost.
	mangled := strings.Join(lines[:4], "") + lines[3] + lines[4] + strings.Join(lines[6:], "")
	os.WriteFile(log, []byte(mangled), 0o600)
	r := s.run("replay", "--no-tui", log)
	if r.code != 0 || !strings.Contains(r.stderr, "line 5 repeats event number 4 (of line 4)") || !strings.Contains(r.stderr, "event 6 is missing") {
		t.Fatalf("replay: exit %d\n%s", r.code, r.stderr)
	}
	if r := s.run("logs"); r.code != 0 || !strings.Contains(r.stderr, "repeats event number 4") {
		t.Fatalf("logs: exit %d\n%s", r.code, r.stderr)
	}
}

// replaceLine swaps line n (1-based) of a log.
func replaceLine(t *testing.T, path string, n int, f func(line []byte) []byte) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	lines[n-1] = f(lines[n-1])
	out := bytes.Join(lines, nil)
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}

// Issue 19.2: damage in the middle of a finished log costs only its own
// line. A NUL byte on line 8, or a 100 MB line after it: replay plays to
// the outcome and names the line, logs lists the run as it ended, and
// resume says the run is finished, the file keeping every byte.
func TestDamageInTheMiddleOfAFinishedLog(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		line int
		harm func([]byte) []byte
		want string
	}{
		{"a NUL byte", 8, func(l []byte) []byte { l = bytes.Clone(l); l[len(l)/2] = 0; return l }, "line 8 is not a valid event"},
		{"a 100 MB line", 8, func(l []byte) []byte {
			huge := `{"seq":8,"t":"2026-01-01T00:00:00Z","type":"chunk","data":{"seat":"gemini","text":"` + strings.Repeat("x", 100<<20) + "\"}}\n"
			return append([]byte(huge), l...)
		}, "line 8 is longer than 64 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSandbox(t)
			if r := s.run("--no-tui", "should we move sessions?"); r.code != exitConsensus {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			log := s.logs()[0]
			before, _ := os.ReadFile(log)
			if n := bytes.Count(before, []byte("\n")); n < 20 {
				t.Fatalf("the log has %d lines: too few for damage in its middle", n)
			}
			damaged := replaceLine(t, log, tc.line, tc.harm)
			r := s.run("replay", "--no-tui", log)
			if r.code != 0 || !strings.Contains(r.stdout, "# Debate outcome: consensus") || !strings.Contains(r.stderr, tc.want) {
				t.Fatalf("replay: exit %d\n%s\n%s", r.code, tail(r.stdout, 500), r.stderr)
			}
			if r := s.run("logs"); r.code != 0 || !strings.Contains(r.stdout, "consensus") || !strings.Contains(r.stderr, tc.want) {
				t.Fatalf("logs: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			calls := len(s.fakes.Calls())
			r = s.run("resume", "--no-tui", log)
			if r.code != exitUsage || !strings.Contains(r.stderr, "the run is finished (consensus)") {
				t.Fatalf("resume: exit %d\n%s", r.code, r.stderr)
			}
			if after, _ := os.ReadFile(log); !bytes.Equal(after, damaged) {
				t.Fatalf("the damaged log lost bytes: %d, had %d", len(after), len(damaged))
			}
			if len(s.fakes.Calls()) != calls {
				t.Fatal("a refused resume asked a model")
			}
		})
	}
}

// An interrupted log damaged in its middle resumes from what can be read,
// writing after every byte it had, and says so.
func TestResumeALogDamagedInTheMiddle(t *testing.T) {
	t.Parallel()
	s, log := interruptedDebate(t)
	lc := s.onlyLog()
	// A chunk line in the middle of the run.
	line := 0
	data, _ := os.ReadFile(log)
	for i, l := range bytes.Split(data, []byte("\n")) {
		if i > 2 && bytes.Contains(l, []byte(`"type":"chunk"`)) {
			line = i + 1
			break
		}
	}
	if line == 0 || len(lc.Events) < line+2 {
		t.Fatalf("no chunk line in the middle of the log")
	}
	damaged := replaceLine(t, log, line, func(l []byte) []byte { l = bytes.Clone(l); l[5] = 0; return l })
	r := s.run("resume", "--no-tui", log)
	if r.code != exitConsensus || !strings.Contains(r.stderr, fmt.Sprintf("line %d is not a valid event", line)) || !strings.Contains(r.stderr, "every byte of it is kept") {
		t.Fatalf("exit %d\n%s\n%s", r.code, tail(r.stdout, 300), r.stderr)
	}
	after, _ := os.ReadFile(log)
	if !bytes.HasPrefix(after, damaged) {
		t.Fatal("the resume did not keep the log's bytes")
	}
	if o := outcomeOf(t, s.onlyLog()); o.Result != "consensus" {
		t.Fatalf("outcome %s", o.Result)
	}
}

// Issue 19.3 for logs: a FIFO as a log, or inside the log directory, is
// refused by name at once: replay, resume and ask never wait on it, and
// logs lists it as unreadable.
func TestAFIFOAsALog(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	dir := filepath.Join(s.dir, "debate-logs")
	os.MkdirAll(dir, 0o700)
	fifo := filepath.Join(dir, "20991231-235959.000-fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for _, args := range [][]string{{"replay", "--no-tui", fifo}, {"resume", "--no-tui", fifo}, {"resume", "--yes", fifo}, {"ask", fifo, "why?"}} {
		r := s.run(args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "is a FIFO (named pipe), not a regular file") {
			t.Errorf("%v: exit %d, want 2 naming the FIFO\n%s", args, r.code, r.stderr)
		}
	}
	r := s.run("logs")
	if r.code != 0 || !strings.Contains(r.stdout, "unreadable") || !strings.Contains(r.stderr, "FIFO") {
		t.Errorf("logs: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if r := s.run("resume", "--no-tui"); r.code != exitUsage || !strings.Contains(r.stderr, "no interrupted, aborted or over-budget run") {
		t.Errorf("resume without LOG: exit %d\n%s", r.code, r.stderr)
	}
	if r := s.run("replay", "--no-tui"); r.code != exitUsage {
		t.Errorf("replay without LOG: exit %d\n%s", r.code, r.stderr)
	}
}

// rewriteStart changes the start event of a log (as a hand would).
func rewriteStart(t *testing.T, path string, f func(data map[string]any)) {
	t.Helper()
	replaceLine(t, path, 1, func(l []byte) []byte {
		var e map[string]any
		if err := json.Unmarshal(l, &e); err != nil {
			t.Fatal(err)
		}
		f(e["data"].(map[string]any))
		out, _ := json.Marshal(e)
		return append(out, '\n')
	})
}

// Issue 18.4: a log is data, never a command line. Each hostile
// invocation is refused with exit 2, the log unchanged, nothing sent to
// any model, no file touched.
func TestResumeRefusesAHostileInvocation(t *testing.T) {
	t.Parallel()
	const secret = "-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET-KEY-MATERIAL-7f3a\n"
	victim := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", victim).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	hook := filepath.Join(victim, ".git", "hooks", "pre-push")
	os.MkdirAll(filepath.Dir(hook), 0o755)
	os.WriteFile(hook, []byte("#!/bin/sh\necho the victim's own hook\n"), 0o755)
	cases := hostileInvocations(secret, victim)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, log := interruptedDebate(t)
			os.MkdirAll(filepath.Dir(keyPath(s)), 0o700)
			os.WriteFile(keyPath(s), []byte(secret), 0o600)
			rewriteStart(t, log, func(d map[string]any) { tc.edit(s, log, d) })
			before, _ := os.ReadFile(log)
			calls := len(s.fakes.Calls())
			r := s.run("resume", "--no-tui", log)
			want := strings.ReplaceAll(tc.want, "KEY", keyPath(s))
			if r.code != exitUsage || !strings.Contains(r.stderr, want) {
				t.Fatalf("exit %d, want 2 saying %q\n%s", r.code, want, r.stderr)
			}
			checkRefusedResumeDidNothing(t, s, log, before, calls, hook)
		})
	}
	// A log that is not signed here runs with --yes, after saying what it
	// runs.
	t.Run("unsigned with --yes", func(t *testing.T) {
		t.Parallel()
		s, log := interruptedDebate(t)
		rewriteStart(t, log, func(d map[string]any) { delete(d["invocation"].(map[string]any), "mac") })
		r := s.run("resume", "--no-tui", "--yes", log)
		if r.code != exitConsensus || !strings.Contains(r.stderr, "NOT written by arena on this machine") || !strings.Contains(r.stderr, "schema.sql") {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
	})
}

// checkRefusedResumeDidNothing checks that a refused resume left the log
// as it was (before), asked no model anything after the first calls
// (version checks aside), sent no key, and left the victim's hook alone.
func checkRefusedResumeDidNothing(t *testing.T, s *sandbox, log string, before []byte, calls int, hook string) {
	t.Helper()
	if after, _ := os.ReadFile(log); !bytes.Equal(after, before) {
		t.Fatal("a refused resume changed the log")
	}
	for _, c := range s.fakes.Calls()[calls:] {
		if c.Kind != fakeapi.KindVersion {
			t.Fatalf("a refused resume asked %s (%s)", c.Agent, c.Kind)
		}
	}
	for _, c := range s.fakes.Calls() {
		if strings.Contains(c.Prompt, "SECRET-KEY-MATERIAL") {
			t.Fatal("the key reached a model")
		}
	}
	if b, _ := os.ReadFile(hook); !strings.Contains(string(b), "the victim's own hook") {
		t.Fatal("the victim's hook was replaced")
	}
}

func keyPath(s *sandbox) string { return filepath.Join(s.home, ".ssh", "id_ed25519") }

var _ = engine.LogVersion

// arena resume --dry-run shows what the resumed run's seats would receive
// and calls no model; the log is left as it was.
func TestResumeDryRun(t *testing.T) {
	t.Parallel()
	s, log := interruptedDebate(t)
	before, _ := os.ReadFile(log)
	calls := len(s.fakes.Calls())
	r := s.run("resume", "--dry-run", "--no-tui", log)
	if r.code != 0 || !strings.Contains(r.stdout+r.stderr, "schema.sql") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if after, _ := os.ReadFile(log); !bytes.Equal(after, before) {
		t.Fatal("a dry run changed the log")
	}
	if len(s.fakes.Calls()) != calls {
		t.Fatal("a dry run asked a model")
	}
}

// TestAContradictoryLogIsNamed (issue 29 item 8): a finished log with a
// second start claiming another protocol and a second outcome appended:
// replay, logs and stats take the run the first start began, its first
// outcome, and say what they ignored.
func TestAContradictoryLogIsNamed(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	if r := s.run("--no-tui", "a topic"); r.code != exitConsensus {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	log := s.logs()[0]
	lc := mustRead(t, log)
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range []engine.Payload{
		engine.DebateStarted{Version: engine.LogVersion, Protocol: "compare", Topic: "a forged topic", Seats: []engine.Seat{{Name: "x", Agent: "x"}}},
		engine.Outcome{Result: engine.OutcomeAborted, Summary: "a forged outcome", Markdown: "# A forged outcome"},
	} {
		b, _ := json.Marshal(engine.Event{Seq: lc.LastSeq + int64(i) + 1, Time: time.Now(), Payload: p})
		f.Write(append(b, '\n'))
	}
	f.Close()
	lines := lc.Lines
	r := s.run("replay", "--no-tui", log)
	if r.code != 0 || strings.Contains(r.stdout, "forged") || !strings.Contains(r.stdout, "# Debate outcome: consensus") {
		t.Errorf("replay: exit %d\n%s", r.code, tail(r.stdout, 1500))
	}
	named := fmt.Sprintf("the log contradicts itself: line %d starts another run (a compare run, \"a forged topic\") after the one started on line 1, and 1 more events contradict the run; they were ignored", lines+1)
	if !strings.Contains(r.stderr, named) {
		t.Errorf("replay does not name what it ignored:\n%s", r.stderr)
	}
	r = s.run("logs")
	if r.code != 0 || !strings.Contains(r.stdout, "consensus") || strings.Contains(r.stdout, "aborted") || strings.Contains(r.stdout, "compare") {
		t.Errorf("logs shows the forged run: exit %d\n%s", r.code, r.stdout)
	}
	if !strings.Contains(r.stderr, named) {
		t.Errorf("logs does not name what it ignored:\n%s", r.stderr)
	}
	if r = s.run("stats"); r.code != 0 || !strings.Contains(r.stderr, named) {
		t.Errorf("stats: exit %d, does not name what it ignored:\n%s", r.code, r.stderr)
	}
}

// hostileInvocation is a log's start event edited by hand, and what
// arena resume says refusing it.
type hostileInvocation struct {
	name string
	edit func(s *sandbox, log string, d map[string]any)
	want string
}

// hostileInvocations are TestResumeRefusesAHostileInvocation's cases: a
// key given as context, a hook, a resume of itself, a configuration, as
// an older arena's command line and as a request.
func hostileInvocations(secret, victim string) []hostileInvocation {
	// As an older arena recorded a run: its command line (the
	// compatibility reader's), or as this one does: its typed request.
	args := func(d map[string]any, args ...any) map[string]any {
		inv := d["invocation"].(map[string]any)
		delete(inv, "request")
		delete(inv, "settings")
		inv["args"] = args
		return inv
	}
	request := func(d map[string]any) map[string]any {
		return d["invocation"].(map[string]any)["request"].(map[string]any)
	}
	return []hostileInvocation{
		{"a key as context", func(s *sandbox, log string, d map[string]any) {
			args(d, "--context", keyPath(s), "topic")
		}, "context " + "KEY" + ": the run this log records attached no such file"},
		{"a key as context, in the request", func(s *sandbox, log string, d map[string]any) {
			request(d)["context"] = []any{keyPath(s)}
		}, "context " + "KEY" + ": the run this log records attached no such file"},
		{"a key as context, listed as attached", func(s *sandbox, log string, d map[string]any) {
			args(d, "--no-tui", "--context", keyPath(s), "should we move sessions?")
			d["context"] = []any{map[string]any{"name": keyPath(s), "bytes": len(secret)}}
		}, "was not written by arena on this machine"},
		{"a hook installed", func(s *sandbox, log string, d map[string]any) {
			args(d, "verdict", "--install-hook", "--force")["dir"] = victim
		}, `it runs "arena verdict", and the run this log records (adversarial) is started by "arena" or "arena debate" only`},
		{"a hook installed by a verdict log", func(s *sandbox, log string, d map[string]any) {
			args(d, "verdict", "--install-hook", "--force")["dir"] = victim
			d["protocol"] = "verdict"
		}, "--install-hook: not a flag a verdict run records (a resume never installs a hook)"},
		{"a hook in the request", func(s *sandbox, log string, d map[string]any) {
			request(d)["install_hook"] = true
		}, `its request is not one of the adversarial protocol's: json: unknown field "install_hook"`},
		{"a configuration in the request", func(s *sandbox, log string, d map[string]any) {
			request(d)["config"] = "README.md"
		}, `its request is not one of the adversarial protocol's: json: unknown field "config"`},
		{"a resume of itself", func(s *sandbox, log string, d map[string]any) {
			args(d, "resume", log)
		}, `it runs "arena resume"`},
		{"a resume of itself, flags first", func(s *sandbox, log string, d map[string]any) {
			args(d, "--timeout", "5s", "resume", "--yes", log)
		}, `it runs "arena resume"`},
		{"its signature gone", func(s *sandbox, log string, d map[string]any) {
			delete(d["invocation"].(map[string]any), "mac")
		}, "resume it with --yes if that is what you want"},
	}
}
