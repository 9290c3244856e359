package trust

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Running git on a repository arena did not create. A repository is data:
// its .git/config, its .gitattributes and the config files it includes can
// name programs for git to run — a diff driver's textconv, an external
// diff, a filter's smudge and clean, an fsmonitor hook, hooks, a pager, a
// signature checker — and a repository handed to arena rank or arena
// judge must not be able to run any of them. Every git command arena runs
// goes through GitCommand, which
//
//   - runs only the read-only subcommands arena needs (none of them applies
//     filters: no archive, checkout or status), so a filter driver never
//     runs;
//   - overrides, on the command line (which beats every config file), each
//     setting that names a program a read-only command could run;
//   - adds --no-textconv --no-ext-diff --no-color to every command that
//     shows a diff, so the patch is git's own, whatever the user's or the
//     repository's diff configuration (difftastic as diff.external,
//     color.ui=always);
//   - takes no GIT_* variable from arena's environment (a hook's GIT_DIR,
//     a user's GIT_EXTERNAL_DIFF), never asks for a password, never takes
//     a lock that writes into the repository, and never reaches a remote.
//
// The user's own global and system configuration still apply (their
// safe.directory, their core.excludesFile); the overrides win over them
// too.

// gitOverrides are passed as -c before the subcommand.
var gitOverrides = []string{
	"core.fsmonitor=false",     // an fsmonitor hook is a command run by any index refresh
	"core.hooksPath=/dev/null", // no hook runs
	"core.pager=cat",
	"color.ui=false",
	"log.showSignature=false", // would run gpg.program on every commit shown
	"safe.bareRepository=explicit",
	"protocol.allow=never", // arena never fetches: no transport, no remote helper
	"credential.helper=",
	"gc.auto=0", // nothing writes into the repository
	"maintenance.auto=false",
	"core.untrackedCache=false",
}

// diffFamily are the subcommands that show diffs, and get the flags that
// make the diff git's own.
var diffFamily = []string{"diff", "log", "show", "diff-tree"}

// gitAllowed are the subcommands arena runs. A new one is added here on
// purpose, after checking that it runs nothing a repository configures.
var gitAllowed = []string{
	"rev-parse", "symbolic-ref", "merge-base", "show-ref", "for-each-ref",
	"ls-tree", "ls-files", "check-ignore", "cat-file", "init",
	"diff", "log", "diff-tree", "show",
}

// gitOutputLimit bounds what Git keeps of a command's output.
const gitOutputLimit = 64 << 20

// GitCommand is the one way arena prepares a git command to run in dir
// (none: the current directory). The caller wires stdin and stdout and
// runs it; Git does that for the usual case.
//
// Leading --git-dir=DIR and --work-tree=DIR arguments go before the
// subcommand, as git's own options.
func GitCommand(ctx context.Context, dir string, args ...string) (*exec.Cmd, error) {
	var global []string
	for len(args) > 0 && (strings.HasPrefix(args[0], "--git-dir=") || strings.HasPrefix(args[0], "--work-tree=")) {
		global, args = append(global, args[0]), args[1:]
	}
	if len(args) == 0 || !slices.Contains(gitAllowed, args[0]) {
		return nil, fmt.Errorf("git: arena does not run %q on a repository", strings.Join(args[:min(1, len(args))], ""))
	}
	if args[0] == "cat-file" && slices.ContainsFunc(args, func(a string) bool {
		return a == "--textconv" || a == "--filters" || strings.HasPrefix(a, "--filters=")
	}) {
		return nil, errors.New("git: cat-file with --textconv or --filters would run a repository's drivers")
	}
	argv := make([]string, 0, 2*len(gitOverrides)+len(args)+6)
	if dir != "" {
		argv = append(argv, "-C", dir)
	}
	for _, o := range gitOverrides {
		argv = append(argv, "-c", o)
	}
	argv = append(argv, global...)
	argv = append(argv, "--no-pager", args[0])
	if slices.Contains(diffFamily, args[0]) {
		argv = append(argv, "--no-textconv", "--no-ext-diff", "--no-color")
	}
	argv = append(argv, args[1:]...)
	cmd := exec.CommandContext(ctx, "git", argv...)
	cmd.Env = gitEnv(os.Environ())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd, nil
}

// gitEnv is arena's environment without a GIT_* variable, plus what keeps
// git from prompting, paging, locking or translating its messages.
func gitEnv(env []string) []string {
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "PAGER=") || strings.HasPrefix(kv, "LC_ALL=")
	})
	return append(out,
		"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=",
		"GIT_OPTIONAL_LOCKS=0", // even a read refreshes the index otherwise
		"GIT_NO_REPLACE_OBJECTS=1",
		"GIT_PAGER=cat", "PAGER=cat", "LC_ALL=C",
	)
}

// HooksDir is the directory git runs the repository at dir's hooks from
// (.git/hooks, or where core.hooksPath points): the one question for
// which the core.hooksPath override is left out.
func HooksDir(ctx context.Context, dir string) (string, error) {
	argv := []string{"-C", dir}
	for _, o := range gitOverrides {
		if !strings.HasPrefix(o, "core.hooksPath=") {
			argv = append(argv, "-c", o)
		}
	}
	cmd := exec.CommandContext(ctx, "git", append(argv, "rev-parse", "--git-path", "hooks")...)
	cmd.Env = gitEnv(os.Environ())
	out, err := cmd.Output()
	if err != nil {
		return "", &GitError{Args: []string{"rev-parse", "--git-path"}, Msg: "not inside a git repository", Err: err}
	}
	return strings.TrimSpace(string(out)), nil
}

// Git runs a git command in dir and returns its output (at most 64 MiB;
// more is an error). The error names the command and git's own first line.
func Git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd, err := GitCommand(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	var out limitedBuffer
	out.limit = gitOutputLimit
	var errb limitedBuffer
	errb.limit = 64 << 10
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if out.over {
		return nil, fmt.Errorf("git %s: printed more than %s", args[0], Size(gitOutputLimit))
	}
	if err != nil {
		msg := strings.TrimSpace(Text(errb.String()))
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = err.Error()
		}
		if ctx.Err() != nil {
			msg = "did not answer in time"
		}
		return out.Bytes(), &GitError{Args: args, Msg: msg, Err: err}
	}
	return out.Bytes(), nil
}

// GitError is a git command that failed.
type GitError struct {
	Args []string
	Msg  string // git's first line of complaint
	Err  error
}

func (e *GitError) Error() string {
	return "git " + strings.Join(e.Args[:min(2, len(e.Args))], " ") + ": " + e.Msg
}
func (e *GitError) Unwrap() error { return e.Err }

// limitedBuffer keeps at most limit bytes and notes that there was more.
type limitedBuffer struct {
	bytes.Buffer
	limit int
	over  bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.limit - b.Len(); len(p) > room {
		b.over = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

var _ io.Writer = (*limitedBuffer)(nil)
