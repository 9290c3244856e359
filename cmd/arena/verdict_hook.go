package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/settings/hostconfig"
)

// arena verdict --install-hook: a git pre-push hook that judges the
// commits being pushed. The hook and the signature that tells arena's own
// from another's are hostconfig's; this writes it where git looks.

func (a *app) installHook(force bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	hooks, err := trust.HooksDir(ctx, ".")
	if err != nil {
		return usageCause(err, "--install-hook: not inside a git repository")
	}
	// Opened without following a link below the current directory, and
	// created 0700 if git has none yet; the hook is written through it.
	dir, err := trust.OpenDir(hooks, true)
	if err != nil {
		return usageCause(err, "--install-hook: the hooks directory %v", err)
	}
	defer dir.Close()
	exe, err := hookExe()
	if err != nil {
		return err
	}
	path := filepath.Join(hooks, "pre-push")
	script := hostconfig.HookScript(exe)
	old, err := trust.ReadFile(path, 1<<20)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := createHook(dir, script); err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "arena: installed the pre-push hook %s: every git push is judged; a reject blocks it (ARENA_VERDICT_STRICT=1 blocks an escalate too)\n", path)
		return nil
	case err != nil:
		return usageCause(err, "--install-hook: the existing hook %v", err)
	case bytes.Equal(old, script):
		fmt.Fprintf(a.stdout, "arena: the pre-push hook %s is already installed and up to date\n", path)
		return nil
	case hostconfig.HookOurs(old):
		if err := hostconfig.CheckReplace(dir, "pre-push"); err != nil {
			return usageCause(err, "--install-hook: %s: %v", path, err)
		}
		if err := dir.Replace("pre-push", script, 0o700); err != nil {
			return fmt.Errorf("write the hook: %w", err)
		}
		fmt.Fprintf(a.stdout, "arena: updated arena's pre-push hook %s\n", path)
		return nil
	case !force:
		return usagef("%s already exists and arena did not write it (or it was edited since): arena leaves it alone. Run arena verdict from it yourself, or rerun with --install-hook --force to replace it (it is kept as a backup)", path)
	}
	if err := hostconfig.CheckReplace(dir, "pre-push"); err != nil {
		return usageCause(err, "--install-hook --force: %s: %v", path, err)
	}
	backup, err := dir.WriteNew("pre-push.arena-backup", old)
	if err != nil {
		return fmt.Errorf("back up %s: %w", path, err)
	}
	if err := dir.Replace("pre-push", script, 0o700); err != nil {
		return fmt.Errorf("write the hook: %w", err)
	}
	fmt.Fprintf(a.stdout, "arena: replaced the pre-push hook %s (the old one is in %s)\n", path, backup)
	return nil
}

// hookExe is the arena the hook runs: this one, links resolved.
func hookExe() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find arena's own path for the hook: %w", err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return exe, nil
}

// createHook writes the hook where there was none; a hook it could not
// write whole is removed, so git never runs half of one.
func createHook(dir *trust.Dir, script []byte) error {
	f, err := dir.Create("pre-push", 0o700)
	if err != nil {
		return fmt.Errorf("write the hook: %w", err)
	}
	_, werr := f.Write(script)
	if err := errors.Join(werr, f.Close()); err != nil {
		_ = dir.Remove("pre-push")
		return fmt.Errorf("write the hook: %w", err)
	}
	return nil
}

// uninstallHook removes the pre-push hook arena wrote (hostconfig.RemoveHook).
func (a *app) uninstallHook() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	hooks, err := trust.HooksDir(ctx, ".")
	if err != nil {
		return usageCause(err, "--uninstall-hook: not inside a git repository")
	}
	path := filepath.Join(hooks, "pre-push")
	restored, err := hostconfig.RemoveHook(hooks)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(a.stdout, "arena: no pre-push hook in %s: nothing to remove\n", hooks)
	case errors.Is(err, hostconfig.ErrHookNotOurs):
		return usagef("%s is not the hook arena wrote (or it was edited since): arena leaves it alone; delete it yourself if you mean to", path)
	case err != nil:
		return usageCause(err, "--uninstall-hook: %v", err)
	case restored:
		fmt.Fprintf(a.stdout, "arena: removed arena's pre-push hook and put back the one it had replaced (%s)\n", path)
	default:
		fmt.Fprintf(a.stdout, "arena: removed arena's pre-push hook %s: pushes are no longer judged\n", path)
	}
	return nil
}
