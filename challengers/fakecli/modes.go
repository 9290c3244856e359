package main

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
)

// perform carries out the plan with c's output format and returns the exit
// status. Modes that never finish do not return.
func perform(c *cli, inv *invocation, p plan, agent string) int {
	out := &stream{w: os.Stdout}
	e := c.emitter(inv, out)
	if p.leave != "" {
		if err := leaveDaemon(p.leave, agent); err != nil {
			fmt.Fprintf(os.Stderr, "fakecli: leave %s: %v\n", p.leave, err)
			return 99
		}
	}
	switch p.mode {
	case fakeapi.ModeHangSilent:
		sleepForever()
	case fakeapi.ModeBinary:
		writeBinary(out)
		return 0
	case fakeapi.ModeExit:
		code := firstSet(p.exit, 1)
		fmt.Fprintf(os.Stderr, "%s: exiting with status %d as the script says\n", c.name, code)
		return code
	case fakeapi.ModeIgnoreTerm:
		ignoreTermination() // before anything else, so no early SIGTERM gets through
	}
	os.Stderr.WriteString(c.noise() + p.stderr)
	return respond(c, e, out, p, agent)
}

// respond is perform for the modes that print a (possibly broken) answer.
func respond(c *cli, e emitter, out *stream, p plan, agent string) int {
	switch p.mode {
	case fakeapi.ModeHang, fakeapi.ModeIgnoreTerm:
		e.start()
		e.chunk(split(p.reply, p.chunks)[0])
		sleepForever()
	case fakeapi.ModeCrash:
		crash(e, out, p)
		return 2
	case fakeapi.ModeGarbage:
		e.start()
		out.text(garbage)
		return 0
	case fakeapi.ModeErrorInStream:
		e.start()
		e.fail()
		return 0
	case fakeapi.ModeAuthError:
		e.start()
		e.fail()
		os.Stderr.WriteString(c.authStderr)
		return c.authCode
	case fakeapi.ModeFlood:
		e.start()
		flood(e, p.flood, p.piece, agent)
		return p.exit
	case fakeapi.ModeTrickle:
		e.start()
		out.w = trickleWriter{w: out.w, delay: p.delay}
		p.delay = 0 // the pause is per byte now
		answer(e, p)
		return p.exit
	case fakeapi.ModeGrandchild:
		if err := spawnGrandchild(agent); err != nil {
			fmt.Fprintf(os.Stderr, "fakecli: grandchild: %v\n", err)
			return 99
		}
	case fakeapi.ModeStderrNoise:
		stderrFlood(c.name)
	}
	e.start()
	answer(e, p)
	return p.exit
}

// answer streams the reply in p.chunks pieces, pausing before each as a
// model does while it generates, then finishes.
func answer(e emitter, p plan) {
	if p.rate > 0 {
		answerAtRate(e, p)
		return
	}
	parts := split(p.reply, p.chunks)
	for i, part := range parts {
		if i == len(parts)-1 {
			awaitRelease(p.hold)
		}
		time.Sleep(p.delay)
		e.chunk(part)
	}
	done(e, p.reply)
}

// holdLimit bounds a hold, so a fake whose test never released it (a
// test that failed first) does not wait past the run.
const holdLimit = 10 * time.Minute

// awaitRelease waits until the file name exists in the state directory ("":
// not at all).
func awaitRelease(name string) {
	dir := stateDir()
	if name == "" || dir == "" {
		return
	}
	path := filepath.Join(dir, filepath.Base(name))
	for end := time.Now().Add(holdLimit); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
}

// bytesPerToken is how long a token of English text is, roughly.
const bytesPerToken = 4

// stampEvery is how many pieces apart the stamps are: one every 100 ms
// at full pace, few enough not to weigh on what is measured.
const stampEvery = 10

