package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/engine/runlog"
)

// TestMissingLogDirIsCreated: a log directory that does not exist yet,
// several levels deep, is created (0700) and the debate is saved in it.
func TestMissingLogDirIsCreated(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	dir := filepath.Join(s.dir, "not", "there", "yet")
	r := s.run("--no-tui", "--log-dir", dir, "a topic")
	if r.code != exitConsensus {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 {
		t.Fatalf("log directory: %v %v", st, err)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("%d logs in %s", len(logs), dir)
	}
	lc, err := runlog.ReadFile(logs[0])
	if err != nil || !lc.Complete {
		t.Fatalf("log: %v, complete %v", err, lc.Complete)
	}
	assertReplays(t, s, logs[0])
}

// TestUnwritableLogDirStopsBeforeAnyAgent: a log directory that cannot be
// written is a clear error (exit 2) before the debate starts, and no
// agent runs. Permission bits do not stop root, so root gets the cases
// that stop everyone (an immutable directory, a read-only mount) and the
// permission case is skipped.
func TestUnwritableLogDirStopsBeforeAnyAgent(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, s *sandbox) string // returns the --log-dir
	}{
		{"a-regular-file", func(t *testing.T, s *sandbox) string {
			p := filepath.Join(s.dir, "logs")
			os.WriteFile(p, []byte("not a directory"), 0o600)
			return p
		}},
		{"no-write-permission", func(t *testing.T, s *sandbox) string {
			if os.Geteuid() == 0 {
				t.Skip("running as root, which permission bits do not stop; the immutable and read-only cases cover root")
			}
			p := filepath.Join(s.dir, "logs")
			os.Mkdir(p, 0o500)
			t.Cleanup(func() { os.Chmod(p, 0o700) })
			return p
		}},
		{"immutable-directory", func(t *testing.T, s *sandbox) string {
			p := filepath.Join(s.dir, "logs")
			os.Mkdir(p, 0o700)
			if out, err := exec.Command("chattr", "+i", p).CombinedOutput(); err != nil {
				t.Skipf("cannot make a directory immutable here (chattr +i needs root and a file system that supports it): %v %s", err, bytes.TrimSpace(out))
			}
			t.Cleanup(func() { exec.Command("chattr", "-i", p).Run() })
			return p
		}},
		{"read-only-mount", func(t *testing.T, s *sandbox) string {
			p := filepath.Join(s.dir, "ro")
			os.Mkdir(p, 0o700)
			mountTmpfs(t, p, "ro,size=64k")
			return filepath.Join(p, "logs")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newFaultSandbox(t)
			dir := tc.setup(t, s)
			r := s.run("--no-tui", "--log-dir", dir, "a topic")
			if r.code != exitUsage {
				t.Fatalf("exit %d, want %d\n%s\n%s", r.code, exitUsage, tail(r.stdout, 2000), r.stderr)
			}
			if !strings.Contains(r.stderr, "cannot save the debate log in "+dir) || !strings.Contains(r.stderr, "--no-log") {
				t.Errorf("unclear error: %q", r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("the debate started: %q", tail(r.stdout, 500))
			}
			if n := len(s.fakes.Calls()); n != 0 {
				t.Errorf("%d agent calls despite the unwritable log directory", n)
			}
			assertNothingLeft(t, s, 3*time.Second)
		})
	}
}

// mountTmpfs mounts a tmpfs with the given options on dir for the rest of
// the test, or skips the test when this process may not mount.
func mountTmpfs(t *testing.T, dir, opts string) {
	t.Helper()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Skipf("cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): %v %s", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
}

// fillingScript makes the log grow fast in the middle of the debate: the
// defender streams its opening in many small pieces behind a long
// preamble, which goes to the log (as chunks, and in the finished text)
// but into no later prompt.
func fillingScript(preamble int) *clitest.Script {
	return &clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": {Steps: map[string][]clitest.Step{"opening": {{
			Prose: strings.Repeat("Thinking about sessions and their write load. ", preamble/10)[:preamble], Chunks: 120, DelayMS: 2,
		}}}},
	}}
}

