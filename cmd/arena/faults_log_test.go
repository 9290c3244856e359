package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
)

// Tests of issue 29 items 2 and 3: a log deleted during its run is not
// lost, and an append to a log on a full disk is whole or absent.

// TestALogDeletedDuringItsRunIsWrittenAgain: while the challengers
// stream (held before their last piece), the log is unlinked, or its whole
// directory removed; the run ends with the log back at its path, every
// event in it, and says so.
func TestALogDeletedDuringItsRunIsWrittenAgain(t *testing.T) {
	t.Parallel()
	for name, remove := range map[string]func(log string) error{
		"unlinked":          os.Remove,
		"directory-removed": func(log string) error { return os.RemoveAll(filepath.Dir(log)) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFaultSandbox(t)
			s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
				"gemini": {Hold: "go"}, "codex": {Hold: "go"}, "qwen": {Hold: "go"},
			}})
			cmd, out := s.start("--no-tui", "a topic")
			waitForCall(t, s, "gemini", "critique")
			logs := s.logs()
			if len(logs) != 1 {
				t.Fatalf("logs %v", logs)
			}
			if err := remove(logs[0]); err != nil {
				t.Fatal(err)
			}
			s.fakes.Release("go")
			if code := exitCodeOf(cmd.Wait()); code != exitConsensus {
				t.Fatalf("exit %d\n%s", code, tail(out.String(), 2000))
			}
			lc := mustRead(t, logs[0])
			if !lc.Complete || lc.Problem != "" || len(lc.Sequence) != 0 || lc.Events[0].Seq != 1 {
				t.Errorf("the log written again: complete %v, problem %q, sequence %q", lc.Complete, lc.Problem, lc.Sequence)
			}
			if want := "the debate log was deleted during the run; arena wrote it again, with every event, at debate-logs/" + filepath.Base(logs[0]); !strings.Contains(out.String(), want) {
				t.Errorf("arena does not say it wrote the log again:\n%s", tail(out.String(), 1500))
			}
			assertReplays(t, s, logs[0])
		})
	}
}

// TestLabelOnAFullDiskLeavesTheLogAsItWas: the case, a label
// with a long note on a full disk: it used to leave half a line (66,973
// to 69,632 bytes, to the end of the file's last page), and every later
// label refused the log. Now the log is byte for byte as it was, the
// command says the disk is full, and once there is room a label works.
func TestLabelOnAFullDiskLeavesTheLogAsItWas(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	disk := filepath.Join(s.dir, "disk")
	os.Mkdir(disk, 0o700)
	mountTmpfs(t, disk, "size=1m")
	if r := s.run("--no-tui", "--log-dir", filepath.Join(disk, "logs"), "a topic"); r.code != exitConsensus {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	logs, _ := filepath.Glob(filepath.Join(disk, "logs", "*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("logs %v", logs)
	}
	before, _ := os.ReadFile(logs[0])
	filler := fillDisk(t, disk)
	note := strings.Repeat("the migration is the hard part ", 400)
	r := s.run("label", logs[0], "accept", "--note", note)
	if r.code == 0 || !strings.Contains(r.stderr, "the disk is full") || !strings.Contains(r.stderr, "nothing was recorded, and the log is as it was") {
		t.Errorf("label on a full disk: exit %d\n%s", r.code, r.stderr)
	}
	if after, _ := os.ReadFile(logs[0]); !bytes.Equal(after, before) {
		t.Fatalf("the log went from %d to %d bytes", len(before), len(after))
	}
	os.Remove(filler)
	if r := s.run("label", logs[0], "accept", "--note", note); r.code != 0 {
		t.Errorf("a label once there is room: exit %d\n%s", r.code, r.stderr)
	}
}

// fillDisk writes a file on the disk holding dir until it is full, and
// returns its path.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	page := make([]byte, 4096)
	for {
		if _, err := f.Write(page); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return path
		}
	}
}