// answerAtRate streams the reply at p.rate tokens a second, in at most
// 100 pieces a second, each sent when the clock says it is due (so a
// slow write does not slow the rate down). With p.stamp every tenth piece
// of the prose starts with the time it is written at, or the next piece
// that does not follow a backslash (a stamp between "\" and what it
// escapes would break a JSON string the prose holds, and the shape of the
// reply with it); the reply the CLI reports at the end is the text as
// streamed.
func answerAtRate(e emitter, p plan) {
	perSec := min(p.rate, 100)
	size := max(bytesPerToken*p.rate/perSec, 1)
	every := time.Second / time.Duration(perSec)
	var sent strings.Builder
	start := time.Now()
	due := false // a stamp is due
	for i, off := 0, 0; off < len(p.reply); i++ {
		end := min(off+size, len(p.reply))
		for end < len(p.reply) && !utf8.RuneStart(p.reply[end]) {
			end++
		}
		if end == len(p.reply) {
			awaitRelease(p.hold)
		}
		time.Sleep(time.Until(start.Add(time.Duration(i) * every)))
		part := p.reply[off:end]
		due = due || p.stamp && off < p.prose && i%stampEvery == 0
		if due && (off == 0 || p.reply[off-1] != '\\') {
			part = fmt.Sprintf("«%d»", time.Now().UnixNano()) + part
			due = false
		}
		sent.WriteString(part)
		e.chunk(part)
		off = end
	}
	done(e, sent.String())
}

// done finishes a complete answer.
func done(e emitter, reply string) {
	e.finish(reply)
	if c, ok := e.(completer); ok {
		c.complete(reply)
	}
}

// crash prints about half of the answer, then the first half of the next
// line, with no newline: what a process killed mid-write leaves behind.
func crash(e emitter, out *stream, p plan) {
	e.start()
	parts := split(p.reply, p.chunks)
	half := len(parts) / 2
	for _, part := range parts[:half] {
		time.Sleep(p.delay)
		e.chunk(part)
	}
	var next bytes.Buffer
	w := out.w
	out.w = &next
	e.chunk(parts[half])
	if next.Len() == 0 { // the CLI does not stream: cut the final message instead
		e.finish(p.reply)
	}
	out.w = w
	line, _, _ := bytes.Cut(next.Bytes(), []byte("\n"))
	out.raw(line[:len(line)/2])
}

// garbage is what mode garbage prints after the start of the stream:
// lines that are not JSON, or JSON cut short.
const garbage = "this line is not JSON\n" +
	`{"type":"assistant","message":{"content":[{"type":"text","text":"cut off in the mid` + "\n" +
	"}]}}\n" +
	"\x1b[31mError:\x1b[0m [object Object]\n" +
	`{"type":` + "\n" +
	"undefined\n"

// writeBinary writes random bytes, then a sampler of what breaks naive
// terminal output: NULs, invalid UTF-8, a clear-screen, a title change, an
// alternate-screen switch and a bare carriage return.
func writeBinary(out *stream) {
	b := make([]byte, 4096)
	_, _ = rand.Read(b)
	b = append(b, "\x00\x00\xff\xfe\xc3\x28\xed\xa0\x80"...)
	b = append(b, "\x1b[2J\x1b]0;pwned\x07\x1b[?1049h\rtext after a carriage return\x00"...)
	out.raw(b)
}

// flood streams n bytes of reply as fast as it can, then finishes. With
// piece > 0 the reply is lines of piece bytes, each streamed on its own
// (the benchmarks' shapes: a token-sized delta per event, a line per
// event, a 1 MiB event); n is then rounded down to whole lines (at least
// one).
func flood(e emitter, n int64, piece int, agent string) {
	unit := agent + " floods: the quick brown fox jumps over the lazy dog.\n"
	if piece <= 0 {
		text := strings.Repeat(unit, int(n)/len(unit)+1)[:n]
		for _, part := range split(text, int(n/(64<<10))+1) {
			e.chunk(part)
		}
		done(e, text)
		return
	}
	line := strings.Repeat(strings.TrimSuffix(unit, "\n")+" ", piece/len(unit)+1)[:piece-1] + "\n"
	lines := max(int(n)/piece, 1)
	send := e.chunk
	if m, ok := e.(messageFlooder); ok {
		send = m.message
	}
	for range lines {
		send(line)
	}
	done(e, strings.Repeat(line, lines))
}

// messageFlooder is an emitter for a CLI that sends a reply only as whole
// messages (codex): a flood in pieces is a flood of messages, and the
// finish no longer repeats them.
type messageFlooder interface {
	message(text string)
}

// stderrFlood writes more warnings than a pipe buffer holds (64 KiB on
// Linux) before any output, so a caller that drains stderr only after
// stdout deadlocks here instead of in production.
func stderrFlood(name string) {
	var b strings.Builder
	for i := 0; b.Len() < 256<<10; i++ {
		fmt.Fprintf(&b, "(%s:%d) Warning: noisy startup diagnostic %d; this is not an error.\n", name, os.Getpid(), i)
	}
	os.Stderr.WriteString(b.String())
}
