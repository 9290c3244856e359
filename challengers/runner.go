package challengers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"

	"github.com/arenadebate/arena/challengers/trust"
)

// Reason says how a call ended.
type Reason string

const (
	ReasonOK          Reason = "ok"
	ReasonTimeout     Reason = "timeout"
	ReasonExit        Reason = "exit"         // non-zero exit status or killed by a signal
	ReasonStreamError Reason = "stream-error" // the CLI reported an error inside its output
	ReasonOutputLimit Reason = "output-limit"
	ReasonNotFound    Reason = "not-found"
	ReasonStartFailed Reason = "start-failed"
	ReasonEmpty       Reason = "empty" // exited 0 without a reply
	ReasonCancelled   Reason = "cancelled"
	// ReasonEndpoint: an API agent's server answered with an error
	// status, could not be reached, or cut its stream short; the detail
	// says which in plain words.
	ReasonEndpoint Reason = "endpoint-error"
)

// MaxArgBytes is the largest prompt put in argv. Linux caps a single
// argument at 128 KiB (MAX_ARG_STRLEN); anything near it goes by stdin.
const MaxArgBytes = 100 << 10

// KillGrace is how long a process group gets between SIGTERM and SIGKILL.
// Short, because the caller must have its answer within about a second of
// a deadline.
var KillGrace = 500 * time.Millisecond

// Request is one call of an agent.
type Request struct {
	Agent  Agent
	Prompt string
	// OnChunk receives the model's text as it arrives, cleaned of escape
	// sequences, from one goroutine, in order.
	OnChunk func(text string)
	// Env is the environment to run with (nil: this process's). PATH in it
	// decides where the executable is looked up.
	Env []string
	// Retry, when set, is asked before an API agent's call is tried
	// again because the server said it was busy (429, 503), with what
	// the server said and how long the call will wait: a retry is one
	// more call, which the caller counts, and may refuse (false: the
	// call ends with the server's answer).
	Retry func(why string, wait time.Duration) bool
}

// Result is what a call produced and how it ended.
type Result struct {
	Agent    string        `json:"agent"`
	Text     string        `json:"text"`
	Reason   Reason        `json:"reason"`
	ExitCode int           `json:"exit_code"` // -1 when killed by a signal or never started
	Detail   string        `json:"detail,omitempty"`
	Stderr   string        `json:"stderr,omitempty"` // the tail, for diagnosis
	Duration time.Duration `json:"duration"`
	Timeout  time.Duration `json:"timeout,omitempty"`
	Usage    *Usage        `json:"usage,omitempty"`
	Bytes    int64         `json:"bytes"`   // raw bytes read from stdout
	Command  []string      `json:"command"` // argv, with the prompt elided
	// Final says that the same call again would fail the same way (an
	// endpoint that refused the key, or does not know the model): it is
	// not retried.
	Final bool `json:"final,omitempty"`
}

// OK reports whether the call produced a usable reply.
func (r Result) OK() bool { return r.Reason == ReasonOK }

// Describe is a short human sentence for a failure: "timed out after 2m0s".
func (r Result) Describe() string {
	switch r.Reason {
	case ReasonOK:
		return "ok"
	case ReasonTimeout:
		return "timed out after " + r.Timeout.Round(time.Second).String()
	case ReasonExit:
		return withDetail(exitPhrase(r.ExitCode), r.Detail)
	case ReasonStreamError:
		return withDetail("reported an error", r.Detail)
	case ReasonOutputLimit:
		return withDetail("printed too much output", r.Detail)
	case ReasonNotFound:
		return withDetail("not found", r.Detail)
	case ReasonStartFailed:
		return withDetail("could not start", r.Detail)
	case ReasonEmpty:
		return withDetail("returned no reply", r.Detail)
	case ReasonCancelled:
		return "cancelled"
	case ReasonEndpoint:
		return r.Detail
	}
	return string(r.Reason)
}

