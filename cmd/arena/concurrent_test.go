package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/engine/runlog"
)

// TestConcurrentRunsOfOneTopic: eight debates of one topic started at
// once into one log directory, as a script or a CI matrix starts them.
// Log names used to carry only the second, so all but one asked for a
// file that already existed, and exited 2. Each must now get a log and an
// outcome document of its own and exit with its own outcome's code. The
// runs end three different ways (consensus, tradeoff, abort), each with
// its own fakes, so that a run reporting another run's log or outcome
// would show.
func TestConcurrentRunsOfOneTopic(t *testing.T) {
	const runs = 8
	const topic = "should we move sessions from Redis to Postgres?"
	work := t.TempDir() // the runs' shared working directory
	logDir := filepath.Join(work, "debate-logs")
	scripts := []struct {
		script *clitest.Script
		want   engine.OutcomeKind
	}{
		{nil, engine.OutcomeKind("consensus")},
		{fiveRoundScript(), engine.OutcomeKind("tradeoff")},
		{&clitest.Script{Agents: map[string]clitest.AgentScript{
			"gemini": {Mode: clitest.ModeCrash}, "codex": {Mode: clitest.ModeCrash}, "qwen": {Mode: clitest.ModeCrash},
		}}, engine.OutcomeAborted},
	}
	all := make([]*concurrentRun, runs)
	for i := range all {
		sc := scripts[i%len(scripts)]
		s := newSandbox(t) // its own fakes, call counters and home
		s.fakes.SetScript(sc.script)
		r := &concurrentRun{want: sc.want, cmd: exec.Command(arenaBinary(t), "--json", topic)}
		r.cmd.Dir, r.cmd.Env = work, s.env()
		r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
		all[i] = r
	}
	// Everything is made ready first, so the eight starts follow one
	// another within a few milliseconds.
	var wg sync.WaitGroup
	for _, r := range all {
		if err := r.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.cmd.Process.Kill() })
	}
	for _, r := range all {
		wg.Go(func() { r.code = exitCodeOf(r.cmd.Wait()) })
	}
	wg.Wait()

	logs, reports := map[string]bool{}, map[string]bool{}
	for i, r := range all {
		if log, doc, ok := r.check(t, i, work); ok {
			logs[log], reports[doc] = true, true
		}
	}
	if len(logs) != runs || len(reports) != runs {
		t.Errorf("%d runs reported %d distinct logs and %d distinct outcome documents", runs, len(logs), len(reports))
	}
	onDisk, _ := filepath.Glob(filepath.Join(logDir, "*.jsonl"))
	docs, _ := filepath.Glob(filepath.Join(logDir, "*.md"))
	if len(onDisk) != runs || len(docs) != runs {
		t.Errorf("the log directory holds %d logs and %d outcome documents, want %d of each: %q", len(onDisk), len(docs), runs, append(onDisk, docs...))
	}
	for _, p := range onDisk {
		t.Log(filepath.Base(p))
	}
}

// concurrentRun is one of TestConcurrentRunsOfOneTopic's runs.
type concurrentRun struct {
	want           engine.OutcomeKind
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	code           int
}

// check checks that run i, in the shared directory work, ended its own
// way and saved its own log and outcome document, whose paths it returns.
func (r *concurrentRun) check(t *testing.T, i int, work string) (log, doc string, ok bool) {
	t.Helper()
	lc, err := runlog.Read(strings.NewReader(r.stdout.String()))
	if err != nil || !lc.Complete {
		t.Errorf("run %d: exit %d, no complete event stream on stdout (%v %s)\nstderr:\n%s", i, r.code, err, lc.Problem, r.stderr.String())
		return "", "", false
	}
	o := outcomeOf(t, lc)
	if o.Result != r.want {
		t.Errorf("run %d: outcome %s, want %s (its own fakes')", i, o.Result, r.want)
	}
	if want := newApp(nil, io.Discard, io.Discard).rootExits().Code(o.Result); r.code != want {
		t.Errorf("run %d: exit %d, but its outcome %s means exit %d\nstderr:\n%s", i, r.code, o.Result, want, r.stderr.String())
	}
	// What the run says it saved is there, whole, and is its own.
	saved, err := runlog.ReadFile(filepath.Join(work, o.LogPath))
	if err != nil || !saved.Complete || outcomeOf(t, saved).Result != o.Result || len(saved.Events) != len(lc.Events) {
		t.Errorf("run %d: its log %s does not hold its debate (%v)", i, o.LogPath, err)
	}
	doc = enginetest.Document(lc)
	if md, err := os.ReadFile(filepath.Join(work, doc)); err != nil || string(md) != o.Markdown {
		t.Errorf("run %d: its outcome document %s: %v", i, doc, err)
	}
	if want := strings.TrimSuffix(o.LogPath, ".jsonl") + ".md"; doc != want {
		t.Errorf("run %d: outcome document %s, want %s (named after the log)", i, doc, want)
	}
	return o.LogPath, doc, true
}
