package challengers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/arenadebate/arena/challengers/trust"
)

// An API agent is a model behind an HTTP endpoint that speaks OpenAI's
// Chat Completions (OpenRouter, Ollama, vLLM, llama.cpp's server, LM
// Studio), asked with the official OpenAI Go SDK: no HTTP or SSE code of
// arena's own. Its reply streams into the panes like a CLI's; the usage
// the server reports (and the cost, where it says one, as OpenRouter
// does) counts in the budget like a metered CLI's.

// API names the wire protocol of an API agent.
type API string

// APIOpenAI is OpenAI's Chat Completions, streamed.
const APIOpenAI API = "openai"

// APIs lists the valid APIs, for error messages.
var APIs = []API{APIOpenAI}

// maxAPIRetries bounds the retries of one call a busy server asks for
// (429, 503), even within a long timeout: a server that says "retry
// after 0 s" for ever must not keep a seat for ever.
const maxAPIRetries = 5

// defaultRetryWait is the wait before a retry when a 429 or 503 says
// nothing of when to come back.
const defaultRetryWait = time.Second

// maxErrorBody bounds what is read of an error's body: a few hundred
// bytes say what went wrong; a proxy's HTML page says no more in 64 KiB.
const maxErrorBody = 64 << 10

// IsAPI reports whether the agent is an HTTP endpoint rather than a CLI.
func (a Agent) IsAPI() bool { return a.API != "" }

// Endpoint is where an API agent's requests go, as a person reads it:
// "https://openrouter.ai/api/v1 (anthropic/claude-sonnet-4.5)". It holds
// no key: a key goes in a header, and base_url is shown redacted
// (RedactURL), in case it holds one in its query string.
func (a Agent) Endpoint() string {
	return RedactURL(a.BaseURL) + " (" + a.Model + ")"
}