func exitPhrase(code int) string {
	if code < 0 {
		return "was killed by a signal"
	}
	return fmt.Sprintf("exited with status %d", code)
}

func withDetail(s, detail string) string {
	if detail == "" {
		return s
	}
	return s + ": " + detail
}

// Run starts the agent, streams its reply through req.OnChunk and returns
// once the agent and everything it started are gone. It never uses a shell:
// the prompt reaches the agent byte for byte. Cancelling ctx, or the
// agent's timeout, kills the whole process group.
func Run(ctx context.Context, req Request) Result {
	start := clk.Now()
	var res Result
	if req.Agent.IsAPI() {
		res = runAPI(ctx, req)
	} else {
		res = runOnce(ctx, req)
	}
	res.Agent = req.Agent.Name
	res.Usage = res.Usage.Clamp() // usage is data: the one place it enters arena
	res.Duration = clk.Now().Sub(start)
	res.Timeout = req.Agent.Timeout
	return res
}

func runOnce(ctx context.Context, req Request) Result {
	env := req.Env
	if env == nil {
		env = os.Environ()
	}
	inv, err := prepare(req.Agent, req.Prompt, env)
	if err != nil {
		return Result{Reason: ReasonStartFailed, ExitCode: -1, Detail: err.Error()}
	}
	defer inv.cleanup()
	path, err := lookPath(inv.argv[0], envValue(env, "PATH"))
	if err != nil {
		return Result{Reason: ReasonNotFound, ExitCode: -1, Detail: err.Error(), Command: inv.shown}
	}
	callCtx, cancel := withTimeout(ctx, req.Agent.Timeout)
	defer cancel()
	p := &process{req: req, inv: inv, path: path}
	res := p.run(callCtx)
	res.Command = inv.shown
	switch {
	case ctx.Err() != nil:
		res.Reason, res.Detail = ReasonCancelled, ""
	case callCtx.Err() != nil && res.Reason != ReasonOutputLimit:
		res.Reason, res.Detail = ReasonTimeout, ""
	}
	return res
}

// withTimeout is context.WithTimeout on the runner's clock.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	if d <= 0 {
		return ctx, cancel
	}
	stop := clk.AfterFunc(d, cancel)
	return ctx, func() { stop(); cancel() }
}

// clock is where the runner's durations come from: a call's timeout, the
// grace between SIGTERM and SIGKILL, the polls for a group to be gone, the
// grace for a drained stdout. Tests about those durations move a clock of
// their own by hand (export_test.go), so that their verdict is the same
// on a fast machine and on a loaded one.
type clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed, unless
	// stop is called first (stop reports whether it was in time).
	AfterFunc(d time.Duration, f func()) (stop func() bool)
	Sleep(d time.Duration)
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

func (realClock) Sleep(d time.Duration) { time.Sleep(d) }

var clk clock = realClock{}

// process is one running agent and the plumbing around it.
type process struct {
	req  Request
	inv  *invocation
	path string

	child *child
	// status is the child's wait status once it has exited.
	status syscall.WaitStatus
	stdout *pacedReader // pty master or pipe read end
	stderr *os.File
	stdin  *os.File // write end when the prompt goes on stdin
	// stdinSent is how much of the prompt was written before the start.
	stdinSent int
	// exited is closed when the leader has exited: a reader waiting
	// for its next tick stops waiting (pacedReader).
	exited chan struct{}

	mu       sync.Mutex
	capHit   bool
	stderrBT tailBuffer
}

