package main

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
)

// The API fake: an OpenAI-compatible Chat Completions server, as
// OpenRouter, Ollama, vLLM and llama.cpp's server are, answering from the
// same script and with the same replies as the fake CLIs (the model asked
// for is the script's agent). Its stream is the one OpenAI's API reference
// and the openai-go SDK's tests show: "data: " lines of
// chat.completion.chunk objects, the first with the assistant's role, a
// last one with the finish reason, then, when stream_options.include_usage
// is set, a chunk with no choices and the usage, then "data: [DONE]". Its
// errors are OpenAI's bodies ({"error": {"message", "type", "param",
// "code"}}) with their statuses.
//
//	fakecli serve-api [ADDR]
//
// listens on ADDR (default 127.0.0.1:0), prints its base URL
// (http://127.0.0.1:PORT/v1) on a line of stdout, and serves until its
// standard input is closed: it never outlives the test that started it.
// It listens on a second port of the same host too, "elsewhere", where
// mode redirect points: what reaches it followed a redirect.

// serveAPI runs the API fake.
func serveAPI(args []string) int {
	addr := "127.0.0.1:0"
	if len(args) > 0 {
		addr = args[0]
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakecli: %v\n", err)
		return 1
	}
	host, _, _ := net.SplitHostPort(ln.Addr().String())
	other, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakecli: %v\n", err)
		return 1
	}
	elsewhere = "http://" + other.Addr().String()
	fmt.Printf("http://%s/v1\n", ln.Addr())
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", listModels)
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) { chatCompletions(w, r, false) })
	away := http.NewServeMux()
	away.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { chatCompletions(w, r, true) })
	go func() {
		srv := &http.Server{Handler: away, ReadHeaderTimeout: 10 * time.Second}
		fmt.Fprintf(os.Stderr, "fakecli: %v\n", srv.Serve(other))
	}()
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(os.Stderr, "fakecli: %v\n", srv.Serve(ln))
	return 1
}

// elsewhere is the base of the fake's second port ("http://HOST:PORT"),
// where mode redirect points by default.
var elsewhere string

// loadScript reads the whole script (nil: none).
func loadScript() (*fakeapi.Script, error) {
	path := os.Getenv(fakeapi.EnvScript)
	s := &fakeapi.Script{}
	if path == "" {
		return s, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading script: %w", err)
	}
	if err := json.Unmarshal(b, s); err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	return s, nil
}

// bearer is the key of the request's Authorization header ("" without).
func bearer(r *http.Request) (string, bool) {
	return strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
}

// listModels is GET /models: the script's agents are the models served.
// When any of them asks for a key, the list asks for one of those keys.
func listModels(w http.ResponseWriter, r *http.Request) {
	s, err := loadScript()
	if err != nil {
		apiError(w, http.StatusInternalServerError, "server_error", "", err.Error())
		return
	}
	key, _ := bearer(r)
	var keys, ids []string
	for id, as := range s.Agents {
		ids = append(ids, id)
		if as.Key != "" {
			keys = append(keys, as.Key)
		}
	}
	if len(keys) > 0 && !slices.Contains(keys, key) {
		refuseKey(w, key)
		return
	}
	slices.Sort(ids)
	data := make([]obj, len(ids))
	for i, id := range ids {
		data[i] = obj{{"id", id}, {"object", "model"}, {"created", 1700000000}, {"owned_by", "fakecli"}}
	}
	writeJSON(w, http.StatusOK, obj{{"object", "list"}, {"data", data}})
}