// validateAPI checks an API agent's endpoint, model and key variable.
func (a Agent) validateAPI() error {
	bad := func(field, format string, args ...any) error {
		return &FieldError{Agent: a.Name, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	u, err := url.Parse(a.BaseURL)
	switch {
	case !slices.Contains(APIs, a.API):
		return bad("api", "%q is not one of %s", a.API, joinModes(APIs))
	case strings.TrimSpace(a.BaseURL) == "":
		return bad("base_url", "is empty (e.g. http://127.0.0.1:11434/v1 for Ollama)")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return bad("base_url", "%q is not an http:// or https:// URL", RedactURL(a.BaseURL))
	case u.User != nil:
		return bad("base_url", "must not hold a user or a password: put the key in a variable and name it in key_env")
	case strings.TrimSpace(a.Model) == "":
		return bad("model", "is empty: name the model the endpoint serves (e.g. llama3.2, anthropic/claude-sonnet-4.5)")
	case a.KeyEnv != "" && strings.ContainsAny(a.KeyEnv, "= \t\x00"):
		return bad("key_env", "%q is not a variable name: key_env names the variable that holds the key, not the key", a.KeyEnv)
	}
	return nil
}

// apiKey reads the key from the variable the agent names, at call time:
// the agent's own env first, then the environment it runs with. A named
// variable that is empty is a failure before any request.
func apiKey(a Agent, env []string) (string, error) {
	if a.KeyEnv == "" {
		return "", nil
	}
	if v, ok := a.Env[a.KeyEnv]; ok && v != "" {
		return v, nil
	}
	if env == nil {
		env = os.Environ()
	}
	if v := envValue(env, a.KeyEnv); v != "" {
		return v, nil
	}
	return "", fmt.Errorf("%s is not set: it should hold the key for %s", a.KeyEnv, RedactURL(a.BaseURL))
}

// runAPI is Run for an API agent.
func runAPI(ctx context.Context, req Request) Result {
	a := req.Agent
	shown := []string{"POST", strings.TrimRight(RedactURL(a.BaseURL), "/") + "/chat/completions", "model=" + a.Model}
	key, err := apiKey(a, req.Env)
	if err != nil {
		return Result{Reason: ReasonStartFailed, ExitCode: -1, Detail: err.Error(), Command: shown, Final: true}
	}
	callCtx, cancel := withTimeout(ctx, a.Timeout)
	defer cancel()
	c := &apiCall{req: req, key: key, limit: a.OutputCap, secrets: newScrubber(a, key)}
	if c.limit <= 0 {
		c.limit = DefaultOutputCap
	}
	res := c.run(callCtx)
	res.Command, res.ExitCode = shown, -1
	if res.Reason == ReasonOK {
		res.ExitCode = 0
	}
	switch {
	case ctx.Err() != nil:
		res.Reason, res.Detail = ReasonCancelled, ""
	case callCtx.Err() != nil && res.Reason != ReasonOutputLimit:
		res.Reason, res.Detail = ReasonTimeout, ""
	}
	res.Detail = c.secrets.scrub(res.Detail)
	return res
}

// apiCall is one call of an API agent: its requests (the first, and the
// retries a busy server asks for) and what came back.
type apiCall struct {
	req     Request
	key     string
	limit   int64
	secrets *scrubber // what no text from the endpoint may show

	mu     sync.Mutex
	status *httpStatus // the last error status the server answered with
	read   int64       // bytes of the response bodies
	capHit bool
}

// httpStatus is an error answer: its status, when to come back, and what
// its body says.
type httpStatus struct {
	code       int
	retryAfter time.Duration
	hasRetry   bool
	message    string
}

// run makes the call, and tries again while the server says it is busy
// and asks for a retry the call's timeout leaves room for.
func (c *apiCall) run(ctx context.Context) Result {
	deadline := time.Time{}
	if t := c.req.Agent.Timeout; t > 0 {
		deadline = clk.Now().Add(t)
	}
	for attempt := 0; ; attempt++ {
		res, st := c.once(ctx)
		if st == nil || (st.code != http.StatusTooManyRequests && st.code != http.StatusServiceUnavailable) || attempt == maxAPIRetries {
			return res
		}
		wait := defaultRetryWait
		if st.hasRetry {
			wait = st.retryAfter
		}
		if !deadline.IsZero() && clk.Now().Add(wait).After(deadline) {
			res.Detail += fmt.Sprintf("; it asked for a retry in %s, after the call's timeout of %s", wait, c.req.Agent.Timeout)
			return res
		}
		if c.req.Retry != nil && !c.req.Retry(c.secrets.scrub(res.Detail), wait) {
			return res
		}
		if !sleepCtx(ctx, wait) {
			return res
		}
	}
}

// sleepCtx waits d on the runner's clock; false when ctx ended first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	done := make(chan struct{})
	stop := clk.AfterFunc(d, func() { close(done) })
	defer stop()
	select {
	case <-done:
		return true
	case <-ctx.Done():
		return false
	}
}

// options are the SDK's settings for one request. The services are made
// without openai.NewClient, which would read OPENAI_API_KEY and
// OPENAI_BASE_URL from the environment: a local server must never be
// sent the person's OpenAI key, nor an agent's requests go anywhere but
// its base_url. The SDK's own retries are off: arena's count as calls.
// No redirect is followed (refuseRedirect).
func (c *apiCall) options() []option.RequestOption {
	opts := []option.RequestOption{
		option.WithBaseURL(strings.TrimRight(c.req.Agent.BaseURL, "/") + "/"),
		option.WithHTTPClient(&http.Client{CheckRedirect: refuseRedirect}),
		option.WithMaxRetries(0),
		option.WithMiddleware(c.watch),
	}
	if c.key != "" {
		opts = append(opts, option.WithAPIKey(c.key))
	}
	return opts
}

// refuseRedirect is the HTTP client's answer to a redirect: no. A
// redirect is another endpoint than the one configured, and following it
// would send the prompt there (and Go's client sends the Authorization
// header along to any port of the same host). Following one only within
// the same origin, without the key, would still send the prompt to a
// path nobody configured; refusing says where the endpoint wants to be,
// and the person can make that the base_url.
func refuseRedirect(next *http.Request, _ []*http.Request) error {
	status := "a redirect"
	if r := next.Response; r != nil {
		status = r.Status
	}
	return &redirectError{status: trust.Text(status), to: RedactURL(next.URL.String())}
}

// redirectError is a redirect refused: the status that asked for it and
// where it pointed (redacted).
type redirectError struct {
	status, to string
}

func (e *redirectError) Error() string {
	return "the endpoint redirected the request to " + e.to + " (" + e.status + "), and arena follows no redirect: " +
		"the key and the prompt go to base_url only (if that is where the endpoint now is, make it the agent's base_url)"
}

// watch sees every response before the SDK does: an error answer's
// status, Retry-After and body are kept (read within maxErrorBody), and
// a stream's body is counted against the output cap.
func (c *apiCall) watch(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(r)
	if err != nil || res == nil {
		return res, err
	}
	if res.StatusCode >= 400 {
		body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		res.Body.Close()
		res.Body = io.NopCloser(bytes.NewReader(body))
		wait, ok := retryAfter(res.Header)
		c.mu.Lock()
		c.status = &httpStatus{code: res.StatusCode, retryAfter: wait, hasRetry: ok, message: bodyMessage(body, c.secrets)}
		c.mu.Unlock()
		return res, nil
	}
	res.Body = &cappedBody{ReadCloser: res.Body, c: c}
	return res, nil
}

// cappedBody counts a response body's bytes and stops it past the cap.
type cappedBody struct {
	io.ReadCloser
	c *apiCall
}

var errOverCap = errors.New("output cap reached")

func (b *cappedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.c.mu.Lock()
	defer b.c.mu.Unlock()
	b.c.read += int64(n)
	if b.c.read > b.c.limit {
		b.c.capHit = true
		return n, errOverCap
	}
	return n, err
}

// once makes one request and reads its stream to the end. It returns the
// error status the server answered with, if it did.
func (c *apiCall) once(ctx context.Context) (Result, *httpStatus) {
	c.mu.Lock()
	c.status = nil
	c.mu.Unlock()
	a := c.req.Agent
	svc := openai.NewChatCompletionService(c.options()...)
	stream := svc.NewStreaming(ctx, openai.ChatCompletionNewParams{
		Model:         a.Model,
		Messages:      []openai.ChatCompletionMessageParamUnion{openai.UserMessage(c.req.Prompt)},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	})
	r := &apiReply{emit: c.emit, secrets: c.secrets, hide: scrubStream{s: c.secrets}}
	for stream.Next() {
		r.chunk(stream.Current())
	}
	err := stream.Err()
	_ = stream.Close()
	c.mu.Lock()
	st, capHit, read := c.status, c.capHit, c.read
	c.mu.Unlock()
	res := r.result(err)
	res.Bytes = read
	var redirect *redirectError
	switch {
	case errors.As(err, &redirect):
		res.Final = true // it would redirect the same way again
	case capHit:
		res.Reason, res.Detail = ReasonOutputLimit, fmt.Sprintf("stopped after %s (output_cap)", formatBytes(c.limit))
	case st != nil:
		res.Reason, res.Detail = ReasonEndpoint, c.statusWords(st)
		res.Final = st.code >= 400 && st.code < 500 && st.code != http.StatusRequestTimeout && st.code != http.StatusConflict && st.code != http.StatusTooManyRequests
	}
	return res, st
}

// emit hands cleaned and scrubbed text to OnChunk.
func (c *apiCall) emit(text string) {
	if text != "" && c.req.OnChunk != nil {
		c.req.OnChunk(text)
	}
}

// statusWords says in plain words what an error status means for the
// seat, with what the server said.
func (c *apiCall) statusWords(st *httpStatus) string {
	a := c.req.Agent
	said := ""
	if st.message != "" {
		said = ": " + st.message
	}
	code := fmt.Sprintf("%d %s", st.code, http.StatusText(st.code))
	switch {
	case (st.code == http.StatusUnauthorized || st.code == http.StatusForbidden) && a.KeyEnv != "":
		return fmt.Sprintf("the endpoint refused the key in %s (%s%s)", a.KeyEnv, code, said)
	case st.code == http.StatusUnauthorized || st.code == http.StatusForbidden:
		return fmt.Sprintf("the endpoint asks for a key: put it in a variable and name that variable in key_env (%s%s)", code, said)
	case st.code == http.StatusNotFound:
		return fmt.Sprintf("the endpoint answered %s%s (is base_url %s right, and %q a model it serves?)", code, said, RedactURL(a.BaseURL), a.Model)
	case st.code == http.StatusTooManyRequests:
		return fmt.Sprintf("the endpoint is rate limiting (%s%s)", code, said)
	case st.code == http.StatusServiceUnavailable:
		return fmt.Sprintf("the endpoint is unavailable (%s%s)", code, said)
	case st.code < 500:
		return fmt.Sprintf("the endpoint refused the request (%s%s)", code, said)
	}
	return fmt.Sprintf("the endpoint failed (%s%s)", code, said)
}

// retryAfter reads when a busy server asks to be asked again:
// Retry-After in seconds or as a date, or OpenAI's retry-after-ms.
func retryAfter(h http.Header) (time.Duration, bool) {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms >= 0 {
		return time.Duration(ms * float64(time.Millisecond)), true
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}

// maxErrorWords bounds the server's words shown for a failure.
const maxErrorWords = 300

// bodyMessage is what an error body says: the message of OpenAI's
// {"error": {"message": …}} (OpenRouter, vLLM, llama.cpp's server),
// Ollama's {"error": "…"}, a bare {"message": …}, or the body's text,
// cleaned for the terminal, its secrets taken out, then cut short: a cut
// made first would leave all of a key but its last bytes.
func bodyMessage(body []byte, secrets *scrubber) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	msg := ""
	if json.Unmarshal(body, &v) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(v.Error, &inner) == nil && inner.Message != "":
			msg = inner.Message
		case json.Unmarshal(v.Error, &msg) == nil && msg != "":
		case v.Message != "":
			msg = v.Message
		default:
			msg = v.Detail
		}
	} else {
		msg = string(body)
	}
	msg = secrets.scrub(strings.Join(strings.Fields(trust.Text(msg)), " "))
	if len(msg) > maxErrorWords {
		cut := maxErrorWords
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	return msg
}

