package challengers_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/clitest"
)

func builtins(t *testing.T, names ...string) []challengers.Agent {
	var out []challengers.Agent
	for _, n := range names {
		out = append(out, builtin(t, n, 10*time.Second))
	}
	return out
}

func TestDoctorFoundMissingBroken(t *testing.T) {
	f := clitest.New(t, "claude", "gemini", "codex") // no qwen on PATH
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"codex": {VersionMode: clitest.ModeFail}}})
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o700)
	os.WriteFile(filepath.Join(home, ".gemini", "oauth_creds.json"), []byte(`{"token":"secret-value"}`), 0o600)
	env := append(f.Env(), "ANTHROPIC_API_KEY=sk-very-secret")
	checks := challengers.Diagnose(context.Background(), builtins(t, "claude", "gemini", "codex", "qwen"),
		challengers.DoctorOptions{Env: env, Home: home})
	byName := map[string]challengers.Check{}
	for _, c := range checks {
		byName[c.Agent] = c
	}
	if c := byName["claude"]; !c.Usable || c.Version != "2.1.330 (Claude Code)" || !c.CredentialsConfigured() {
		t.Errorf("claude: %+v", c)
	}
	if c := byName["gemini"]; !c.Usable || !c.CredentialsConfigured() {
		t.Errorf("gemini: %+v", c)
	}
	if c := byName["codex"]; c.Usable || !c.Found || !strings.Contains(c.Problem, "version check failed") {
		t.Errorf("codex with a broken --version: %+v", c)
	}
	if c := byName["qwen"]; c.Found || c.Usable || c.Problem != "not found on PATH" || !strings.Contains(c.Install, "npm install") {
		t.Errorf("qwen missing: %+v", c)
	}
	for _, c := range checks {
		for _, cr := range c.Credentials {
			if strings.Contains(cr.Name, "secret") {
				t.Fatalf("a credential value leaked: %+v", cr)
			}
		}
	}
}

// Four hanging version checks cost one timeout, not four: all four are
// running before the runner's clock (a fake one, moved by the test) has
// moved at all, and one timeout later they are all over. A doctor that
// checked one agent after another would never start the second.
func TestDoctorChecksConcurrently(t *testing.T) {
	f := clitest.New(t)
	script := &clitest.Script{Agents: map[string]clitest.AgentScript{}}
	for _, n := range challengers.BuiltinNames() {
		script.Agents[n] = clitest.AgentScript{VersionMode: clitest.ModeHang}
	}
	f.SetScript(script)
	c := challengers.UseFakeClock(t)
	start := c.Now()
	const timeout = 700 * time.Millisecond
	done := make(chan []challengers.Check, 1)
	go func() {
		done <- challengers.Diagnose(context.Background(), builtins(t, challengers.BuiltinNames()...),
			challengers.DoctorOptions{Env: f.Env(), VersionTimeout: timeout})
	}()
	n := len(challengers.BuiltinNames())
	waitUntil(t, "every version check to be running", func() bool { return len(f.Calls()) == n })
	c.Advance(timeout)
	for c.WaitSleeping(func() bool { return len(done) > 0 }) {
		waitUntil(t, "the version checks to be killed", func() bool {
			for _, call := range f.Calls() {
				if alive(call.PID) {
					return false
				}
			}
			return true
		})
		c.Advance(challengers.GroupPoll)
	}
	for _, ch := range <-done {
		if ch.Usable || !strings.Contains(ch.VersionErr, "timed out") {
			t.Errorf("%s: %+v", ch.Agent, ch)
		}
	}
	if took := c.Now().Sub(start); took > timeout+challengers.GroupPoll {
		t.Fatalf("took %v of the runner's clock for four %v timeouts at once", took, timeout)
	}
}

func TestDoctorProbe(t *testing.T) {
	f := clitest.New(t)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"gemini": {Mode: clitest.ModeAuthError},
		"codex":  {Mode: clitest.ModeHang},
	}})
	// Only codex, which hangs, gets a short timeout (no ProbeTimeout: each
	// agent's own): the others answer, however loaded the machine.
	agents := builtins(t, "claude", "gemini", "codex")
	agents[2].Timeout = time.Second
	checks := challengers.Diagnose(context.Background(), agents, challengers.DoctorOptions{Env: f.Env(), Probe: true})
	if p := checks[0].Probe; p == nil || !p.OK || p.Reply != "OK" || p.Latency <= 0 {
		t.Errorf("claude probe: %+v", p)
	}
	if c := checks[1]; c.Usable || !strings.Contains(c.Probe.Failure, "401") {
		t.Errorf("gemini probe: %+v %+v", c, c.Probe)
	}
	if c := checks[2]; c.Usable || c.Probe.Failure != "timed out after 1s" {
		t.Errorf("codex probe: %+v", c.Probe)
	}
	if calls := f.CallsTo("claude"); len(calls) != 2 || calls[1].Prompt != challengers.ProbePrompt {
		t.Errorf("claude calls: %+v", calls)
	}
}

func TestAgyStandsInForGemini(t *testing.T) {
	f := clitest.New(t, "claude", "agy")
	gem := builtin(t, "gemini", 10*time.Second)
	a, note, ok := challengers.Resolve(gem, f.Env())
	if !ok || a.Executable() != "agy" || !strings.Contains(note, "Antigravity") {
		t.Fatalf("resolve: %v %q %q", ok, a.Executable(), note)
	}
	res := challengers.Run(context.Background(), challengers.Request{Agent: a, Prompt: "Reply with the single word OK.", Env: f.Env()})
	if !res.OK() || res.Text != "OK" {
		t.Fatalf("agy: %s %q", res.Describe(), res.Text)
	}
}
