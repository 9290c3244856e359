// Package fakeapi is the contract between the fake model CLIs built from
// challengers/fakecli and the tests that drive them: the environment
// variables the fakes read, the JSON script that tells them what to answer,
// and the JSON lines they record for every invocation.
//
// It lives apart from the fake (a main package) and from clitest (which
// imports testing) so both sides can share one definition of the schema.
package fakeapi

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Environment variables read by the fakes.
const (
	// EnvScript names the JSON script file (a Script). Without it every
	// call gets a canned reply for its kind.
	EnvScript = "ARENA_FAKE_SCRIPT"
	// EnvState names the directory holding per-call counters and the
	// grandchild pid files. Default: "<script>.state" beside the script.
	EnvState = "ARENA_FAKE_STATE"
	// EnvLog names a directory; every invocation appends a Call to
	// calls.jsonl in it.
	EnvLog = "ARENA_FAKE_LOG"
	// EnvAgent overrides the agent name (normally the executable's base
	// name) used for the script, the counters and the log, to tell apart
	// two configured agents that run the same CLI.
	EnvAgent = "ARENA_FAKE_AGENT"
)

// CallLogFile is the file in the EnvLog directory that holds the calls.
const CallLogFile = "calls.jsonl"

// Mode says how a fake behaves on one call.
type Mode string

const (
	// ModeOK streams the reply in the CLI's format and exits successfully.
	ModeOK Mode = "ok"
	// ModeSlow is ModeOK with a long pause between chunks (delay_ms,
	// default 1 s).
	ModeSlow Mode = "slow"
	// ModeHang prints the start of the stream and the first chunk, then
	// sleeps forever.
	ModeHang Mode = "hang"
	// ModeHangSilent prints nothing and sleeps forever.
	ModeHangSilent Mode = "hang-silent"
	// ModeCrash prints about half the stream, ends on a partial line and
	// exits with status 2 without a result.
	ModeCrash Mode = "crash"
	// ModeGarbage prints the start of the stream, then lines that are not
	// JSON or are truncated JSON, and exits 0 without a result.
	ModeGarbage Mode = "garbage"
	// ModeBinary writes random bytes (invalid UTF-8, NULs, escape
	// sequences) and exits 0.
	ModeBinary Mode = "binary"
	// ModeFlood writes FloodBytes of reply text as fast as it can, then
	// finishes normally.
	ModeFlood Mode = "flood"
	// ModeTrickle prints the start of the stream, then the rest one byte
	// per delay_ms (default 1 s).
	ModeTrickle Mode = "trickle"
	// ModeIgnoreTerm ignores SIGTERM, SIGHUP and SIGINT, prints the first
	// chunk and sleeps until SIGKILL.
	ModeIgnoreTerm Mode = "ignore-term"
	// ModeGrandchild leaves behind a child that ignores SIGTERM and holds
	// stdout and stderr open, then answers normally. The child's pid is
	// written to GrandchildPIDFile in the state directory.
	ModeGrandchild Mode = "grandchild"
	// ModeErrorInStream reports an API error inside the stream, as the
	// real CLIs do on HTTP 401, but exits 0.
	ModeErrorInStream Mode = "error-in-stream"
	// ModeAuthError is the real CLIs' HTTP 401 failure, with their exit
	// status (claude 1, codex 1, qwen 1, gemini 145) and stderr.
	ModeAuthError Mode = "auth-error"
	// ModeExit prints a message on stderr and exits with ExitCode
	// (default 1) without printing anything on stdout.
	ModeExit Mode = "exit"
	// ModeStderrNoise is ModeOK preceded by a few hundred KiB of warnings
	// on stderr, more than a pipe buffer holds.
	ModeStderrNoise Mode = "stderr-noise"
	// ModeEscapes is ModeOK with terminal escape sequences written, as
	// JSON escapes (\u001b), around every string value of the reply: a
	// window-title change and a screen clear before it, a colour after,
	// as a model explaining ANSI colours writes them; and after the
	// first word of every sentence a right-to-left override, a
	// zero-width space and a left-to-right isolate (Trojan Source).
	// EscapesMarker is the title it tries to set.
	ModeEscapes Mode = "escapes"
	// ModeFail is only valid as a VersionMode: --version exits 1.
	ModeFail Mode = "fail"
	// ModeRateLimit is the API fake's HTTP 429, with a Retry-After of
	// RetryAfter seconds (default "1"; "-" for none) and OpenAI's
	// rate-limit error body. A CLI fake answers normally.
	ModeRateLimit Mode = "rate-limit"
	// ModeHTTPError is the API fake's error status Status (default 500)
	// with OpenAI's error body holding Message (a bad model, a context
	// too long), and Retry-After when RetryAfter is set. A CLI fake
	// answers normally.
	ModeHTTPError Mode = "http-error"
	// ModeRedirect is the API fake's redirect: status Status (default
	// 307) to Location, by default the same path on a second port of the
	// fake's own host, whose requests are logged with APIRequest.Elsewhere
	// set (and the key's presence, as for any request) and answered as
	// mode ok. A CLI fake answers normally.
	ModeRedirect Mode = "redirect"
)

