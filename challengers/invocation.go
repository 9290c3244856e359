package challengers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// invocation is an agent's command line for one prompt, and the temporary
// files made for it.
type invocation struct {
	argv        []string
	shown       []string // argv with the prompt elided, safe to log
	stdinPrompt bool
	dir         string
	tmp         []string // removed by cleanup
}

func (inv *invocation) cleanup() {
	for _, p := range inv.tmp {
		_ = os.RemoveAll(p)
	}
}

// prepare builds the argv for an agent and a prompt. The prompt is only
// ever one argv element (or stdin, or a file): never part of a string that
// something parses, so shell metacharacters in a topic are just text.
func prepare(a Agent, prompt string, env []string) (*invocation, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	off, err := serversOff(a, env)
	if err != nil {
		return nil, err
	}
	a.Args = slices.Concat(off, a.Args)
	inv := &invocation{}
	if err := inv.setDir(a); err != nil {
		return nil, err
	}
	switch a.Prompt {
	case PromptStdin:
		inv.argv = withArgs(a.stdinArgv(), a.Args)
		inv.stdinPrompt = true
	case PromptFile:
		err = inv.promptFile(a, prompt)
	default:
		inv.argvPrompt(a, prompt)
	}
	if err != nil {
		inv.cleanup()
		return nil, err
	}
	inv.shown = elide(inv.argv, prompt)
	return inv, nil
}

// serversOff are the flags that turn the user's MCP servers off for a
// call, where the agent's command cannot alone (agent.go's ServersOff).
// They go before the agent's args, which may turn a server back on.
func serversOff(a Agent, env []string) ([]string, error) {
	switch a.ServersOff {
	case ServersOffCodex:
		return codexServersOff(withArgs(a.Command, a.Args), mergeEnv(env, a.Env))
	default:
		return nil, nil
	}
}

// setDir picks the working directory: the configured one, or a private
// scratch directory removed after the call.
func (inv *invocation) setDir(a Agent) error {
	if a.Dir != "" {
		st, err := os.Stat(a.Dir)
		if err != nil {
			return fmt.Errorf("working directory: %w", err)
		}
		if !st.IsDir() {
			return fmt.Errorf("working directory %s is not a directory", a.Dir)
		}
		inv.dir = a.Dir
		return nil
	}
	dir, _, err := TempDir("arena-" + safeName(a.Name) + "-")
	if err != nil {
		return fmt.Errorf("scratch directory: %w", err)
	}
	inv.dir = dir
	inv.tmp = append(inv.tmp, dir)
	return nil
}

func (inv *invocation) argvPrompt(a Agent, prompt string) {
	if len(prompt) > MaxArgBytes || strings.IndexByte(prompt, 0) >= 0 {
		// Too long for one argument (or holding a NUL, which argv cannot
		// carry): the prompt goes on stdin instead.
		inv.stdinPrompt = true
		cmd := a.StdinCommand
		if len(cmd) == 0 {
			cmd = slices.DeleteFunc(slices.Clone(a.Command), func(s string) bool { return s == PromptPlaceholder })
		}
		inv.argv = withArgs(cmd, a.Args)
		return
	}
	argv := withArgs(a.Command, a.Args)
	if i := slices.Index(argv, PromptPlaceholder); i >= 0 {
		argv[i] = prompt
		inv.argv = argv
		return
	}
	inv.argv = append(argv, prompt)
}

func (inv *invocation) promptFile(a Agent, prompt string) error {
	f, err := os.CreateTemp(tempParent(), "arena-prompt-*.txt") // 0600; see TempDir
	if err != nil {
		return fmt.Errorf("prompt file: %w", err)
	}
	inv.tmp = append(inv.tmp, f.Name())
	_, werr := f.WriteString(prompt)
	if err := errors.Join(werr, f.Close()); err != nil {
		return fmt.Errorf("prompt file: %w", err)
	}
	argv := withArgs(a.Command, a.Args)
	for i, s := range argv {
		if s == PromptFilePlaceholder {
			argv[i] = f.Name()
		}
	}
	inv.argv = argv
	return nil
}

// withArgs appends extra args to a command. They go at the very end (after
// a "{prompt}" element too): inserting them before the prompt would split
// a flag from its value, as in gemini's "-p {prompt}".
func withArgs(cmd, args []string) []string {
	return append(slices.Clone(cmd), args...)
}

func elide(argv []string, prompt string) []string {
	out := slices.Clone(argv)
	for i, s := range out {
		if prompt != "" && s == prompt {
			out[i] = fmt.Sprintf("<prompt: %d bytes>", len(prompt))
		}
	}
	return out
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			return r
		}
		return '_'
	}, s)
}

// lookPath finds an executable along path (a PATH value), so that a
// request's own environment decides, not this process's.
func lookPath(name, path string) (string, error) {
	if strings.Contains(name, "/") {
		if isExecutable(name) {
			return name, nil
		}
		return "", fmt.Errorf("%s is not an executable file", name)
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if isExecutable(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%q is not on PATH", name)
}

// LookPath finds an executable along the PATH of env (nil: this process's).
func LookPath(name string, env []string) (string, error) {
	if env == nil {
		env = os.Environ()
	}
	return lookPath(name, envValue(env, "PATH"))
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// mergeEnv overlays extra on base. NO_COLOR and FORCE_COLOR=0 ask CLIs
// not to paint their output; an agent's own env can say otherwise.
func mergeEnv(base []string, extra map[string]string) []string {
	out := make([]string, 0, len(base)+len(extra)+2)
	overridden := map[string]bool{}
	defaults := map[string]string{"NO_COLOR": "1", "FORCE_COLOR": "0"}
	for k := range extra {
		overridden[k] = true
	}
	for k := range defaults {
		overridden[k] = true
	}
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if !overridden[k] {
			out = append(out, kv)
		}
	}
	for k, v := range defaults {
		if _, ok := extra[k]; !ok {
			out = append(out, k+"="+v)
		}
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		out = append(out, k+"="+extra[k])
	}
	return out
}
