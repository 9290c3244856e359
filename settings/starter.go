package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
)

// WriteStarter writes the starter text (Starter) to path (0600), making
// its directory (0700); a file, or a symbolic link, already at path is
// never written over: the error is then fs.ErrExist.
func WriteStarter(path, text string) error {
	dir, err := trust.OpenDir(filepath.Dir(path), true)
	if err != nil {
		return err
	}
	defer dir.Close()
	f, err := dir.Create(filepath.Base(path), 0o600)
	if errors.Is(err, trust.ErrSymlink) {
		return fmt.Errorf("%s: %w", path, fs.ErrExist)
	}
	if err != nil {
		return err
	}
	_, werr := f.WriteString(text)
	if err := errors.Join(werr, f.Close()); err != nil {
		_ = dir.Remove(filepath.Base(path))
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// Starter is the commented config file arena config init writes: every
// key with its default or an example, commented out, so the file changes
// nothing until a line is uncommented (issue 32, point 12). sections are
// the protocols' sections, each as it reads uncommented (engine.Spec's
// ConfigExample): settings knows no protocol.
func Starter(sections ...string) string {
	var b strings.Builder
	b.WriteString(starterHead)
	for _, sec := range sections {
		for _, line := range strings.Split(strings.TrimRight(sec, "\n"), "\n") {
			b.WriteString("# " + line + "\n")
		}
	}
	b.WriteString(starterAgents)
	return b.String()
}

const starterHead = `# arena's config (arena config init wrote it; it is yours now).
# Every line is commented out: uncomment a key to change it. Flags win over
# this file, and this file over ~/.claude/debate.local.md. arena config
# shows the effective settings and where each came from.

# max_rounds: 5                  # confrontation rounds at most (--max-rounds)
# timeout_per_cli: 2m            # per model call: 90s, 2m or seconds (--timeout)
# save_debate_logs: true         # false: no log (--no-log)
# debate_log_path: ./debate-logs # where logs go (--log-dir); arena verdict's
#                                # go to ~/.local/state/arena/verdict-logs unless set
# skeptical_of_early_agreement: true   # a round-1 "agree" counts as "partial"
# output_cap: 8MiB               # per call: a runaway agent is stopped, not buffered

# min_families: 3                # vendor families a panel must span, the
#                                # author's left out (--min-families; 0: any)

# A budget for every run (0: no limit; see arena --help).
# max_cost: 2.50                 # USD (--max-cost)
# max_calls: 40                  # model calls (--max-calls)
# max_tokens: 500k               # tokens in and out (--max-tokens)

# Seats. Without them: the defender, then the usable challengers arena
# doctor found.
# defender: claude
# challengers: [gemini, codex, qwen]
`

const starterAgents = `
# Agents: override a built-in, or add any command as one.
# agents:
#   gemini:
#     args: [--model, gemini-2.5-pro]    # extra flags for a built-in
#   claude:
#     billing: subscription      # metered | subscription: what a budget counts
#   llama:
#     command: [ollama, run, llama3.2]
#     prompt: stdin              # argv | stdin | file
#     format: text
#     timeout: 90s
#     pty: false
`
