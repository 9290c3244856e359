package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"
	"unicode/utf8"
)

// obj is a JSON object that keeps its keys in the order written. The real
// CLIs' events have a fixed key order (claude's result does not even start
// with "type"), and a parser that only works for one order is a bug the
// fakes should expose, so events are built as obj rather than maps.
type obj []kv

type kv struct {
	k string
	v any
}

// MarshalJSON writes the pairs in order.
func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(encode(p.k))
		b.WriteByte(':')
		b.Write(encode(p.v))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// encode marshals v the way JavaScript's JSON.stringify does as far as it
// matters here: compact, and with <, > and & left alone (Go escapes them by
// default; node and the Rust codex do not).
func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("fakecli: encoding %T: %v", v, err)) // only our own types are encoded
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// stream is the fake's stdout. Every event is one Write of one whole line,
// so a reader sees lines arrive exactly as the real CLI flushes them. w can
// be swapped (trickle, crash) while an emitter writes.
type stream struct {
	w io.Writer
}

// line writes v as one JSON line.
func (s *stream) line(v any) {
	s.raw(append(encode(v), '\n'))
}

func (s *stream) raw(b []byte) {
	// A vanished reader ends the fake by SIGPIPE, like the real CLIs.
	_, _ = s.w.Write(b)
}

func (s *stream) text(t string) {
	s.raw([]byte(t))
}

// trickleWriter passes bytes on one at a time with a pause before each.
type trickleWriter struct {
	w     io.Writer
	delay time.Duration
}

func (t trickleWriter) Write(p []byte) (int, error) {
	for i := range p {
		time.Sleep(t.delay)
		if _, err := t.w.Write(p[i : i+1]); err != nil {
			return i, err
		}
	}
	return len(p), nil
}

// uuid returns a random version 4 UUID, the shape of every session id,
// message uuid and codex thread id in the samples.
func uuid() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// msgID is claude's "msg_" + 20 hex digits.
func msgID() string {
	var b [10]byte
	_, _ = rand.Read(b[:]) // never fails
	return fmt.Sprintf("msg_%x", b)
}

// timestamp is JavaScript's Date.toISOString().
func timestamp() string {
	return time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
}

// tokens is a rough token count, enough for plausible usage numbers.
func tokens(s string) int {
	return len(s)/4 + 1
}

// split cuts s into n pieces of about equal size without splitting a UTF-8
// sequence. It always returns at least one piece, so an empty reply still
// produces one (empty) delta, as a model that says nothing does.
func split(s string, n int) []string {
	if n < 1 {
		n = 1
	}
	size := (len(s) + n - 1) / n
	var parts []string
	for len(s) > 0 {
		end := min(size, len(s))
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		parts = append(parts, s[:end])
		s = s[end:]
	}
	if len(parts) == 0 {
		parts = []string{""}
	}
	return parts
}

// textEmitter is a plain-text output format: the reply streamed as it
// arrives (streams) or printed whole at the end, then a newline.
type textEmitter struct {
	*stream
	streams bool
	// failText is the report of an API error, written by fail on stdout,
	// or on stderr when failToStderr is set ("" writes nothing).
	failText     string
	failToStderr bool
}

func (e *textEmitter) start() {}

func (e *textEmitter) chunk(t string) {
	if e.streams {
		e.text(t)
	}
}

func (e *textEmitter) finish(reply string) {
	if !e.streams {
		e.text(reply)
	}
	e.text("\n")
}

func (e *textEmitter) fail() {
	switch {
	case e.failText == "":
	case e.failToStderr:
		fmt.Fprintln(os.Stderr, e.failText)
	default:
		e.text(e.failText + "\n")
	}
}