func (p *process) run(ctx context.Context) Result {
	if err := p.start(); err != nil {
		return Result{Reason: ReasonStartFailed, ExitCode: -1, Detail: err.Error()}
	}
	pgid := p.child.pid // Setsid: the leader's pid is the group id
	defer track(pgid)()
	p.exited = make(chan struct{})
	p.stdout.watch(p.exited)

	// A panic while reading (a decoder's bug, or the OnChunk consumer's)
	// stops the agent and is raised again in the caller once the agent is
	// gone: the caller's goroutine is where arena turns it into an outcome.
	outDone := make(chan streamOutcome, 1)
	var readPanic *Panic
	go func() {
		var out streamOutcome
		if pn := Catch(func() { out = p.readStdout(pgid) }); pn != nil {
			readPanic = pn
			p.killGroup(pgid)
		}
		outDone <- out
	}()
	errDone := make(chan struct{})
	go func() { p.readStderr(); close(errDone) }()
	if p.stdin != nil {
		go p.feedStdin()
	}

	waitDone := make(chan error, 1)
	go func() {
		ws, err := p.child.wait()
		p.status = ws
		close(p.exited)
		waitDone <- err
	}()

	var waitErr error
	select {
	case waitErr = <-waitDone:
	case <-ctx.Done():
		p.killGroup(pgid)
		waitErr = <-waitDone
	}
	// The leader is gone; anything it left behind in its group goes too,
	// or a grandchild holding stdout open would keep the stream alive.
	if groupAlive(pgid) {
		p.killGroup(pgid)
	}
	out := p.drain(outDone, errDone)
	if readPanic != nil {
		panic(readPanic)
	}
	return p.result(waitErr, out)
}

func (p *process) start() error {
	cmd := exec.Command(p.path, p.inv.argv[1:]...)
	cmd.Args[0] = p.inv.argv[0]
	cmd.Env = mergeEnv(p.envBase(), p.req.Agent.Env)
	cmd.Dir = p.inv.dir
	stdin, err := p.openStdin()
	if err != nil {
		return err
	}
	defer stdin.Close()
	cmd.Stdin = stdin

	errR, errW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer errW.Close()
	cmd.Stderr = errW
	p.stderr = errR

	outW, err := p.openStdout()
	if err != nil {
		p.closeAll() // stderr's read end, and stdin's write end
		return err
	}
	defer outW.Close()
	cmd.Stdout = outW
	cmd.SysProcAttr = procAttr(p.req.Agent.PTY)
	ch, err := startChild(cmd)
	if err != nil {
		p.closeAll()
		return err
	}
	p.child = ch
	return nil
}

func (p *process) envBase() []string {
	if p.req.Env != nil {
		return p.req.Env
	}
	return os.Environ()
}

// openStdin returns what the child gets as stdin: the read end of a pipe
// carrying the prompt, or /dev/null. Never a terminal and never left open:
// codex waits forever for more input on an open stdin.
func (p *process) openStdin() (*os.File, error) {
	if !p.inv.stdinPrompt {
		return os.Open(os.DevNull)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	// The start of the prompt is in the pipe before the agent starts:
	// gemini and qwen go on without piped input when none has arrived
	// within half a second of their start, and on a loaded machine the
	// goroutine that feeds the rest may not have run by then. A pipe
	// holds at least a page, so this write never blocks.
	n := min(len(p.req.Prompt), stdinHead)
	if _, err := io.WriteString(w, p.req.Prompt[:n]); err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	p.stdin, p.stdinSent = w, n
	return r, nil
}

// stdinHead is how much of a prompt on stdin is written before the agent
// starts: one page, what every pipe holds.
const stdinHead = 4096

// openStdout returns the child's end of stdout: a pseudo-terminal slave
// (CLIs that check isatty stream and flush as they would for a person) or
// a pipe. stderr stays a separate pipe either way, so warnings never mix
// into a JSON stream.
func (p *process) openStdout() (*os.File, error) {
	if !p.req.Agent.PTY {
		r, w, err := pacedPipe()
		if err != nil {
			return nil, err
		}
		p.stdout = r
		return w, nil
	}
	master, slave, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("open pseudo-terminal: %w", err)
	}
	// Wide, so that CLIs which format to the terminal width don't wrap
	// a reply into extra lines.
	_ = pty.Setsize(master, &pty.Winsize{Rows: 50, Cols: 200})
	rawOutput(slave)
	if p.stdout, err = pacedPTYMaster(master); err != nil {
		slave.Close()
		return nil, err
	}
	return slave, nil
}