// chatRequest is the part of a Chat Completions request the fake reads.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"messages"`
	Stream        bool `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// prompt is the text of the request's user messages, joined.
func (c chatRequest) prompt() string {
	var parts []string
	for _, m := range c.Messages {
		if s, ok := m.Content.(string); ok && m.Role == "user" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}

// chatCompletions is POST /chat/completions; away, any request to the
// second port: one that followed a redirect, answered as mode ok.
func chatCompletions(w http.ResponseWriter, r *http.Request, away bool) {
	var req chatRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, 64<<20)).Decode(&req); err != nil {
		if away { // a redirect followed as a GET (301, 302, 303) is logged too
			rec := newCall(req.Model, nil)
			_, hasKey := bearer(r)
			rec.Argv0, rec.Kind, rec.API = r.Method+" "+r.URL.Path, fakeapi.KindOther, &fakeapi.APIRequest{Bearer: hasKey, Elsewhere: true}
			logCall(rec)
		}
		apiError(w, http.StatusBadRequest, "invalid_request_error", "", "could not parse the JSON body of your request: "+err.Error())
		return
	}
	s, err := loadScript()
	if err != nil {
		apiError(w, http.StatusInternalServerError, "server_error", "", err.Error())
		return
	}
	as := s.Agents[req.Model]
	rec := newCall(req.Model, nil)
	rec.Argv0 = r.Method + " " + r.URL.Path
	key, hasKey := bearer(r)
	rec.API = &fakeapi.APIRequest{Stream: req.Stream, IncludeUsage: req.StreamOptions != nil && req.StreamOptions.IncludeUsage,
		Messages: len(req.Messages), Bearer: hasKey, KeyOK: as.Key == "" || key == as.Key, Elsewhere: away}
	prompt := req.prompt()
	rec.setPrompt(prompt)
	if !rec.API.KeyOK {
		rec.Kind, rec.Mode = fakeapi.KindOther, fakeapi.ModeAuthError
		logCall(rec)
		refuseKey(w, key)
		return
	}
	p, err := resolvePlan(req.Model, as, prompt)
	if err != nil {
		apiError(w, http.StatusInternalServerError, "server_error", "", err.Error())
		return
	}
	if away {
		p.mode = fakeapi.ModeOK
	}
	echo := strings.NewReplacer(fakeapi.EchoKey, key)
	p.reply = echo.Replace(p.reply)
	rec.Kind, rec.Repair, rec.Index, rec.Mode = p.kind, p.repair, p.index, p.mode
	logCall(rec)
	st := pickStep(as.Steps, p.kind, p.repair, p.index)
	st.Message = echo.Replace(st.Message)
	e := &sseEmitter{w: w, id: "chatcmpl-" + randomID(), model: echo.Replace(firstSet(as.Model, req.Model)), created: time.Now().Unix(),
		usage: rec.API.IncludeUsage && !as.NoUsage, promptTokens: tokens(prompt), cost: as.CostUSD, rawUsage: as.Usage}
	if !req.Stream {
		whole(w, e, p)
		return
	}
	serveMode(w, r, e, p, st)
}

// serveMode answers as the plan's mode says.
func serveMode(w http.ResponseWriter, r *http.Request, e *sseEmitter, p plan, st fakeapi.Step) {
	switch p.mode {
	case fakeapi.ModeAuthError:
		key, _ := bearer(r)
		refuseKey(w, key)
	case fakeapi.ModeRateLimit:
		retry := firstSet(st.RetryAfter, "1")
		if retry != "-" {
			w.Header().Set("Retry-After", retry)
		}
		apiError(w, http.StatusTooManyRequests, "rate_limit_exceeded", "rate_limit_exceeded",
			firstSet(st.Message, "Rate limit reached for requests per minute. Please try again in "+retry+"s."))
	case fakeapi.ModeHTTPError, fakeapi.ModeExit:
		if st.RetryAfter != "" {
			w.Header().Set("Retry-After", st.RetryAfter)
		}
		status := firstSet(st.Status, http.StatusInternalServerError)
		apiError(w, status, errorType(status), "", firstSet(st.Message, "The server had an error while processing your request."))
	case fakeapi.ModeRedirect:
		w.Header().Set("Location", firstSet(st.Location, elsewhere+r.URL.Path))
		w.WriteHeader(firstSet(st.Status, http.StatusTemporaryRedirect))
	case fakeapi.ModeHangSilent:
		hangUntilGone(r)
	case fakeapi.ModeHang, fakeapi.ModeIgnoreTerm:
		e.start()
		e.chunk(split(p.reply, p.chunks)[0])
		hangUntilGone(r)
	case fakeapi.ModeCrash:
		e.start()
		parts := split(p.reply, p.chunks)
		for _, part := range parts[:len(parts)/2+1] {
			time.Sleep(p.delay)
			e.chunk(part)
		}
		// net/http drops the connection without the chunked body's end:
		// a stream cut off mid-way, as a server that dies leaves it.
		panic(http.ErrAbortHandler)
	case fakeapi.ModeGarbage, fakeapi.ModeBinary:
		e.start()
		e.event([]byte("this line is not JSON"))
	case fakeapi.ModeErrorInStream:
		e.start()
		e.fail()
	case fakeapi.ModeFlood:
		e.start()
		flood(e, p.flood, p.piece, e.model)
	default:
		e.start()
		answer(e, p)
	}
}

// hangUntilGone never answers more: it waits for the client to give up.
func hangUntilGone(r *http.Request) {
	if dir := stateDir(); dir != "" {
		_ = os.WriteFile(dir+"/"+fakeapi.HangingFile(os.Getpid()), nil, 0o644)
	}
	select {
	case <-r.Context().Done():
	case <-time.After(foreverCap):
	}
}

// errorType is OpenAI's error type for a status.
func errorType(status int) string {
	switch {
	case status == http.StatusNotFound:
		return "invalid_request_error"
	case status >= 500:
		return "server_error"
	}
	return "invalid_request_error"
}

// refuseKey is OpenAI's answer to a wrong or missing key. OpenAI masks
// the key it quotes ("sk-proj-****abcd"); this one quotes it whole, as a
// careless server might, so that arena's tests see it kept out of
// everything arena writes.
func refuseKey(w http.ResponseWriter, key string) {
	apiError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_api_key",
		"Incorrect API key provided: "+key+". You can find your API key at https://platform.openai.com/account/api-keys.")
}

// apiError writes OpenAI's error body with a status.
func apiError(w http.ResponseWriter, status int, typ, code, msg string) {
	var c any
	if code != "" {
		c = code
	}
	writeJSON(w, status, obj{{"error", obj{{"message", msg}, {"type", typ}, {"param", nil}, {"code", c}}}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(encode(v), '\n'))
}

func randomID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // never fails
	return fmt.Sprintf("%x", b)
}

// sseEmitter writes a reply as Chat Completions chunks (emitter).
type sseEmitter struct {
	w            http.ResponseWriter
	id, model    string
	created      int64
	usage        bool // send the usage chunk
	promptTokens int
	cost         float64
	rawUsage     json.RawMessage // the usage object to send as written, if set
}

// event writes one server-sent event and flushes it.
func (e *sseEmitter) event(data []byte) {
	_, _ = e.w.Write(append(append([]byte("data: "), data...), "\n\n"...))
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

// chunkOf is a chat.completion.chunk with one choice.
func (e *sseEmitter) chunkOf(delta obj, finish any) obj {
	c := obj{{"id", e.id}, {"object", "chat.completion.chunk"}, {"created", e.created}, {"model", e.model},
		{"system_fingerprint", "fp_fakecli"},
		{"choices", []obj{{{"index", 0}, {"delta", delta}, {"logprobs", nil}, {"finish_reason", finish}}}}}
	if e.usage {
		c = append(c, kv{"usage", nil})
	}
	return c
}

func (e *sseEmitter) start() {
	e.w.Header().Set("Content-Type", "text/event-stream")
	e.w.Header().Set("Cache-Control", "no-cache")
	e.w.WriteHeader(http.StatusOK)
	e.event(encode(e.chunkOf(obj{{"role", "assistant"}, {"content", ""}, {"refusal", nil}}, nil)))
}

func (e *sseEmitter) chunk(text string) {
	e.event(encode(e.chunkOf(obj{{"content", text}}, nil)))
}

func (e *sseEmitter) finish(reply string) {
	e.event(encode(e.chunkOf(obj{}, "stop")))
	if e.usage {
		out := tokens(reply)
		u := obj{{"prompt_tokens", e.promptTokens}, {"completion_tokens", out}, {"total_tokens", e.promptTokens + out}}
		if e.cost > 0 {
			u = append(u, kv{"cost", e.cost})
		}
		var usage any = u
		if e.rawUsage != nil {
			usage = e.rawUsage
		}
		e.event(encode(obj{{"id", e.id}, {"object", "chat.completion.chunk"}, {"created", e.created}, {"model", e.model},
			{"system_fingerprint", "fp_fakecli"}, {"choices", []obj{}}, {"usage", usage}}))
	}
	e.event([]byte("[DONE]"))
}

// fail is an error in the stream after it started, as OpenRouter sends
// when the provider behind it fails mid-way.
func (e *sseEmitter) fail() {
	e.event(encode(obj{{"error", obj{{"message", "The provider returned an error: upstream connection reset"}, {"type", "server_error"}, {"code", 502}}}}))
}

// whole answers a request that did not ask to stream with one
// chat.completion object.
func whole(w http.ResponseWriter, e *sseEmitter, p plan) {
	out := tokens(p.reply)
	writeJSON(w, http.StatusOK, obj{{"id", e.id}, {"object", "chat.completion"}, {"created", e.created}, {"model", e.model},
		{"choices", []obj{{{"index", 0}, {"message", obj{{"role", "assistant"}, {"content", p.reply}}}, {"finish_reason", "stop"}}}},
		{"usage", obj{{"prompt_tokens", e.promptTokens}, {"completion_tokens", out}, {"total_tokens", e.promptTokens + out}}}})
}
