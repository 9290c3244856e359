package challengers

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Credential is whether one credential source exists. Only names, never
// values: doctor output gets pasted into bug reports.
type Credential struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"` // "env" | "file"
	Present bool   `json:"present"`
}

// Probe is the result of a real one-line prompt.
type Probe struct {
	OK      bool          `json:"ok"`
	Latency time.Duration `json:"-"` // latency_seconds in JSON
	Reply   string        `json:"reply,omitempty"`
	Failure string        `json:"failure,omitempty"`
}

// Check is what doctor found out about one agent.
type Check struct {
	Agent       string        `json:"agent"`
	Executable  string        `json:"executable"`
	Path        string        `json:"path,omitempty"`
	Found       bool          `json:"found"`
	Alternative string        `json:"alternative,omitempty"` // e.g. "Antigravity CLI (agy) stands in for gemini"
	Version     string        `json:"version,omitempty"`
	VersionErr  string        `json:"version_error,omitempty"`
	VersionTook time.Duration `json:"-"` // version_took_seconds in JSON
	// VersionSlow: --version answered, but took SlowVersion or more (a
	// loaded machine, a CLI that starts slowly): usable all the same.
	VersionSlow bool `json:"version_slow,omitempty"`
	// VersionTimedOut: --version gave no answer before the timeout. Slow
	// is all that is known: not broken.
	VersionTimedOut bool `json:"version_timed_out,omitempty"`
	// VersionTimeout is how long --version was given.
	VersionTimeout time.Duration `json:"-"` // version_timeout_seconds in JSON
	Credentials    []Credential  `json:"credentials"`
	Probe          *Probe        `json:"probe,omitempty"`
	Usable         bool          `json:"usable"`
	Problem        string        `json:"problem,omitempty"`
	Install        string        `json:"install,omitempty"`
	// Family is the vendor family of the agent's model; Endpoint, for an
	// API agent, where it is asked, for which model (never a key), and
	// Models what its GET /models said of the model, under --probe.
	Family   string `json:"family"`
	Endpoint string `json:"endpoint,omitempty"`
	Models   string `json:"models,omitempty"`
}

// MarshalJSON writes a check with its durations in seconds
// (version_took_seconds, version_timeout_seconds): a duration's JSON is
// nanoseconds, which a script reading doctor --json took for seconds
// (issue 40, point 13).
func (c Check) MarshalJSON() ([]byte, error) {
	type fields Check
	return json.Marshal(struct {
		fields
		VersionTook    float64 `json:"version_took_seconds"`
		VersionTimeout float64 `json:"version_timeout_seconds"`
	}{fields(c), c.VersionTook.Seconds(), c.VersionTimeout.Seconds()})
}

// MarshalJSON writes a probe with its latency in seconds.
func (p Probe) MarshalJSON() ([]byte, error) {
	type fields Probe
	return json.Marshal(struct {
		fields
		Latency float64 `json:"latency_seconds"`
	}{fields(p), p.Latency.Seconds()})
}

// CredentialsConfigured reports whether any credential source exists.
func (c Check) CredentialsConfigured() bool {
	for _, cr := range c.Credentials {
		if cr.Present {
			return true
		}
	}
	return false
}

// DoctorOptions tunes Diagnose.
type DoctorOptions struct {
	Probe          bool
	VersionTimeout time.Duration // default DefaultVersionTimeout
	ProbeTimeout   time.Duration // default: the agent's own timeout, else 60s
	Env            []string      // nil: this process's
	Home           string        // for "~/" in credential files; "": os.UserHomeDir
}

// DefaultVersionTimeout is how long doctor waits for a CLI's --version.
// Generous: on a loaded 2-core machine gemini's takes 9 s, and a CLI that
// is merely slow must not be called broken.
const DefaultVersionTimeout = 30 * time.Second

// SlowVersion is how long a --version may take before doctor says the
// CLI is slow (it is still usable).
const SlowVersion = 3 * time.Second

// ProbePrompt is the one-line prompt of `doctor --probe`.
const ProbePrompt = "Reply with the single word OK."

// Resolve returns the agent to actually run: itself when its executable is
// on PATH, else the first alternative that is (agy for gemini), with a note
// saying so. The boolean is false when neither is found.
func Resolve(a Agent, env []string) (Agent, string, bool) {
	if a.IsAPI() {
		return a, "", true // an endpoint: nothing to find on PATH
	}
	if _, err := LookPath(a.Executable(), env); err == nil {
		return a, "", true
	}
	for _, alt := range a.Alternatives {
		if len(alt.Command) == 0 {
			continue
		}
		if _, err := LookPath(alt.Command[0], env); err == nil {
			b := a.Clone()
			b.Command = append([]string(nil), alt.Command...)
			b.StdinCommand = nil
			b.Format = alt.Format
			b.PTY = true
			return b, alt.Note, true
		}
	}
	return a, "", false
}