func (p *process) feedStdin() {
	_, _ = io.WriteString(p.stdin, p.req.Prompt[p.stdinSent:])
	_ = p.stdin.Close()
}

type streamOutcome struct {
	text      string
	usage     *Usage
	streamErr string
	bytes     int64
}

// readStdout reads until EOF (or EIO from a pty whose slave side is
// closed), cleaning and decoding as it goes. On output over the cap it kills
// the group and stops: a capped call's text is never used, so it is not
// assembled either.
func (p *process) readStdout(pgid int) streamOutcome {
	limit := p.req.Agent.OutputCap
	if limit <= 0 {
		limit = DefaultOutputCap
	}
	s := newTextStream(p.req.Agent.Format, limit)
	defer s.release()
	buf := readBufs.Get().(*[readBufSize]byte)
	defer readBufs.Put(buf)
	var total int64
	for {
		n, err := p.stdout.Read(buf[:])
		if n > 0 {
			total += int64(n)
			if total > limit {
				p.mu.Lock()
				p.capHit = true
				p.mu.Unlock()
				p.killGroup(pgid)
				return streamOutcome{bytes: total}
			}
			p.emit(s.feed(buf[:n]))
		}
		if err != nil {
			break
		}
	}
	p.emit(s.flush())
	final, usage, streamErr := s.dec.Finish(s.reply.String())
	if !s.plain {
		final = trust.Text(final) // a result field is model text that no cleaner saw
	}
	return streamOutcome{text: final, usage: usage, streamErr: streamErr, bytes: total}
}

// maxAfterGrace bounds what is read after drain's grace: more than a
// pipe's or a terminal's buffer holds.
const maxAfterGrace = 256 << 10

// textStream turns raw output into the model's text: escape sequences out,
// the format decoded, and the decoded text cleaned once more, since a
// reply inside JSON can carry escapes as "\u001b". For plain text the first
// pass is all there is to do.
//
// Both cleanings hand back their input when there is nothing to clean, and
// the decoded text goes straight into the reply, which the decoder is
// handed back at the end; the string each OnChunk gets is the part of the
// reply just written, not a copy of its own (only text the second cleaning
// changed is copied apart). The reply grows as the text streams in and is
// never joined afterwards.
//
// Why it is built this way: on the 2-core machine the first touch of a
// page of memory costs 13-54 µs in page faults (counted in
// BenchmarkRunnerStreaming: 2,200 faults and 110 ms of processor time for
// a run that streamed 4 MiB), about what cat takes to move those 4 KiB
// through a pty, so what a stream costs is mostly the fresh memory it is
// copied into. A copy per chunk for OnChunk, pieces joined at the end
// (8-39 ms for 4 MiB, after the stream), or a builder left to grow by
// quarters (about five copies) each cost more than the decoding. (A
// consumer that keeps the strings it is given keeps that part of the reply
// alive: no more than the reply itself.)
type textStream struct {
	raw, text trust.Cleaner
	dec       decoder
	plain     bool
	decoded   []byte          // the text decoded from the current piece
	reply     strings.Builder // all the decoded text, before the second cleaning
	limit     int             // the output cap: the reply grows no further at once
}

// readBufSize is how much one read asks for; a pty gives at most 4 KiB.
const readBufSize = 32 << 10

// readBufs and workBufs keep the runner's buffers from one call to the
// next (a read buffer; the decoded text of a read and a line cut by the
// end of a read, which grow to the longest event): made afresh for every
// call, they were fresh memory every time, and on the 2-core machine that
// is 13-54 µs of page faults a page. Buffers past maxWorkBuf are left to
// the collector.
var (
	readBufs = sync.Pool{New: func() any { return new([readBufSize]byte) }}
	workBufs sync.Pool // *[]byte
)

const maxWorkBuf = 8 << 20