// EchoKey, in the API fake's Message, AgentScript.Model, Reply and
// Prose, is replaced by the key the request carried: a careless server
// that echoes it in an error, a model name or the reply.
const EchoKey = "{{key}}"

// Modes lists every call mode.
var Modes = []Mode{
	ModeOK, ModeSlow, ModeHang, ModeHangSilent, ModeCrash, ModeGarbage,
	ModeBinary, ModeFlood, ModeTrickle, ModeIgnoreTerm, ModeGrandchild,
	ModeErrorInStream, ModeAuthError, ModeExit, ModeStderrNoise, ModeEscapes,
	ModeRateLimit, ModeHTTPError, ModeRedirect,
}

// EscapesMarker is the window title ModeEscapes tries to set: it must
// never be seen anywhere arena writes.
const EscapesMarker = "PWNED"

// Kind is what a prompt asks for: the reply shape it names (the engine's
// package shape), "compare.judge" for instance.
type Kind string

const (
	KindOpening   Kind = "opening"
	KindCritique  Kind = "critique"
	KindAnswer    Kind = "answer"
	KindRebuttal  Kind = "rebuttal"
	KindFinal     Kind = "final"
	KindSynthesis Kind = "synthesis"
	KindOther     Kind = "other"
	// KindVersion marks a --version call in the log.
	KindVersion Kind = "version"
)

// RepairSuffix is appended to a kind to script repair calls (prompts that
// are repair requests, shape.IsRepair): "critique.repair".
const RepairSuffix = ".repair"

// Script tells the fakes what to answer.
type Script struct {
	Agents map[string]AgentScript `json:"agents,omitempty"`
}

// AgentScript is the behaviour of one agent. Zero fields take defaults.
type AgentScript struct {
	// Mode is the default mode of every call (default ok).
	Mode Mode `json:"mode,omitempty"`
	// DelayMS is the pause between streamed chunks (default 5; negative
	// means no pause at all).
	DelayMS int `json:"delay_ms,omitempty"`
	// Chunks is how many pieces the reply is streamed in (default 3).
	Chunks int `json:"chunks,omitempty"`
	// TokensPerSec, when set, streams the reply at that rate instead of
	// in Chunks pieces DelayMS apart: a token is four bytes, sent in at
	// most 100 pieces a second (at 100 tokens/s one token every 10 ms, at
	// 1,000 ten every 10 ms), each on time by the clock from the first,
	// as a model generating at that speed does.
	TokensPerSec int `json:"tokens_per_sec,omitempty"`
	// Stamp, with TokensPerSec, starts every tenth piece of the reply's
	// Prose with the wall clock it was written at, "«UNIX-NANOSECONDS»",
	// so a benchmark can tell when that text reached the screen.
	Stamp bool `json:"stamp,omitempty"`
	// ExitCode is the status for mode exit (default 1), or a non-zero
	// status to end an otherwise normal answer with.
	ExitCode int `json:"exit_code,omitempty"`
	// FloodBytes is how much mode flood writes (default 100 MiB).
	FloodBytes int64 `json:"flood_bytes,omitempty"`
	// FloodPiece is the shape of mode flood's output: each streamed piece
	// is one line of text of this many bytes (its newline included), one
	// event of a JSON format (codex, which never streams deltas, sends
	// each piece as an agent message of its own). Zero: pieces of about
	// 64 KiB of 56-byte lines, and one message for codex.
	FloodPiece int `json:"flood_piece,omitempty"`
	// VersionMode drives --version: ok (default), fail or hang.
	VersionMode Mode `json:"version_mode,omitempty"`
	// Hold names a file in the state directory: every answer streams all
	// but its last piece, then waits until that file exists before it
	// ends. A test holds a run in the middle of streaming for as long as
	// it needs to look at it, on a machine of any speed, and lets it go on
	// with Fakes.Release. (codex's CLI prints its message whole at the
	// end: a held codex has shown nothing yet.)
	Hold string `json:"hold,omitempty"`
	// Leave makes every call first start a helper that is meant to
	// outlive it (see Leave*): model CLIs start MCP servers, language
	// servers and telemetry this way.
	Leave string `json:"leave,omitempty"`
	// Steps maps a kind (or "<kind>.repair") to the replies for its
	// successive calls: the Nth call uses element N, the last repeats.
	Steps map[string][]Step `json:"steps,omitempty"`
	// Key, for the API fake, is the one key the agent's model accepts:
	// a request without it (Authorization: Bearer KEY) gets OpenAI's
	// HTTP 401 and invalid_api_key body, quoting the key it was given
	// whole (OpenAI masks it). "": any key, or none.
	Key string `json:"key,omitempty"`
	// CostUSD, for the API fake, is the cost its usage chunk reports
	// (as OpenRouter's "cost"); 0: none, as OpenAI and Ollama report.
	CostUSD float64 `json:"cost_usd,omitempty"`
	// NoUsage: the API fake sends no usage chunk even when asked to
	// (a server that ignores stream_options).
	NoUsage bool `json:"no_usage,omitempty"`
	// Usage, for the API fake, is its usage chunk's usage object as
	// written (negative counts, a cost of 1e308), instead of the one it
	// counts.
	Usage json.RawMessage `json:"usage,omitempty"`
	// Model, for the API fake, is the model its stream's chunks name
	// (default: the one asked for), EchoKey replaced.
	Model string `json:"model,omitempty"`
	// Bias makes the agent's canned replies to judging requests
	// (compare.judge, rank.judge, judge.analysis) those of a judge with
	// a known bias, or of known judgement.
	Bias *Bias `json:"bias,omitempty"`
}

