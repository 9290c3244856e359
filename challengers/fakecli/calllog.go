package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
)

// maxLoggedPrompt bounds the prompt text kept in the log; longer prompts
// are recorded by length and hash only, which is what a test of a 1 MiB
// prompt needs, and keeps each log line small enough to append atomically.
const maxLoggedPrompt = 64 << 10

// record is one invocation's log entry.
type record struct {
	fakeapi.Call
}

func newCall(agent string, args []string) *record {
	cwd, _ := os.Getwd()
	r := &record{fakeapi.Call{
		Agent:       agent,
		Argv0:       os.Args[0],
		Argv:        append([]string{}, args...),
		Index:       -1,
		Cwd:         cwd,
		StdinIsTTY:  stdinIsTTY(),
		StdoutIsTTY: stdoutIsTTY(),
		PID:         os.Getpid(),
		PPID:        os.Getppid(),
		PGID:        syscall.Getpgrp(),
		Env:         loggedEnv(),
	}}
	r.setPrompt("")
	return r
}

func (r *record) setPrompt(p string) {
	sum := sha256.Sum256([]byte(p))
	r.PromptLen, r.PromptSHA256 = len(p), hex.EncodeToString(sum[:])
	r.Prompt = ""
	if len(p) < maxLoggedPrompt {
		r.Prompt = p
	}
}

// loggedEnv is the part of the environment tests assert on: the fakes'
// own settings, gemini's, the API keys a CLI logs in with and how it
// reaches its model (whether a seat got them through an MCP host), and
// the terminal type.
func loggedEnv() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "ARENA_") || strings.HasPrefix(k, "GEMINI_") || strings.HasSuffix(k, "_API_KEY") || k == "TERM" || network(k) {
			env[k] = v
		}
	}
	return env
}

// network is whether a variable says how a CLI reaches its model: a
// proxy, a certificate authority, a base URL (whether a seat got them
// through an MCP host).
func network(k string) bool {
	return strings.HasSuffix(strings.ToUpper(k), "_PROXY") || strings.HasSuffix(k, "_BASE_URL") || strings.Contains(k, "_CERT")
}

// logCall appends r to calls.jsonl in $ARENA_FAKE_LOG. The line goes out
// in a single write to a file opened O_APPEND, so the lines of fakes
// running at the same time never interleave.
func logCall(r *record) {
	dir := os.Getenv(fakeapi.EnvLog)
	if dir == "" {
		return
	}
	r.Time = time.Now().UTC().Format(time.RFC3339Nano)
	err := os.MkdirAll(dir, 0o755)
	var f *os.File
	if err == nil {
		f, err = os.OpenFile(filepath.Join(dir, fakeapi.CallLogFile), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	}
	if err == nil {
		_, err = f.Write(append(encode(r), '\n'))
		f.Close()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakecli: logging call: %v\n", err)
	}
}