// apiReply gathers a streamed reply: its text, cleaned and scrubbed as it
// comes, the usage of the final chunk, and whether the stream said it was
// done.
type apiReply struct {
	emit     func(string)
	clean    trust.Cleaner
	secrets  *scrubber
	hide     scrubStream // the secrets, across chunk borders
	text     strings.Builder
	usage    *Usage
	finished bool
}

// chunk takes one chunk of the stream.
func (r *apiReply) chunk(ch openai.ChatCompletionChunk) {
	for _, choice := range ch.Choices {
		if choice.Index != 0 {
			continue
		}
		if choice.Delta.Content != "" {
			r.show(r.hide.Write(string(r.clean.Write([]byte(choice.Delta.Content)))))
		}
		if choice.FinishReason != "" {
			r.finished = true
		}
	}
	if ch.JSON.Usage.Valid() && ch.Usage.JSON.PromptTokens.Valid() {
		r.usage = &Usage{InputTokens: ch.Usage.PromptTokens, OutputTokens: ch.Usage.CompletionTokens, Model: r.secrets.scrub(trust.Text(ch.Model))}
		if f, ok := ch.Usage.JSON.ExtraFields["cost"]; ok {
			// A cost too large for a float64 is +Inf: Clamp says so.
			if cost, err := strconv.ParseFloat(f.Raw(), 64); err == nil || errors.Is(err, strconv.ErrRange) {
				r.usage.CostUSD = &cost
			}
		}
	}
}