var rescuedRE = regexp.MustCompile(`the (\d+) events not written there were saved to (\S+)`)

// checkLostNothing checks what arena says and leaves after the log
// filled up mid-debate: a warning naming the problem, the result printed
// anyway, and every event either in the log or in the rescue file, which
// replays on its own.
func checkLostNothing(t *testing.T, s *sandbox, stdout, stderr, logDir, why string) (rescued string) {
	t.Helper()
	if !strings.Contains(stdout, "# Debate outcome: consensus") || !strings.Contains(stdout, "Consensus in round 1") {
		t.Errorf("the debate result was not printed:\n%s", tail(stdout, 2000))
	}
	if !strings.Contains(stderr, "could not be fully written") || !strings.Contains(stderr, why) {
		t.Errorf("no clear warning about the log: %q", stderr)
	}
	m := rescuedRE.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("the events that could not be written were not saved elsewhere: %q", stderr)
	}
	rescued = m[2]
	logs, _ := filepath.Glob(filepath.Join(logDir, "*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("%d logs", len(logs))
	}
	head, err := runlog.ReadFile(logs[0])
	if err != nil || len(head.Events) == 0 || head.Complete {
		t.Fatalf("the log in the full directory: %v, %d events, complete %v", err, len(head.Events), head.Complete)
	}
	// Every complete event, and nothing of the one that did not fit
	// (issue 29: the write that failed is cut back to the last whole
	// event).
	if head.Problem != "" {
		t.Errorf("the log in the full directory ends in a broken line: %s", head.Problem)
	}
	rest, err := runlog.ReadFile(rescued)
	if err != nil || !rest.Complete || rest.Problem != "" {
		t.Fatalf("the rescued events %s do not read back as a log: %v, complete %v, problem %q", rescued, err, rest.Complete, rest.Problem)
	}
	// The log and the rescue file together hold every event exactly once
	// (the rescue file repeats the debate_started event so that it
	// replays on its own).
	var seqs []int64
	for _, e := range head.Events {
		seqs = append(seqs, e.Seq)
	}
	for i, e := range rest.Events {
		if i == 0 && e.Kind() == engine.KindDebateStarted && len(head.Events) > 0 && e.Seq == head.Events[0].Seq {
			continue
		}
		seqs = append(seqs, e.Seq)
	}
	for i, seq := range seqs {
		if seq != int64(i+1) {
			t.Fatalf("events lost or repeated: the log has %d..%d, the rescue file continues with %d (event %d of %d)",
				head.Events[0].Seq, head.Events[len(head.Events)-1].Seq, seq, i+1, len(seqs))
		}
	}
	if want := fmt.Sprintf("%d", len(rest.Events)); m[1] != want && m[1] != fmt.Sprintf("%d", len(rest.Events)-1) {
		t.Errorf("the warning counts %s events, the file holds %d", m[1], len(rest.Events))
	}
	o := outcomeOf(t, rest)
	if o.Result != engine.OutcomeKind("consensus") {
		t.Errorf("rescued outcome %s", o.Result)
	}
	assertReplays(t, s, rescued, o.Summary)
	// The log itself replays up to its last complete event.
	r := s.run("replay", "--no-tui", logs[0])
	if r.code != 0 || !strings.Contains(r.stderr, "the log ends") {
		t.Errorf("replay of the cut log: exit %d %q", r.code, r.stderr)
	}
	return rescued
}