// Diagnose checks every agent concurrently: a slow or hanging CLI costs one
// timeout, not one per agent. Results come back in the order given.
func Diagnose(ctx context.Context, agents []Agent, opts DoctorOptions) []Check {
	checks := make([]Check, len(agents))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first *Panic
	for i, a := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p := Catch(func() { checks[i] = diagnoseOne(ctx, a, opts) }); p != nil {
				mu.Lock()
				if first == nil {
					p.Where = "checking " + a.Name
					first = p
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if first != nil {
		panic(first) // raised again where arena reports it (exit 1)
	}
	return checks
}

// NotOnPath is why doctor leaves out an agent whose program is not on
// PATH: the settings take it in again once it is.
const NotOnPath = "not found on PATH"

func diagnoseOne(ctx context.Context, a Agent, opts DoctorOptions) Check {
	if a.IsAPI() {
		return diagnoseAPI(ctx, a, opts)
	}
	c := Check{Agent: a.Name, Executable: a.Executable(), Install: a.Install, Family: Family(a)}
	c.Credentials = credentials(a, opts)
	run, note, found := Resolve(a, opts.Env)
	c.Found, c.Alternative = found, note
	if !found {
		c.Problem = NotOnPath
		return c
	}
	c.Executable = run.Executable()
	c.Path, _ = LookPath(run.Executable(), opts.Env)
	c.version(ctx, run, opts)
	switch {
	case c.VersionTimedOut:
		c.Problem = fmt.Sprintf("its --version gave no answer in %s: slow, not known to be broken (a loaded machine? raise --version-timeout)", c.VersionTimeout)
		return c
	case c.VersionErr != "":
		c.Problem = "version check failed: " + c.VersionErr
		return c
	}
	c.Usable = true
	if opts.Probe {
		c.Probe = probe(ctx, run, opts)
		if !c.Probe.OK {
			c.Usable = false
			c.Problem = "probe failed: " + c.Probe.Failure
		}
	}
	return c
}

// diagnoseAPI checks an API agent: that the variable its key_env names
// is set, and, with a probe, that the endpoint lists the model (GET
// /models) and answers the one-line prompt.
func diagnoseAPI(ctx context.Context, a Agent, opts DoctorOptions) Check {
	c := Check{Agent: a.Name, Found: true, Family: Family(a), Endpoint: a.Endpoint(), Version: "api " + string(a.API)}
	c.Credentials = credentials(a, opts)
	if _, err := apiKey(a, opts.Env); err != nil {
		c.Problem = err.Error()
		return c
	}
	c.Usable = true
	if !opts.Probe {
		return c
	}
	pctx, cancel := context.WithTimeout(ctx, probeTimeout(a, opts))
	defer cancel()
	if c.Models, c.Problem = modelListed(pctx, a, opts.Env); c.Problem != "" {
		c.Usable = false
		return c
	}
	c.Probe = probe(ctx, a, opts)
	if !c.Probe.OK {
		c.Usable = false
		c.Problem = "probe failed: " + c.Probe.Failure
	}
	return c
}

// modelListed asks the endpoint for its models and says whether it lists
// the agent's: what to show, or the problem.
func modelListed(ctx context.Context, a Agent, env []string) (said, problem string) {
	ids, err := ListModels(ctx, a, env)
	switch {
	case err != nil:
		return "", "GET /models failed: " + err.Error()
	case slices.Contains(ids, a.Model):
		of := fmt.Sprintf("%d models", len(ids))
		if len(ids) == 1 {
			of = "1 model"
		}
		return fmt.Sprintf("lists %s (of %s)", a.Model, of), ""
	}
	shown := ids
	if len(shown) > 8 {
		shown = append(slices.Clone(shown[:8]), fmt.Sprintf("and %d more", len(ids)-8))
	}
	return "", fmt.Sprintf("the endpoint does not list the model %q (it lists: %s)", a.Model, strings.Join(shown, ", "))
}

func (c *Check) version(ctx context.Context, a Agent, opts DoctorOptions) {
	timeout := opts.VersionTimeout
	if timeout <= 0 {
		timeout = DefaultVersionTimeout
	}
	args := a.VersionArgs
	if len(args) == 0 {
		args = []string{"--version"}
	}
	v := Agent{
		Name:    a.Name + " --version",
		Command: append([]string{a.Executable()}, args...),
		Prompt:  PromptStdin, Format: FormatText,
		Env: a.Env, Timeout: timeout, OutputCap: 1 << 20,
	}
	c.VersionTimeout = timeout
	res := Run(ctx, Request{Agent: v, Env: opts.Env})
	c.VersionTook = res.Duration
	if !res.OK() {
		c.VersionErr = res.Describe()
		c.VersionTimedOut = res.Reason == ReasonTimeout
		return
	}
	c.Version = firstLine(res.Text)
	c.VersionSlow = res.Duration >= SlowVersion
}

// probeTimeout is how long a probe may take: --probe-timeout, else the
// agent's own timeout, else a minute.
func probeTimeout(a Agent, opts DoctorOptions) time.Duration {
	switch {
	case opts.ProbeTimeout > 0:
		return opts.ProbeTimeout
	case a.Timeout > 0:
		return a.Timeout
	}
	return 60 * time.Second
}

func probe(ctx context.Context, a Agent, opts DoctorOptions) *Probe {
	a.Timeout = probeTimeout(a, opts)
	res := Run(ctx, Request{Agent: a, Prompt: ProbePrompt, Env: opts.Env})
	p := &Probe{OK: res.OK(), Latency: res.Duration}
	if res.OK() {
		p.Reply = firstLine(res.Text)
	} else {
		p.Failure = res.Describe()
	}
	return p
}

func credentials(a Agent, opts DoctorOptions) []Credential {
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	home := opts.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	var out []Credential
	names := a.CredentialEnv
	if a.KeyEnv != "" && !slices.Contains(names, a.KeyEnv) {
		names = append(slices.Clone(names), a.KeyEnv)
	}
	for _, name := range names {
		out = append(out, Credential{Name: name, Kind: "env", Present: envValue(env, name) != "" || a.Env[name] != ""})
	}
	for _, f := range a.CredentialFiles {
		_, err := os.Stat(expandHome(f, home))
		out = append(out, Credential{Name: f, Kind: "file", Present: err == nil})
	}
	return out
}

func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