// result is the call's result once the stream ended, with err the
// stream's error (nil at its end).
func (r *apiReply) result(err error) Result {
	r.show(r.hide.Write(string(r.clean.Flush())))
	r.show(r.hide.Flush())
	res := Result{Text: strings.TrimSpace(r.text.String()), Usage: r.usage}
	var se *ssestream.StreamError
	switch {
	case errors.As(err, &se):
		res.Reason, res.Detail = ReasonStreamError, "the endpoint reported an error in the stream: "+bodyMessage(se.Event.Data, r.secrets)
	case err != nil && !isAPIStatus(err):
		res.Reason, res.Detail = ReasonEndpoint, transportWords(err)
	case err == nil && !r.finished:
		res.Reason, res.Detail = ReasonEndpoint, "the stream ended before the reply was finished"
	case res.Text == "":
		res.Reason, res.Detail = ReasonEmpty, "the endpoint sent no text"
	default:
		res.Reason = ReasonOK
	}
	return res
}

// show adds text, cleaned and scrubbed, to the reply and streams it.
func (r *apiReply) show(text string) {
	r.text.WriteString(text)
	r.emit(text)
}

// isAPIStatus reports whether err is the SDK's report of an error status
// (which the middleware has kept in plain words).
func isAPIStatus(err error) bool {
	var ae *openai.Error
	return errors.As(err, &ae)
}

// transportWords says what went wrong between arena and the server: it
// could not be reached, the stream was cut, or what it sent was not a
// Chat Completions stream.
func transportWords(err error) string {
	var ue *url.Error
	var se *json.SyntaxError
	var re *redirectError
	switch {
	case errors.As(err, &re):
		return re.Error()
	case errors.Is(err, errOverCap):
		return "stopped at the output cap"
	case errors.As(err, &ue) && ue.Op != "":
		return "could not reach the endpoint: " + trust.Text(ue.Err.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the stream was cut off before the reply was finished"
	case errors.As(err, &se):
		return "the endpoint sent something that is not a Chat Completions stream: " + trust.Text(err.Error())
	}
	return "the stream failed: " + trust.Text(err.Error())
}

// ListModels asks an API agent's endpoint for the models it serves (GET
// /models, through the SDK, every page), for doctor --probe. An error
// says in plain words what the endpoint answered.
func ListModels(ctx context.Context, a Agent, env []string) ([]string, error) {
	key, err := apiKey(a, env)
	if err != nil {
		return nil, err
	}
	c := &apiCall{req: Request{Agent: a}, key: key, limit: DefaultOutputCap, secrets: newScrubber(a, key)}
	svc := openai.NewModelService(c.options()...)
	pager := svc.ListAutoPaging(ctx)
	var ids []string
	for pager.Next() {
		ids = append(ids, c.secrets.scrub(trust.Text(pager.Current().ID)))
	}
	if err := pager.Err(); err != nil {
		c.mu.Lock()
		st := c.status
		c.mu.Unlock()
		if st != nil {
			return nil, errors.New(c.secrets.scrub(c.statusWords(st)))
		}
		return nil, errors.New(c.secrets.scrub(transportWords(err)))
	}
	return ids, nil
}
