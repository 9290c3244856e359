package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine/runlog"
)

// arena export, from the built binary: every demo (the five protocols)
// as a page, as its outcome document and as JSON; a fresh debate's log
// too; and -o never writes over a file or through a link.
func TestExportEveryProtocol(t *testing.T) {
	s := newSandbox(t)
	if r := s.run("--no-tui", "--max-rounds", "1", "should we export?"); r.code != exitConsensus {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	demos, _ := filepath.Glob("../../engine/demo/*.jsonl")
	logs := append(s.logs(), demos...)
	if len(logs) != 6 {
		t.Fatalf("%d logs", len(logs))
	}
	for _, log := range logs {
		log, _ = filepath.Abs(log)
		page := filepath.Join(s.dir, filepath.Base(log)+".html")
		if r := s.run("export", log, "-o", page); r.code != 0 || r.stdout != "" {
			t.Fatalf("export %s: exit %d\n%s", log, r.code, r.stderr)
		}
		b, _ := os.ReadFile(page)
		if !strings.HasPrefix(string(b), "<!DOCTYPE html>") || !strings.Contains(string(b), "default-src &#39;none&#39;") || strings.Contains(string(b), "<script") {
			t.Errorf("%s: not a page without script:\n%.300s", log, b)
		}
		md := s.run("export", log, "--md")
		lc, err := runlog.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		if o := outcomeOf(t, lc); md.code != 0 || !strings.HasPrefix(md.stdout, strings.TrimRight(o.Markdown, "\n")) {
			t.Errorf("%s --md: exit %d, %.200q", log, md.code, md.stdout)
		}
		js := s.run("export", log, "--json")
		var run struct {
			Protocol string
			Seats    []struct{ Agent string }
			Phases   []struct{ Items []json.RawMessage }
		}
		if err := json.Unmarshal([]byte(js.stdout), &run); err != nil || js.code != 0 || run.Protocol == "" || len(run.Seats) == 0 || len(run.Phases) == 0 {
			t.Errorf("%s --json: exit %d, %v", log, js.code, err)
		}
		if r := s.run("export", log, "-o", page); r.code != exitUsage || !strings.Contains(r.stderr, "exists") {
			t.Errorf("-o over an existing file: exit %d\n%s", r.code, r.stderr)
		}
	}
	target := filepath.Join(s.dir, "target.html")
	link := filepath.Join(s.dir, "link.html")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if r := s.run("export", demos[0], "-o", link); r.code == 0 {
		t.Errorf("-o through a symbolic link: exit 0")
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("the link's target was written")
	}
	if r := s.run("export", demos[0], "--md", "--json"); r.code != exitUsage {
		t.Errorf("two formats: exit %d", r.code)
	}
	if r := s.run("export", filepath.Join(s.dir, "nothing.jsonl")); r.code != exitUsage || !strings.Contains(r.stderr, "no such file") {
		t.Errorf("no such log: exit %d\n%s", r.code, r.stderr)
	}
}

// arena serve, from the built binary: it listens on loopback only, holds
// its token file to arena mcp's rules, prints the URL that carries the
// token, and answers the list with the cookie it sets.
func TestServeFromTheBinary(t *testing.T) {
	s := newSandbox(t)
	dir := filepath.Join(s.dir, "logs")
	os.MkdirAll(dir, 0o700)
	demo, _ := os.ReadFile("../../engine/demo/compare.jsonl")
	os.WriteFile(filepath.Join(dir, "compare.jsonl"), demo, 0o600)
	if r := s.run("serve", dir, "--addr", "0.0.0.0:0"); r.code != exitUsage || !strings.Contains(r.stderr, "loopback") {
		t.Errorf("--addr 0.0.0.0: exit %d\n%s", r.code, r.stderr)
	}
	open := filepath.Join(s.dir, "open-token")
	os.WriteFile(open, []byte(strings.Repeat("a", 40)), 0o644)
	if r := s.run("serve", dir, "--addr", "127.0.0.1:0", "--token-file", open); r.code != exitUsage || !strings.Contains(r.stderr, "chmod 600") {
		t.Errorf("a token file others can read: exit %d\n%s", r.code, r.stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, arenaBinary(t), "serve", dir, "--addr", "127.0.0.1:0")
	cmd.Dir, cmd.Env = s.dir, s.env()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	url := strings.TrimSpace(strings.TrimPrefix(line, "arena serve: "))
	if err != nil || !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.Contains(url, "/?token=") {
		t.Fatalf("arena serve said %q (%v)", line, err)
	}
	go io.Copy(io.Discard, stderr)
	base := url[:strings.Index(url, "/?token=")]
	if resp, err := http.Get(base + "/"); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without the token: %v %v", resp, err)
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "Which queue should carry our order events?") {
		t.Errorf("with the token: %d\n%.300s", resp.StatusCode, body)
	}
	tok, err := os.ReadFile(filepath.Join(s.home, ".local/state/arena/serve-token"))
	if st, _ := os.Stat(filepath.Join(s.home, ".local/state/arena/serve-token")); err != nil || st.Mode().Perm() != 0o600 || !strings.Contains(url, strings.TrimSpace(string(tok))) {
		t.Errorf("the token file: %v %v", st, err)
	}
}