func getWorkBuf() []byte {
	if b, ok := workBufs.Get().(*[]byte); ok {
		return (*b)[:0]
	}
	return nil
}

func putWorkBuf(b []byte) {
	if cap(b) == 0 || cap(b) > maxWorkBuf {
		return
	}
	b = b[:0]
	workBufs.Put(&b)
}

// minReplyRoom is the reply's first allocation, enough for a usual reply.
const minReplyRoom = 16 << 10

func newTextStream(f Format, limit int64) *textStream {
	s := &textStream{dec: newDecoder(f), plain: f == FormatText, decoded: getWorkBuf(), limit: int(min(limit, 1<<30))}
	if d, ok := s.dec.(*lineDecoder); ok {
		d.partial = getWorkBuf()
	}
	return s
}

// release hands the stream's buffers back for the next call; nothing
// returned from the stream points into them.
func (s *textStream) release() {
	putWorkBuf(s.decoded)
	s.decoded = nil
	if d, ok := s.dec.(*lineDecoder); ok {
		putWorkBuf(d.partial)
		d.partial = nil
	}
}

// feed takes the next piece of output and returns the text in it to
// stream ("" if none).
func (s *textStream) feed(p []byte) string {
	clean := s.raw.Write(p)
	if s.plain {
		return s.keep(clean, clean)
	}
	s.decoded = s.dec.Feed(s.decoded[:0], clean)
	return s.keep(s.decoded, s.text.Write(s.decoded))
}

// flush returns the text held back at the end of the stream.
func (s *textStream) flush() string {
	clean := s.raw.Flush()
	if s.plain {
		return s.keep(clean, clean)
	}
	s.decoded = s.dec.Drain(s.dec.Feed(s.decoded[:0], clean))
	// Write's result may alias the cleaner's buffer, which Flush reuses.
	out := slices.Clone(s.text.Write(s.decoded))
	return s.keep(s.decoded, append(out, s.text.Flush()...))
}

// keep adds decoded text to the reply and returns its cleaned form as a
// string.
func (s *textStream) keep(decoded, cleaned []byte) string {
	if len(decoded) == 0 {
		return string(cleaned)
	}
	if room := s.reply.Cap() - s.reply.Len(); room < len(decoded) {
		// Sixteen times the room at once, up to the output cap: what a
		// growth costs is the copy of the reply so far into fresh
		// memory (Grow leaves the room beyond it untouched until it is
		// written), so a 4 MiB reply is copied 0.3 MiB on the way, where
		// doubling copies 4 and Write's quarters some 20. (Grow makes
		// room for twice the capacity plus what it is asked for.)
		target := max(s.reply.Len()+len(decoded), minReplyRoom, min(16*s.reply.Cap(), s.limit))
		s.reply.Grow(max(target-2*s.reply.Cap(), len(decoded)))
	}
	start := s.reply.Len()
	s.reply.Write(decoded)
	if len(cleaned) == len(decoded) && &cleaned[0] == &decoded[0] {
		// Nothing was cleaned: the text to stream is what was just
		// written. A strings.Builder never changes what it holds (it
		// copies when it grows), so this slice of it stays as it is.
		return s.reply.String()[start:]
	}
	return string(cleaned)
}

// emit hands text to OnChunk.
func (p *process) emit(text string) {
	if text != "" && p.req.OnChunk != nil {
		p.req.OnChunk(text)
	}
}