// TestFullDiskMidDebate: the log directory is on a tiny tmpfs that fills
// up during the debate. The debate goes on to its result, arena warns,
// and what could not be written is saved elsewhere; the outcome document,
// which does not fit either, is not left behind half written.
func TestFullDiskMidDebate(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	logDir := nearlyFullDisk(t, s)
	tmp := t.TempDir()
	r := s.runWithEnv([]string{"TMPDIR=" + tmp}, "--no-tui", "--log-dir", logDir, "should we move sessions from Redis to Postgres?")
	if r.code != exitConsensus {
		t.Fatalf("exit %d\n%s\n%s", r.code, tail(r.stdout, 3000), r.stderr)
	}
	rescued := checkLostNothing(t, s, r.stdout, r.stderr, logDir, "no space left on device")
	if filepath.Dir(rescued) != tmp {
		t.Errorf("rescued to %s, not the temporary directory %s", rescued, tmp)
	}
	// The outcome document did not fit: arena says so, and leaves no
	// empty or truncated file that looks like it.
	if !strings.Contains(r.stdout, "could not save the outcome document") {
		t.Errorf("no word about the outcome document:\n%s", tail(r.stdout, 2000))
	}
	if mds, _ := filepath.Glob(filepath.Join(logDir, "*.md")); len(mds) != 0 {
		t.Errorf("a partial outcome document was left behind: %v", mds)
	}
	if strings.Contains(r.stdout, "Outcome document:") {
		t.Error("the output points at an outcome document that was not saved")
	}
	assertNothingLeft(t, s, 5*time.Second)
}

// TestLogFileSizeLimitMidDebate: the same with RLIMIT_FSIZE on arena (no
// root needed): Go ignores SIGXFSZ, so a write past the limit fails with
// EFBIG. Every file arena and the agents write is limited, the rescue file
// too, so the limit is chosen for the log to cross it mid-debate and the
// rest to fit in the rescue file.
func TestLogFileSizeLimitMidDebate(t *testing.T) {
	t.Parallel()
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("prlimit (util-linux) is not installed")
	}
	s := newFaultSandbox(t)
	// The log of this debate is about 90 KB, 28 KiB of it in the
	// opening's finished reply, which starts about 41 KB in: the log
	// crosses the limit there, and the rest (about 50 KB) fits in the
	// rescue file.
	s.fakes.SetScript(fillingScript(28 << 10))
	tmp := t.TempDir()
	const limit = 64 << 10
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, prlimit, append([]string{fmt.Sprintf("--fsize=%d:%d", limit, limit), arenaBinary(t)},
		"--no-tui", "should we move sessions from Redis to Postgres?")...)
	cmd.Dir, cmd.Env = s.dir, append(s.env(), "TMPDIR="+tmp)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	if code := exitCodeOf(err); code != exitConsensus {
		t.Fatalf("exit %d\n%s\n%s", code, tail(stdout.String(), 3000), stderr.String())
	}
	checkLostNothing(t, s, stdout.String(), stderr.String(), filepath.Join(s.dir, "debate-logs"), "file too large")
	// The outcome document is small and fits under the limit.
	rescued := mustRead(t, rescuedRE.FindStringSubmatch(stderr.String())[2])
	o, doc := outcomeOf(t, rescued), enginetest.Document(rescued)
	if md, err := os.ReadFile(filepath.Join(s.dir, doc)); doc == "" || err != nil || string(md) != o.Markdown {
		t.Errorf("outcome document %q: %v", doc, err)
	}
	assertNothingLeft(t, s, 5*time.Second)
}

func mustRead(t *testing.T, path string) runlog.Contents {
	t.Helper()
	lc, err := runlog.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return lc
}

// nearlyFullDisk mounts a 64 KiB tmpfs with 16 KiB left, enough for the
// start of a debate but not for the opening's stream (fillingScript makes
// replies long enough), and returns a log directory on it.
func nearlyFullDisk(t *testing.T, s *sandbox) string {
	t.Helper()
	disk := filepath.Join(s.dir, "disk")
	os.Mkdir(disk, 0o700)
	mountTmpfs(t, disk, "size=64k")
	if err := os.WriteFile(filepath.Join(disk, "filler"), make([]byte, 48<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	s.fakes.SetScript(fillingScript(24 << 10))
	return filepath.Join(disk, "logs")
}