// Bias is how a fake judge judges, in its canned replies.
type Bias struct {
	// FirstShown prefers whichever candidate the prompt shows first: it
	// recommends the first option listed (compare), scores the first
	// candidate 5 and the others 2 and ranks them as shown (rank). A
	// judge with a position bias, whose preferences flip with the order.
	FirstShown bool `json:"first_shown,omitempty"`
	// Own marks its own model's work: a candidate whose material holds
	// this text scores 2 points more (at most 5), and in arena judge a
	// solution holding it gets 5 on every criterion. A judge that prefers
	// its own model's work.
	Own string `json:"own,omitempty"`
	// Quality is a regular expression whose first group, a digit from 1
	// to 5, found in a candidate's material (a rank candidate's facts, an
	// option's opening, a judged solution), is the score it deserves: a
	// judge that sees every candidate's true quality, whatever the order.
	Quality string `json:"quality,omitempty"`
}

// Step is one scripted call. Zero fields fall back to the AgentScript.
type Step struct {
	// Reply is a string, used verbatim, or any other JSON value, which is
	// pretty-printed with its keys in the order written (a Go map's come
	// out sorted, as encoding/json writes them). nil means the
	// canned reply for the kind (which Fence and Prose still dress). After
	// decoding it holds a json.RawMessage, so the bytes a test wrote are
	// reproduced exactly.
	Reply any `json:"reply,omitempty"`
	// Fence wraps a non-string reply in a ```json fence.
	Fence bool `json:"fence,omitempty"`
	// Prose is a line printed before the reply, to exercise lenient
	// parsing.
	Prose        string `json:"prose,omitempty"`
	Mode         Mode   `json:"mode,omitempty"`
	DelayMS      int    `json:"delay_ms,omitempty"`
	Chunks       int    `json:"chunks,omitempty"`
	TokensPerSec int    `json:"tokens_per_sec,omitempty"`
	Stamp        bool   `json:"stamp,omitempty"`
	ExitCode     int    `json:"exit_code,omitempty"`
	FloodBytes   int64  `json:"flood_bytes,omitempty"`
	FloodPiece   int    `json:"flood_piece,omitempty"`
	// Stderr is printed on stderr before the reply.
	Stderr string `json:"stderr,omitempty"`
	// Hold is AgentScript.Hold for this call alone.
	Hold string `json:"hold,omitempty"`
	// Status, RetryAfter and Message shape the API fake's error answers
	// (modes http-error and rate-limit): the HTTP status, the
	// Retry-After header's value, the error body's message (EchoKey
	// replaced). Status and Location shape mode redirect's answer.
	Status     int    `json:"status,omitempty"`
	RetryAfter string `json:"retry_after,omitempty"`
	Message    string `json:"message,omitempty"`
	Location   string `json:"location,omitempty"`
	// Leave is AgentScript.Leave for this call alone.
	Leave string `json:"leave,omitempty"`
}