func (p *process) readStderr() {
	buf := make([]byte, 8<<10)
	for {
		n, err := p.stderr.Read(buf)
		if n > 0 {
			p.mu.Lock()
			p.stderrBT.Write(buf[:n])
			p.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// drainGrace bounds how long output may keep arriving once the process
// group is gone: only a process that escaped the group (a daemon that made
// its own session) can still hold stdout open, and it must not hold the
// caller hostage.
const drainGrace = 300 * time.Millisecond

func (p *process) drain(outDone <-chan streamOutcome, errDone <-chan struct{}) streamOutcome {
	stopCut := clk.AfterFunc(drainGrace, func() {
		now := time.Now() // a read deadline is on the real clock
		p.stdout.stopWaiting()
		_ = p.stderr.SetReadDeadline(now)
	})
	out := <-outDone
	<-errDone
	stopCut()
	p.closeAll()
	return out
}

func (p *process) closeAll() {
	if p.stdout != nil {
		_ = p.stdout.Close()
	}
	for _, f := range []*os.File{p.stderr, p.stdin} {
		if f != nil {
			_ = f.Close()
		}
	}
}

func (p *process) result(waitErr error, out streamOutcome) Result {
	p.mu.Lock()
	capHit := p.capHit
	stderr := trust.Text(p.stderrBT.String())
	p.mu.Unlock()
	res := Result{
		Text:     out.text,
		Usage:    out.usage,
		Bytes:    out.bytes,
		Stderr:   stderr,
		ExitCode: exitCode(p.status, waitErr),
	}
	limit := p.req.Agent.OutputCap
	if limit <= 0 {
		limit = DefaultOutputCap
	}
	switch {
	case capHit:
		res.Reason = ReasonOutputLimit
		res.Detail = fmt.Sprintf("stopped after %s (output_cap)", formatBytes(limit))
	case out.streamErr != "":
		res.Reason, res.Detail = ReasonStreamError, out.streamErr
	case errors.Is(waitErr, errSupervisorGone):
		res.Reason, res.Detail = ReasonExit, waitErr.Error()
	case res.ExitCode != 0:
		res.Reason, res.Detail = ReasonExit, lastLine(stderr)
	case strings.TrimSpace(out.text) == "":
		res.Reason, res.Detail = ReasonEmpty, lastLine(stderr)
	default:
		res.Reason = ReasonOK
	}
	return res
}

// killGroup ends the agent's process group, and under the run's
// supervisor its whole tree (child.kill).
func (p *process) killGroup(pgid int) {
	p.child.kill(pgid, KillGrace)
}

// killGroupAfter ends a process group: SIGTERM, grace, then SIGKILL.
func killGroupAfter(pgid int, grace time.Duration) {
	if signalGroup(pgid, syscall.SIGTERM) != nil {
		return
	}
	if waitGroupGone(pgid, grace) {
		return
	}
	_ = signalGroup(pgid, syscall.SIGKILL)
	waitGroupGone(pgid, time.Second)
}

// groupPoll is how often a group being killed is checked for.
const groupPoll = 10 * time.Millisecond

func waitGroupGone(pgid int, d time.Duration) bool {
	deadline := clk.Now().Add(d)
	for clk.Now().Before(deadline) {
		if !groupAlive(pgid) {
			return true
		}
		clk.Sleep(groupPoll)
	}
	return !groupAlive(pgid)
}

// stderrNoise are lines the real CLIs print on stderr on every run,
// success or not (see testdata/cli-samples): never the reason a call
// failed, so never the detail shown for it.
var stderrNoise = []string{
	"Reading additional input from stdin",
	"WARNING: proceeding, even though we could not create PATH aliases",
	"Warning: 256-color support not detected",
	"Ripgrep is not available",
	"Ripgrep not available",
}

func isNoise(line string) bool {
	for _, n := range stderrNoise {
		if strings.HasPrefix(line, n) {
			return true
		}
	}
	return false
}

// lastLine is the last line of stderr that says something.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" && !isNoise(l) {
			if len(l) > 300 {
				l = l[:300] + "…"
			}
			return l
		}
	}
	return ""
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// tailBuffer keeps the last tailMax bytes written to it.
type tailBuffer struct{ b []byte }

const tailMax = 16 << 10

func (t *tailBuffer) Write(p []byte) {
	t.b = append(t.b, p...)
	if len(t.b) > tailMax {
		t.b = slices.Clone(t.b[len(t.b)-tailMax:])
	}
}

func (t *tailBuffer) String() string { return string(t.b) }