// UnmarshalJSON keeps Reply as the raw JSON it was written as.
func (s *Step) UnmarshalJSON(b []byte) error {
	type plain Step // drops the method, so decoding does not recurse
	var w struct {
		plain
		Reply json.RawMessage `json:"reply,omitempty"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*s = Step(w.plain)
	if len(w.Reply) > 0 && !bytes.Equal(w.Reply, []byte("null")) {
		s.Reply = w.Reply
	}
	return nil
}

// GrandchildPIDFile is the name, in the state directory, of the file that
// holds the pid of the process left behind by mode grandchild.
func GrandchildPIDFile(agent string) string {
	return "grandchild." + agent + ".pid"
}

// How a call leaves a helper behind (AgentScript.Leave). The helper
// ignores SIGTERM, SIGHUP and SIGINT, holds none of the call's output (a
// daemon's stdio is /dev/null), and writes its pid to DaemonPIDFile before
// the call goes on: a test waits for the file, never for a while.
const (
	// LeaveSetsid: a child in a session of its own (setsid).
	LeaveSetsid = "setsid"
	// LeaveDoubleFork: the classic daemon, a child that makes a session
	// of its own, starts the helper and exits at once: the helper is
	// re-parented, in a session and group that are not the call's.
	LeaveDoubleFork = "double-fork"
	// LeaveNewGroup: a child in a process group of its own (setpgid), in
	// the call's session.
	LeaveNewGroup = "new-group"
)

// Leaves lists every way to leave a helper behind.
var Leaves = []string{LeaveSetsid, LeaveDoubleFork, LeaveNewGroup}

// DaemonPIDFile is the name, in the state directory, of the file that
// holds the pid of a helper left behind (AgentScript.Leave) by a call of
// agent; pid is the helper's own.
func DaemonPIDFile(agent string, pid int) string {
	return "daemon." + agent + "." + strconv.Itoa(pid) + ".pid"
}

// DaemonPIDGlob matches every DaemonPIDFile of agent.
func DaemonPIDGlob(agent string) string { return "daemon." + agent + ".*.pid" }

// HangingFile is the name, in the state directory, of the file a fake
// creates when it starts to hang for good (modes hang, hang-silent and
// ignore-term, version_mode hang, and mode grandchild's left-behind
// process): everything it was going to print is printed. A test of a
// hang waits for it, where it would otherwise wait a while to see that
// nothing more happens.
func HangingFile(pid int) string {
	return "hanging." + strconv.Itoa(pid)
}

// Call is one line of calls.jsonl: what one invocation of a fake saw.
type Call struct {
	Agent string `json:"agent"`
	// Argv0 is the program name as invoked; Argv the arguments after it.
	Argv0 string   `json:"argv0"`
	Argv  []string `json:"argv"`
	// Prompt is the complete prompt (argv and stdin combined the way the
	// real CLI combines them) when it is under 64 KiB; PromptLen and
	// PromptSHA256 (hex) are always set.
	Prompt       string `json:"prompt,omitempty"`
	PromptLen    int    `json:"prompt_len"`
	PromptSHA256 string `json:"prompt_sha256"`
	Kind         Kind   `json:"kind,omitempty"`
	Repair       bool   `json:"repair,omitempty"`
	// Index is the 0-based number of this call among the agent's calls of
	// the same kind (and repair flag); -1 when there is no state dir.
	Index       int               `json:"index"`
	Mode        Mode              `json:"mode,omitempty"`
	Cwd         string            `json:"cwd"`
	StdinIsTTY  bool              `json:"stdin_is_tty"`
	StdoutIsTTY bool              `json:"stdout_is_tty"`
	PID         int               `json:"pid"`
	PPID        int               `json:"ppid"`
	PGID        int               `json:"pgid"`
	Env         map[string]string `json:"env"`
	// Error is set when the fake rejected the invocation the way the real
	// CLI would (bad flag, untrusted folder, ...).
	Error string `json:"error,omitempty"`
	Time  string `json:"time"`
	// API is set for a request to the API fake (Argv0 is then the
	// method and path, Agent the model asked for).
	API *APIRequest `json:"api,omitempty"`
}

// APIRequest is what the API fake saw of a Chat Completions request
// beyond its prompt (the user messages' text, joined).
type APIRequest struct {
	Stream       bool `json:"stream"`
	IncludeUsage bool `json:"include_usage"`
	Messages     int  `json:"messages"`
	// Bearer says the request carried an Authorization: Bearer header;
	// KeyOK that it held the key the script asks for (never the key).
	Bearer bool `json:"bearer"`
	KeyOK  bool `json:"key_ok"`
	// Elsewhere says the request came to the second port that mode
	// redirect points to: it followed a redirect.
	Elsewhere bool `json:"elsewhere,omitempty"`
}
